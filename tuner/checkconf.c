/* SPDX-License-Identifier: MIT */
/* checkconf.c - everything in a config that the library silently tolerates
 * or cannot use: the library's own reader runs, and its hooks show this
 * file every line and every key. */
#include <config.h>

#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checkconf.h"
#include "iniline.h"
#include "sectionname.h"
#include "select.h"

/* Each section name seen, to report repeats, with the last line and
 * value of each key (rc4_keys) in it, to judge it once the file is read;
 * values malloc'ed, as many bytes as the file's. */
struct seen {
	struct seen *next; /* in order of first appearance */
	char name[RC4_CONF_MAX_SECTION + 1];
	int line, key_line[RC4_KEYS];
	char *value[RC4_KEYS];
};

struct check {
	const char *section; /* this CPU's, or NULL */
	checkconf_note *note;
	void *arg;
	bool oom;
	/* The sections in a list, and in a tree by name (tsearch): a 256 KiB
	 * file holds up to 65536 headers, and a list searched linearly is
	 * quadratic. */
	struct seen *first, **last;
	void *tree;
	struct seen *cur; /* the last header's section; NULL before one */
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct seen *)a)->name,
		      ((const struct seen *)b)->name);
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
		     "hex", sec);
	else if (kind == RC4_SECTION_OTHER)
		note(c, line, false, "unknown section [%s]: ignored", sec);
	struct seen *s = calloc(1, sizeof *s), **at = NULL;
	if (s != NULL) {
		snprintf(s->name, sizeof s->name, "%s", sec);
		s->line = line;
		at = tsearch(s, &c->tree, by_name);
	}
	if (at == NULL) {
		free(s);
		c->oom = true;
		return;
	}
	c->cur = *at;
	if (*at != s) {
		free(s);
		note(c, line, false,
		     "section [%s] repeated (first at line %d): the keys "
		     "merge, the last kernel wins",
		     sec, c->cur->line);
		return;
	}
	*c->last = s;
	c->last = &s->next;
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

/* The reader's entry hook: every key = value. */
static void on_entry(void *arg, int num, const char *sec, const char *key,
		     const char *value)
{
	struct check *c = arg;

	if (c->oom)
		return;
	/* inih gives keys before the first header the section "" */
	if (c->cur == NULL)
		note(c, num, false, "key outside any section: ignored");
	enum rc4_key k = rc4_key_named(key);
	if (k == RC4_KEY_NONE) {
		note(c, num, false, "unknown key \"%s\" in [%s]: ignored", key,
		     sec);
		return;
	}
	if (c->cur == NULL)
		return;
	struct seen *s = c->cur;
	if (s->key_line[k] != 0)
		note(c, num, false, "%s set again in [%s] (before at line %d): "
				    "the last value wins",
		     key, sec, s->key_line[k]);
	s->key_line[k] = num;
	free(s->value[k]);
	c->oom |= (s->value[k] = strdup(value)) == NULL;
}

/* Section S judged as the library takes it: this CPU's, [pin] and
 * [default] as they apply here (CONF's values: the file's duplicates
 * merged); another CPU's as far as this build knows its kernels. */
static void judge_section(struct check *c, const struct seen *s,
			  const struct rc4_conf *conf)
{
	struct rc4_conf_value other[RC4_KEYS];
	int slot = rc4_conf_slot(s->name, c->section);
	enum rc4_section_kind is = rc4_section_kind(s->name);
	const struct rc4_conf_value *v = slot >= 0 ? conf->value[slot] : other;
	struct rc4_keys_how how = { slot >= 0, NULL, NULL };
	struct rc4_keys_use u;

	if (slot < 0 && (is != RC4_SECTION_CPU || !rc4_section_cpu_ok(s->name)))
		return;
	for (int k = 0; k < RC4_KEYS && slot < 0; k++) {
		snprintf(other[k].name, sizeof other[k].name, "%s",
			 s->value[k] ? s->value[k] : "");
		other[k].line = s->key_line[k];
	}
	rc4_keys_judge(v, &how, &u);
	for (int k = 0; k < RC4_KEYS; k++) {
		const struct rc4_key_bad *bad = &u.bad[k];
		enum rc4_key_role role = rc4_keys[k].role;
		const char *key = rc4_keys[k].name;
		const char *kernel = v[RC4_KEY_KERNEL].name;
		if (bad->line == 0)
			continue;
		if (bad->why == NULL)
			note(c, bad->line, true, "unknown kernel \"%s\" in [%s] "
						 "(rc4tune --list names them)",
			     v[k].name, s->name);
		else if (role != RC4_ROLE_SHORT && role != RC4_ROLE_BYTES)
			note(c, bad->line, true, "%s = %s in [%s]: %s", key,
			     v[k].name, s->name, bad->why);
		else /* the split's keys: with the kernel they split, if any */
			note(c, bad->line, true, "%s = %s in [%s]: %s%s%s%s: "
			     "the library ignores the split",
			     key, v[k].name, s->name, bad->why,
			     *kernel ? " (kernel = " : "", kernel,
			     *kernel ? ")" : "");
	}
}

int checkconf(const char *path, const char *section, checkconf_note *cb,
	      void *arg, struct rc4_conf *conf, char *why, size_t whysize)
{
	struct check c = { .section = section, .note = cb, .arg = arg,
			   .last = &c.first };
	struct rc4_conf_hooks hooks = { on_line, on_entry, &c };
	int rc = rc4_conf_read(path, section, conf, &hooks, why, whysize);

	for (struct seen *s = c.first; rc == 0 && !c.oom && s; s = s->next)
		judge_section(&c, s, conf);
	for (struct seen *s = c.first; s; s = s->next)
		for (int k = 0; k < RC4_KEYS; k++)
			free(s->value[k]);
	tdestroy(c.tree, free);
	if (c.oom) {
		snprintf(why, whysize, "out of memory");
		rc = -1;
	}
	return rc;
}
