/* SPDX-License-Identifier: MIT */
/* inibuild.c - whether the linked inih is built as assumed (inibuild.h),
 * by a few parses in memory through ini_parse_stream as conf.c calls it.
 * configure runs it, and rc4_conf_parse before each parse, since a shared
 * libinih can be replaced after the build.  No config.h: configure
 * compiles this file before config.h exists. */
#include <ini.h>
#include <stdio.h>
#include <string.h>
#include "inibuild.h"

/* A probe: TEXT as inih must read it.  SEEN: each call of the handler as
 * "SECTION/KEY=VALUE\n"; ERR: the line of the first error, or 0.  Else
 * inih was built with another BUILD, and does not do what EXPECT says. */
struct probe {
	const char *text, *seen;
	int err;
	const char *build, *expect;
};

static const struct probe probes[] = {
	{ "[s]\nk = v ; c\nl = v;c # c\n", "s/k=v\ns/l=v;c # c\n", 0,
	  "INI_ALLOW_INLINE_COMMENTS or INI_INLINE_COMMENT_PREFIXES",
	  "';' after a blank, and only that, starts a comment in a value" },
	{ ";c\n#c\n[s]\nk : v\n", "s/k=v\n", 0, "INI_START_COMMENT_PREFIXES",
	  "';' and '#' start a comment line, ':' separates key and value" },
	{ "\xEF\xBB\xBF[s]\nk=v\n", "s/k=v\n", 0, "INI_ALLOW_BOM",
	  "a UTF-8 byte order mark before the first line is skipped" },
	{ "[s]\nk = v\n  w\n", "s/k=v\ns/k=w\n", 0, "INI_ALLOW_MULTILINE",
	  "an indented line continues the value before it" },
	{ "[s]\nk\n", "", 2, "INI_ALLOW_NO_VALUE",
	  "a line without '=' or ':' is an error" },
	{ "[s]\n", "", 0, "INI_CALL_HANDLER_ON_NEW_SECTION",
	  "a section header alone reaches no handler" },
};

/* What one parse did. */
struct run {
	const char *pos;   /* the text not read yet */
	int num;           /* the least room inih gave the reader */
	char seen[512];    /* the handler's calls, as in struct probe */
	size_t section;    /* the longest section name the handler got */
};

/* inih's reader, as fgets: up to NUM - 1 bytes, to the first '\n'. */
static char *next(char *str, int num, void *stream)
{
	struct run *r = stream;
	size_t n = 0;

	if (num < r->num)
		r->num = num;
	if (*r->pos == '\0')
		return NULL;
	while (num > 1 && (int)n < num - 1 && r->pos[n] != '\0' &&
	       (n == 0 || r->pos[n - 1] != '\n'))
		n++;
	memcpy(str, r->pos, n);
	str[n] = '\0';
	r->pos += n;
	return str;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct run *r = user;
	size_t len = strlen(r->seen);

	if (strlen(section) > r->section)
		r->section = strlen(section);
	snprintf(r->seen + len, sizeof r->seen - len, "%s/%s=%s\n", section,
		 name ? name : "(null)", value ? value : "(null)");
	return 1;
}

static int parse(const char *text, struct run *r)
{
	memset(r, 0, sizeof *r);
	r->pos = text;
	r->num = 1 << 30;
	return ini_parse_stream(next, r, handler, r);
}

int rc4_ini_build_check(char *why, size_t whysize)
{
	char text[RC4_CONF_MAX_LINE + 64], want[RC4_CONF_MAX_LINE + 64];
	struct run r;

	/* [s] and a line of exactly RC4_CONF_MAX_LINE bytes */
	snprintf(want, sizeof want, "s/k=%0*d\n", RC4_CONF_MAX_LINE - 4, 0);
	snprintf(text, sizeof text, "[s]\nk = %0*d\n", RC4_CONF_MAX_LINE - 4, 0);
	if (parse(text, &r) != 0 || strcmp(r.seen, want) != 0 ||
	    r.num < RC4_CONF_MAX_LINE + 2) {
		snprintf(why, whysize, "inih built with a different INI_MAX_LINE: "
			 "it gives its reader room for %d bytes, where this "
			 "reader needs a line of %d, its newline and a NUL",
			 r.num, RC4_CONF_MAX_LINE);
		return -1;
	}
	/* a section name of exactly RC4_CONF_MAX_SECTION bytes */
	snprintf(text, sizeof text, "[%0*d]\nk=v\n", RC4_CONF_MAX_SECTION, 0);
	if (parse(text, &r) != 0 || r.section != RC4_CONF_MAX_SECTION) {
		snprintf(why, whysize, "inih built with a different MAX_SECTION: "
			 "it keeps %zu bytes of a %d-byte section name, which "
			 "this reader keeps whole",
			 r.section, RC4_CONF_MAX_SECTION);
		return -1;
	}
	for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
		const struct probe *p = &probes[i];
		if (parse(p->text, &r) != p->err || strcmp(r.seen, p->seen) != 0) {
			snprintf(why, whysize, "inih built with a different %s: "
				 "this reader relies on %s", p->build, p->expect);
			return -1;
		}
	}
	return 0;
}
