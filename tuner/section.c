/* SPDX-License-Identifier: MIT */
/* section.c - sections found in and put into a file's bytes (section.h),
 * lines read as inih reads them (iniline.h).  A replaced section's
 * comments after its last key stay: they usually describe the next one. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iniline.h"
#include "section.h"
#include "memstream.h"

void rc4_section_parse(const char *text, size_t len, int line,
		       struct rc4_section *s)
{
	struct rc4_ini_text t = { 0 };
	char key[RC4_CONF_MAX_LINE + 1];
	enum rc4_key r;

	memset(s, 0, sizeof *s);
	s->text = text;
	s->len = len;
	s->line = line;
	if (rc4_ini_next(text, len, &t) && t.l.kind == RC4_INI_HEADER)
		rc4_section_key(t.p + t.l.name, t.l.name_len, s->name);
	while (rc4_ini_next(text, len, &t)) {
		if (t.l.kind != RC4_INI_ENTRY)
			continue;
		snprintf(key, sizeof key, "%.*s", (int)t.l.name_len,
			 t.p + t.l.name);
		if ((r = rc4_key_named(key)) == RC4_KEY_NONE)
			continue;
		snprintf(s->key[r].name, sizeof s->key[r].name, "%.*s",
			 (int)t.l.value_len, t.p + t.l.value);
		s->key[r].line = line + t.num - 1;
	}
	rc4_record_parse(text, len, &s->record);
	/* a result the tuner wrote is the value of its key line */
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct rc4_record_key *rk = &s->record.key[k];
		enum rc4_key read = rc4_key_read(s->key, (enum rc4k_kind)k);
		if (s->record.owner == RC4_OWNER_TUNER && rk->present &&
		    strcmp(rk->value, s->key[read].name) != 0)
			s->record.owner = RC4_OWNER_UNTRUSTED;
	}
}

void rc4_section_walk(const char *buf, size_t len, rc4_section_fn *fn,
		      void *arg)
{
	struct rc4_ini_text t = { 0 };
	size_t start = 0;
	int line = 0;
	struct rc4_section s;

	for (bool more = true; more;) {
		more = rc4_ini_next(buf, len, &t);
		if (more && t.l.kind != RC4_INI_HEADER)
			continue;
		size_t end = more ? t.at : len;
		if (line != 0) {
			rc4_section_parse(buf + start, end - start, line, &s);
			fn(arg, &s);
		}
		start = end;
		line = t.num;
	}
}

void *rc4_grow(void *items, size_t *cap, size_t n, size_t size,
	       size_t first)
{
	if (n < *cap)
		return items;
	/* doubling: a realloc an item copied them all each time, minutes
	 * for a file of thousands of sections under ASan */
	size_t more = *cap ? 2 * *cap : first;
	void *p = realloc(items, more * size);
	if (p != NULL)
		*cap = more;
	return p;
}

struct collecting {
	struct rc4_sections *ss;
	rc4_section_keep_fn *keep;
	void *arg;
};

static void collect_one(void *arg, const struct rc4_section *s)
{
	struct collecting *c = arg;
	struct rc4_sections *ss = c->ss;

	if (ss->failed || !c->keep(c->arg, s))
		return;
	struct rc4_section *more = rc4_grow(ss->s, &ss->cap, ss->n,
					    sizeof *more, 16);
	ss->failed = more == NULL;
	if (ss->failed)
		return;
	ss->s = more;
	ss->s[ss->n++] = *s;
}

int rc4_sections_collect(struct rc4_sections *ss, const char *buf,
			 size_t len, rc4_section_keep_fn *keep, void *arg)
{
	struct collecting c = { ss, keep, arg };

	rc4_section_walk(buf, len, collect_one, &c);
	return ss->failed ? -1 : 0;
}

void rc4_sections_free(struct rc4_sections *ss)
{
	free(ss->s);
	*ss = (struct rc4_sections){ 0 };
}

struct finding {
	const char *name;
	int count;
	struct rc4_section *first, *theirs;
};

static void found(void *arg, const struct rc4_section *s)
{
	struct finding *f = arg;

	if (strcmp(s->name, f->name) != 0)
		return;
	if (f->count++ == 0)
		*f->first = *s;
	if (f->theirs->line == 0 && s->record.owner != RC4_OWNER_TUNER)
		*f->theirs = *s;
}

int rc4_section_find(const char *buf, size_t len, const char *name,
		     struct rc4_section *first, struct rc4_section *theirs)
{
	struct finding f = { name, 0, first, theirs };

	memset(first, 0, sizeof *first);
	memset(theirs, 0, sizeof *theirs);
	rc4_section_walk(buf, len, found, &f);
	return f.count;
}

/* The puts' indexes in name order, for bsearch by a header's name. */
struct put_index {
	const char *name;
	size_t i;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct put_index *)a)->name,
		      ((const struct put_index *)b)->name);
}

/* How far rc4_sections_put has gone through the old bytes. */
struct merging {
	FILE *f;
	const char *old;
	const struct rc4_section_put *put;
	struct put_index *index; /* by name */
	unsigned *found;         /* how many sections of each put's name */
	size_t n;
	size_t copied;   /* old[0..copied) is dealt with */
	size_t span_end; /* end of the live section's last content line */
	bool in_live;
	bool bad; /* a write failed: the text has a hole */
};

