/* SPDX-License-Identifier: MIT */
/* checkconf.c - everything in a config that the library silently tolerates
 * or cannot use: the library's own reader runs, and its hooks show this
 * file every line and every key. */
#include <config.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checkconf.h"
#include "iniline.h"
#include "sectionname.h"
#include "select.h"

/* The keys a section's key_line[] follows: each kind's own, then the
 * key kinds share and the size split's two. */
enum { SEEN_SHARED = RC4K_KINDS, SEEN_SHORT_KERNEL, SEEN_SHORT_BELOW,
       SEEN_KEYS };

/* Each section name seen, to report repeats. */
struct seen {
	char name[RC4_CONF_MAX_SECTION + 1];
	int line, key_line[SEEN_KEYS];
};

struct check {
	const char *section; /* this CPU's, or NULL */
	checkconf_note *note;
	void *arg;
	bool oom;
	/* The sections in order of first appearance, and an open-addressing
	 * table of their indices + 1 (0: free) with twice as many slots.  A
	 * 256 KiB file holds up to 65536 headers: a list searched linearly
	 * is quadratic. */
	struct seen *seen;
	size_t nseen, cap, *index;
	size_t cur; /* seen[cur]: the last header's section, if nseen > 0 */
	/* per section that speaks for this CPU (RC4_CONF_PIN ...): the
	 * last split key line already reported, so that the split's own
	 * check does not say it twice */
	int split_said[RC4_CONF_SECTIONS];
};