/* N bytes at P onto M's text; M->bad when the write failed. */
static void emit(struct merging *m, const char *p, size_t n)
{
	if (fwrite(p, 1, n, m->f) != n)
		m->bad = true;
}

/* The put whose name the header T names, or N when none does. */
static size_t put_of(const struct merging *m, const struct rc4_ini_text *t)
{
	char key[RC4_CONF_MAX_SECTION + 1];
	struct put_index want = { key, 0 }, *hit;

	rc4_section_key(t->p + t->l.name, t->l.name_len, key);
	hit = bsearch(&want, m->index, m->n, sizeof *m->index, by_name);
	return hit != NULL ? hit->i : m->n;
}

/* At the header T: close the section being replaced, and when T names a
 * section to put, put its text in its place (the first time) or drop it. */
static void at_header(struct merging *m, const struct rc4_ini_text *t,
		      const char *path)
{
	size_t j = put_of(m, t);
	bool named = j < m->n;

	if (m->in_live) {
		m->copied = m->span_end; /* drop the section, keep the rest */
		m->in_live = false;
		/* An indented header now follows a key line (ours, or one
		 * before a dropped duplicate): inih would append it to that
		 * key's value.  It loses its indent. */
		if (!named && t->l.indented) {
			emit(m, m->old + m->copied, t->at - m->copied);
			m->copied = t->at + t->l.start;
		}
	}
	if (!named)
		return;
	/* A UTF-8 BOM before the first line (inih skips it) stays in front
	 * of whatever replaces that line. */
	size_t bom = t->at == 0 && t->l.start >= 3 &&
		     memcmp(t->p, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	emit(m, m->old + m->copied, t->at + bom - m->copied);
	if (m->found[j]++ == 0)
		emit(m, m->put[j].text, strlen(m->put[j].text));
	else
		fprintf(stderr, "rc4tune: %s: removed another [%s] section at "
				"line %d (the library would read its kernel "
				"last)\n",
			path, m->put[j].name, t->num);
	m->copied = t->at;
	m->span_end = t->next;
	m->in_live = true;
}

/* Whether the last line of the LEN bytes at BUF is blank (or there is
 * none), as rc4_ini_next reads it. */
static bool ends_blank(const char *buf, size_t len)
{
	struct rc4_ini_line l;
	size_t end = len, start;

	if (len == 0)
		return true;
	if (buf[end - 1] == '\n')
		end--;
	for (start = end; start > 0 && buf[start - 1] != '\n'; start--)
		;
	rc4_ini_line(buf + start, end - start, start == 0, &l);
	return l.kind == RC4_INI_BLANK;
}

/* Append to M->f (whose bytes so far are *OUT, *OUTLEN once flushed) the
 * text of each put whose name OLD did not have, in order, each after a
 * blank line. */
static void append_rest(struct merging *m, char **out, size_t *outlen)
{
	for (size_t j = 0; j < m->n; j++) {
		if (m->found[j] != 0)
			continue;
		if (fflush(m->f) != 0) {
			m->bad = true;
			return;
		}
		if (*outlen > 0 && (*out)[*outlen - 1] != '\n')
			emit(m, "\n\n", 2);
		else if (!ends_blank(*out, *outlen))
			emit(m, "\n", 1);
		emit(m, m->put[j].text, strlen(m->put[j].text));
	}
}

char *rc4_sections_put(const char *old, size_t len,
		       const struct rc4_section_put *put, size_t n,
		       const char *path, size_t *outlen)
{
	char *out = NULL;
	struct merging m = { .f = open_memstream(&out, outlen), .old = old,
			     .put = put, .n = n };
	struct rc4_ini_text t = { 0 };

	m.index = malloc((n ? n : 1) * sizeof *m.index);
	m.found = calloc(n ? n : 1, sizeof *m.found);
	m.bad = m.f == NULL || m.index == NULL || m.found == NULL;
	if (m.bad)
		goto done;
	for (size_t j = 0; j < n; j++)
		m.index[j] = (struct put_index){ put[j].name, j };
	qsort(m.index, n, sizeof *m.index, by_name);
	while (rc4_ini_next(old, len, &t)) {
		if ((t.l.kind == RC4_INI_ENTRY || t.l.kind == RC4_INI_BAD) &&
		    m.in_live)
			m.span_end = t.next;
		if (t.l.kind == RC4_INI_HEADER)
			at_header(&m, &t, path);
	}
	if (m.in_live)
		m.copied = m.span_end;
	emit(&m, old + m.copied, len - m.copied);
	append_rest(&m, &out, outlen);
	m.bad |= rc4_memstream_close(m.f) != 0;
	m.f = NULL;
done:
	free(m.index);
	free(m.found);
	if (m.f != NULL)
		fclose(m.f);
	if (m.bad)
		free(out);
	return m.bad ? NULL : out;
}

char *rc4_section_replace(const char *old, size_t len, const char *name,
			  const char *text, const char *path, size_t *outlen)
{
	struct rc4_section_put put = { name, text };

	return rc4_sections_put(old, len, &put, 1, path, outlen);
}