static void note(struct check *c, int line, bool error, const char *fmt, ...)
{
	char msg[RC4_CONF_MAX_LINE + 160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	rc4_printable(msg);
	c->note(c->arg, line, error, msg);
}

/* FNV-1a: section names are short and few collide. */
static size_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* NAME's slot in the index: its entry's, or the free one to fill. */
static size_t *slot_of(struct check *c, const char *name)
{
	size_t mask = 2 * c->cap - 1; /* cap is a power of two */

	for (size_t i = hash(name) & mask;; i = (i + 1) & mask)
		if (c->index[i] == 0 ||
		    strcmp(c->seen[c->index[i] - 1].name, name) == 0)
			return &c->index[i];
}

/* Room for one more section: the list doubles, the index is rebuilt at
 * twice its size, so that it stays at most half full. */
static bool room(struct check *c)
{
	if (c->nseen < c->cap)
		return true;
	size_t cap = c->cap != 0 ? 2 * c->cap : 16;
	struct seen *seen = realloc(c->seen, cap * sizeof *seen);
	if (seen == NULL)
		return false;
	c->seen = seen;
	size_t *index = calloc(2 * cap, sizeof *index);
	if (index == NULL)
		return false;
	free(c->index);
	c->index = index;
	c->cap = cap;
	for (size_t i = 0; i < c->nseen; i++)
		*slot_of(c, c->seen[i].name) = i + 1;
	return true;
}

/* The section SEC that a header at LINE starts: what kind it is and
 * whether it appeared before. */
static void enter_section(struct check *c, int line, const char *sec)
{
	enum rc4_section_kind kind = rc4_section_kind(sec);

	if ((kind == RC4_SECTION_CPU || kind == RC4_SECTION_CPU_LIKE) &&
	    !rc4_section_cpu_ok(sec))
		note(c, line, true,
		     "malformed section [%s]: want [cpu VENDOR FAMILY MODEL], "
		     "single spaces, numbers in decimal or 0x and lowercase "
		     "hex",
		     sec);
	else if (kind == RC4_SECTION_OTHER)
		note(c, line, false, "unknown section [%s]: ignored", sec);
	if (!room(c)) {
		c->oom = true;
		return;
	}
	size_t *slot = slot_of(c, sec);
	if (*slot != 0) {
		c->cur = *slot - 1;
		note(c, line, false,
		     "section [%s] repeated (first at line %d): the keys "
		     "merge, the last kernel wins",
		     sec, c->seen[c->cur].line);
		return;
	}
	c->cur = c->nseen++;
	*slot = c->nseen;
	memset(&c->seen[c->cur], 0, sizeof c->seen[c->cur]);
	snprintf(c->seen[c->cur].name, sizeof c->seen[c->cur].name, "%s", sec);
	c->seen[c->cur].line = line;
}

/* The reader's line hook: headers, with keys or without (inih tells of a
 * section only with its first key). */
static void on_line(void *arg, int num, const char *text, size_t len)
{
	struct check *c = arg;
	struct rc4_ini_line l;
	char sec[RC4_CONF_MAX_SECTION + 1];

	if (c->oom)
		return;
	rc4_ini_line(text, len, num == 1, &l);
	if (l.kind != RC4_INI_HEADER)
		return;
	rc4_section_key(text + l.name, l.name_len, sec);
	enter_section(c, num, sec);
}

/* A kernel must exist in this build; where it applies to this CPU (its
 * own section, [pin], [default]) it must also run and pass its self-test
 * here.  Sections of other CPUs may name kernels this CPU cannot run.
 * Whether it said an error. */
static bool check_kernel(struct check *c, int num, enum rc4k_kind kind,
			 const char *sec, const char *value)
{
	const char *why, *what = rc4k_kinds[kind].what;

	if (rc4_kernel_usable(kind, value, NULL, &why) == NULL && why == NULL) {
		note(c, num, true, "unknown %s \"%s\" in [%s] (rc4tune --list "
				   "names them)",
		     what, value, sec);
		return true;
	}
	enum rc4_section_kind is = rc4_section_kind(sec);
	if (is != RC4_SECTION_DEFAULT && is != RC4_SECTION_PIN &&
	    (c->section == NULL || strcmp(sec, c->section) != 0))
		return false;
	if (why != NULL)
		note(c, num, true, "%s \"%s\" in [%s]: %s", what, value, sec,
		     why);
	return why != NULL;
}

/* Which of the sections that speak for this CPU SEC is (RC4_CONF_PIN
 * ...), or -1. */
static int speaks_as(const struct check *c, const char *sec)
{
	enum rc4_section_kind is = rc4_section_kind(sec);

	return is == RC4_SECTION_PIN	 ? RC4_CONF_PIN
	       : is == RC4_SECTION_DEFAULT ? RC4_CONF_DEFAULT
	       : c->section != NULL && strcmp(sec, c->section) == 0
		       ? RC4_CONF_CPU
		       : -1;
}

/* A size split's key KEY = VALUE at NUM in SEC, checked alone: its
 * key_line[] index, or -1 when KEY is not one. */
static int split_key(struct check *c, int num, const char *sec,
		     const char *key, const char *value)
{
	size_t bytes;
	bool said = false;

	if (strcmp(key, RC4_CONF_SHORT_KERNEL) != 0 &&
	    strcmp(key, RC4_CONF_SHORT_BELOW) != 0)
		return -1;
	bool is_kernel = strcmp(key, RC4_CONF_SHORT_KERNEL) == 0;
	if (is_kernel)
		said = check_kernel(c, num, RC4K_SINGLE, sec, value);
	else if ((said = rc4_conf_bytes(value, &bytes) != 0))
		note(c, num, true, "short_below \"%s\" in [%s]: not a whole "
				   "number of bytes from 1 to %d",
		     value, sec, RC4_CONF_SHORT_MAX);
	int slot = speaks_as(c, sec);
	if (slot >= 0 && said)
		c->split_said[slot] = num;
	return is_kernel ? SEEN_SHORT_KERNEL : SEEN_SHORT_BELOW;
}

/* The reader's entry hook: every key = value. */
static void on_entry(void *arg, int num, const char *sec, const char *key,
		     const char *value)
{
	struct check *c = arg;
	bool also;

	if (c->oom)
		return;
	/* inih gives keys before the first header the section "" */
	if (c->nseen == 0)
		note(c, num, false, "key outside any section: ignored");
	int kind = (int)rc4k_kind_of_key(key, 0, &also);
	int index = kind < RC4K_KINDS ? also ? SEEN_SHARED : kind
				      : split_key(c, num, sec, key, value);
	if (index < 0) {
		note(c, num, false, "unknown key \"%s\" in [%s]: ignored", key,
		     sec);
		return;
	}
	if (kind < RC4K_KINDS)
		check_kernel(c, num, (enum rc4k_kind)kind, sec, value);
	if (c->nseen == 0)
		return;
	int *before = &c->seen[c->cur].key_line[index];
	if (*before != 0)
		note(c, num, false, "%s set again in [%s] (before at line %d): "
				    "the last value wins",
		     key, sec, *before);
	*before = num;
}

/* The size splits, once the file is read: in the sections that speak
 * for this CPU, as the library takes them for the kernel each names
 * (rc4_split_resolve: both keys, a number, a short kernel of the
 * kernel's family); in other CPUs' sections, both keys or neither. */
static void check_splits(struct check *c, const struct rc4_conf *conf)
{
	for (int slot = 0; slot < RC4_CONF_SECTIONS; slot++) {
		const char *name = conf->value[RC4K_SINGLE][slot].name, *why;
		const struct rc4k_info *k =
			rc4_kernel_usable(RC4K_SINGLE, name, NULL, NULL);
		struct rc4_split split;
		int line;
		/* a kernel that cannot run here is said at its own line */
		if (k != NULL &&
		    rc4_split_resolve(conf, slot, rc4k_single(k), NULL, &split,
				      &why, &line) < 0 &&
		    line != c->split_said[slot])
			note(c, line, true, "%s with kernel = %s: the library "
					    "ignores the split",
			     why, name);
	}
	for (size_t i = 0; i < c->nseen; i++) {
		const struct seen *s = &c->seen[i];
		int k = s->key_line[SEEN_SHORT_KERNEL],
		    b = s->key_line[SEEN_SHORT_BELOW];
		if (speaks_as(c, s->name) < 0 && (k == 0) != (b == 0))
			note(c, k ? k : b, true, "%s without %s in [%s]: the "
						 "library ignores it",
			     k ? RC4_CONF_SHORT_KERNEL : RC4_CONF_SHORT_BELOW,
			     k ? RC4_CONF_SHORT_BELOW : RC4_CONF_SHORT_KERNEL,
			     s->name);
	}
}

int checkconf(const char *path, const char *section, checkconf_note *cb,
	      void *arg, struct rc4_conf *conf, char *why, size_t whysize)
{
	struct check c = { .section = section, .note = cb, .arg = arg };
	struct rc4_conf_hooks hooks = { on_line, on_entry, &c };
	int rc = rc4_conf_read(path, section, conf, &hooks, why, whysize);

	if (rc == 0 && !c.oom)
		check_splits(&c, conf);

	if (c.oom) {
		snprintf(why, whysize, "out of memory");
		rc = -1;
	}
	free(c.index);
	free(c.seen);
	return rc;
}
