/* SPDX-License-Identifier: MIT */
/* merge.c - rc4tune --merge: each CPU's section from the file that speaks
 * for it best, put back through section.h, written by confwrite.c. */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "confwrite.h"
#include "iniline.h"
#include "merge.h"
#include "section.h"
#include "memstream.h"

/* One section that may go into the result, kept small: a merge may hold
 * tens of thousands (rc4tune.conf(5), FLEETS), and a parsed section
 * (struct rc4_section) is kilobytes.  What choosing needs, and where to
 * parse the rest again when it is wanted. */
struct cand {
	const char *text; /* in its file's bytes */
	size_t len;
	const char *path; /* its file */
	char *name;       /* rc4_section_key's, malloc'ed */
	int line;
	enum rc4_owner owner;
	bool uncertain; /* a result of its record is */
	char at[RC4_RECORD_TIME_MAX];
};

/* The sections of every file that may go into the result, OUT's first,
 * in file order. */
struct cands {
	struct cand *c;
	size_t n, cap;
	bool failed;  /* out of memory: some were not kept */
	const char *path; /* of the file being walked */
	bool out;     /* the file being walked is OUT, whose others stay */
	size_t n_out; /* c[0..n_out) are OUT's */
	size_t *next; /* the next of each one's name, in file order; n: none */
};

/* Whether a section's record says any of its results is uncertain. */
static bool uncertain(const struct rc4_section *s)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (s->record.key[k].present && s->record.key[k].uncertain)
			return true;
	return false;
}

/* Whether S is merged: [cpu ...], [pin] and [default] are. */
static bool merged(const struct cands *cs, const struct rc4_section *s)
{
	enum rc4_section_kind kind = rc4_section_kind(s->name);

	if (kind != RC4_SECTION_OTHER && kind != RC4_SECTION_CPU_LIKE)
		return true;
	if (!cs->out)
		fprintf(stderr, "rc4tune: warning: %s:%d: [%s] is not merged "
				"(only [cpu ...], [pin] and [default] are)\n",
			cs->path, s->line, s->name);
	return false;
}

/* For rc4_section_walk: S kept in ARG's cands if it is merged. */
static void keep(void *arg, const struct rc4_section *s)
{
	struct cands *cs = arg;

	if (cs->failed || !merged(cs, s))
		return;
	struct cand *more = rc4_grow(cs->c, &cs->cap, cs->n, sizeof *more, 64);
	cs->failed = more == NULL;
	if (cs->failed)
		return;
	cs->c = more;
	struct cand *c = &cs->c[cs->n];
	*c = (struct cand){ s->text, s->len, cs->path, strdup(s->name),
			    s->line, s->record.owner, uncertain(s), "" };
	memcpy(c->at, s->record.at, sizeof c->at);
	cs->failed = c->name == NULL;
	cs->n += !cs->failed;
}

/* Whether A speaks for its CPU better than B: a person's section, then a
 * confident one, then the newer record (its time sorts as text). */
static bool better(const struct cand *a, const struct cand *b)
{
	bool pa = a->owner != RC4_OWNER_TUNER;
	bool pb = b->owner != RC4_OWNER_TUNER;

	if (pa != pb)
		return pa;
	if (pa)
		return false; /* two persons': the first stays */
	if (a->uncertain != b->uncertain)
		return b->uncertain;
	return strcmp(a->at, b->at) > 0;
}

/* The section whose file goes in for the name of c[G], the first of its
 * name: [pin] and [default] the first (OUT's, then the inputs' in order),
 * a CPU's the best. */
static const struct cand *winner(const struct cands *cs, size_t g)
{
	const struct cand *w = &cs->c[g];
	bool cpu = rc4_section_kind(w->name) == RC4_SECTION_CPU;

	for (size_t i = cs->next[g]; cpu && i < cs->n; i = cs->next[i])
		if (better(&cs->c[i], w))
			w = &cs->c[i];
	return w;
}

/* Warn of the sections named like W, from another file than W's (whose
 * every section of the name goes in), that say otherwise and are left
 * out: another [pin] or [default], a person's section for the CPU. */
static void warn_left_out(const struct cands *cs, size_t g,
			  const struct cand *w)
{
	bool cpu = rc4_section_kind(w->name) == RC4_SECTION_CPU;
	struct rc4_section ws, other;

	rc4_section_parse(w->text, w->len, w->line, &ws);
	for (size_t i = g; i < cs->n; i = cs->next[i]) {
		const struct cand *c = &cs->c[i];
		if (c->path == w->path || (cpu && c->owner == RC4_OWNER_TUNER))
			continue;
		rc4_section_parse(c->text, c->len, c->line, &other);
		int k = 0; /* the same keys with the same values: not said */
		while (k < RC4_KEYS &&
		       strcmp(other.key[k].name, ws.key[k].name) == 0)
			k++;
		if (k == RC4_KEYS)
			continue;
		fprintf(stderr, "rc4tune: warning: %s:%d: [%s] differs from "
				"%s:%d's, which is kept%s\n",
			c->path, c->line, c->name, w->path, w->line,
			cpu ? " (both a person's)" : "");
	}
}

/* The section's text to put in: from its header's '[' (rc4tune(1)) up to
 * its last key (the comments after it belong to what follows in its
 * file), with '\n' line ends; malloc'ed, NULL when out of memory. */
static char *body(const struct rc4_section *s)
{
	struct rc4_ini_text t = { 0 };
	size_t start = 0, end = 0, n = 0;
	char *text;

	while (rc4_ini_next(s->text, s->len, &t))
		if (t.num == 1) {
			start = t.at + t.l.start;
			end = t.next;
		} else if (t.l.kind != RC4_INI_BLANK &&
			   t.l.kind != RC4_INI_COMMENT) {
			end = t.next;
		}
	if ((text = malloc(end - start + 2)) == NULL)
		return NULL;
	for (size_t i = start; i < end; i++)
		if (s->text[i] != '\r' || i + 1 >= end || s->text[i + 1] != '\n')
			text[n++] = s->text[i];
	if (n == 0 || text[n - 1] != '\n')
		text[n++] = '\n';
	text[n] = '\0';
	return text;
}

/* The text of C as a fleet file carries it: a CPU's section of the
 * tuner's as its keys and record, resealed, without tables, basis lines
 * or history, so that 580 CPU models fit the library's size limit
 * (rc4tune.conf(5)); any other as it is.  NULL when out of memory. */
static char *text_one(const struct cand *c)
{
	struct rc4_section s;

	rc4_section_parse(c->text, c->len, c->line, &s);
	if (rc4_section_kind(s.name) != RC4_SECTION_CPU ||
	    s.record.owner != RC4_OWNER_TUNER)
		return body(&s);
	for (int k = 0; k < RC4K_KINDS; k++) {
		s.record.key[k].nruns = 0;
		s.record.key[k].basis.present = false;
	}
	return rc4_section_build(s.name, &s.record, NULL, NULL);
}

/* What goes in for the winner W: every section of its name in W's file,
 * in order, which the library reads as one section (a person's later
 * duplicate that sets only kernel keeps the tuner's batch kernels).
 * Malloc'ed, NULL when out of memory. */
static char *text_of(const struct cands *cs, size_t g, const struct cand *w)
{
	char *all = NULL;
	size_t n = 0;
	bool first = true, failed = false;
	FILE *f = open_memstream(&all, &n);

	if (f == NULL)
		return NULL;
	for (size_t i = g; i < cs->n && !failed; i = cs->next[i]) {
		const struct cand *c = &cs->c[i];
		if (c->path != w->path)
			continue;
		char *text = text_one(c);
		failed = text == NULL;
		if (text != NULL)
			failed = fprintf(f, "%s%s", first ? "" : "\n", text) < 0;
		first = false;
		free(text);
	}
	if ((rc4_memstream_close(f) != 0) | failed) {
		free(all);
		return NULL;
	}
	return all;
}

/* What section W is, for the notes. */
static void note(FILE *f, const struct cand *w)
{
	fprintf(f, "rc4tune: [%s]: %s:%d, %s", w->name, w->path, w->line,
		rc4_owner_name(w->owner));
	if (w->owner == RC4_OWNER_TUNER)
		fprintf(f, " (%s, %s)",
			w->uncertain ? "uncertain" : "confident", w->at);
	fputc('\n', f);
}

/* The candidates group() sorts the indexes of. */
static const struct cand *sorting;

static int by_name_place(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sorting[i].name, sorting[j].name);

	return c != 0 ? c : (i > j) - (i < j);
}

/* Link each candidate to the next of its name (CS->next) and mark each
 * that is not the first of its name (*LATER); malloc'ed.  -1 when out of
 * memory. */
static int group(struct cands *cs, bool **later)
{
	size_t n = cs->n, *at = malloc((n ? n : 1) * sizeof *at);

	cs->next = malloc((n ? n : 1) * sizeof *cs->next);
	*later = calloc(n ? n : 1, sizeof **later);
	if (at == NULL || cs->next == NULL || *later == NULL) {
		free(at);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		at[i] = i;
		cs->next[i] = n;
	}
	/* by name, then place: qsort has no context, so names are compared
	 * through a file-scope pointer (one merge at a time) */
	sorting = cs->c;
	qsort(at, n, sizeof *at, by_name_place);
	for (size_t k = 1; k < n; k++)
		if (strcmp(cs->c[at[k - 1]].name, cs->c[at[k]].name) == 0) {
			cs->next[at[k - 1]] = at[k];
			(*later)[at[k]] = true;
		}
	free(at);
	return 0;
}

/* OLD with each name's winner put in, in the order the names first
 * appear: one walk over OLD (rc4_sections_put), so that the time grows
 * with the bytes, not with their square. */
static char *put_winners(struct cands *cs, const char *old, size_t len,
			 const char *outpath, FILE *notes, size_t *outlen)
{
	size_t np = 0;
	bool *later = NULL;
	struct rc4_section_put *put = NULL;
	char *buf = NULL;
	bool failed = group(cs, &later) != 0 ||
		      (put = calloc(cs->n ? cs->n : 1, sizeof *put)) == NULL;

	for (size_t g = 0; !failed && g < cs->n; g++) {
		if (later[g])
			continue;
		const struct cand *w = winner(cs, g);
		warn_left_out(cs, g, w);
		if (notes != NULL)
			note(notes, w);
		/* OUT's own stays as it is, every line of every duplicate
		 * (the library reads them as one section) */
		if ((size_t)(w - cs->c) < cs->n_out)
			continue;
		put[np].name = w->name;
		put[np].text = text_of(cs, g, w);
		failed = put[np++].text == NULL;
	}
	if (!failed)
		buf = rc4_sections_put(old, len, put, np, outpath, outlen);
	for (size_t k = 0; k < np; k++)
		free((char *)put[k].text);
	free(put);
	free(later);
	free(cs->next);
	return buf;
}

/* The file at PATH, as read for a merge: its LEN bytes. */
struct merge_input {
	const char *path;
	char *buf;
	size_t len;
};

/* The merge of OUT's bytes (OLD, LEN bytes; LEN 0: no file yet) and the
 * N files IN, as rc4tune(1), --merge, says; warnings on stderr name
 * OUTPATH and each file, and what each section came from goes to NOTES
 * (may be NULL).  The new file, malloc'ed, *OUTLEN bytes, or NULL when
 * out of memory. */
static char *merge_sections(const char *old, size_t len, const char *outpath,
			    const struct merge_input *in, int n, FILE *notes,
			    size_t *outlen)
{
	struct cands cs = { .path = outpath, .out = true };
	char *out = NULL;

	/* the sections that are merged, OUT's first */
	rc4_section_walk(old, len, keep, &cs);
	cs.out = false;
	cs.n_out = cs.n;
	for (int i = 0; i < n; i++) {
		cs.path = in[i].path;
		rc4_section_walk(in[i].buf, in[i].len, keep, &cs);
	}
	if (!cs.failed)
		out = put_winners(&cs, old, len, outpath, notes, outlen);
	for (size_t i = 0; i < cs.n; i++)
		free(cs.c[i].name);
	free(cs.c);
	return out;
}

/* PATH read as the library reads a config, into IN: 0, or -1 after
 * saying why. */
static int load(const char *path, struct merge_input *in)
{
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];

	in->path = path;
	in->buf = rc4_conf_load(path, &in->len);
	/* refused or missing: read again only to say why */
	int rc = in->buf != NULL ? rc4_conf_parse(in->buf, in->len, NULL, &conf,
						  NULL, why, sizeof why)
				 : rc4_conf_read(path, NULL, &conf, NULL, why,
						 sizeof why);
	if (in->buf == NULL && rc == 0) {
		fprintf(stderr, "rc4tune: %s: cannot read it\n", path);
		return -1;
	}
	if (rc > 0) {
		fprintf(stderr, "rc4tune: %s: no such file\n", path);
		return -1;
	}
	if (rc < 0) {
		fprintf(stderr, "rc4tune: %s:", path);
		if (conf.bad_line != 0)
			fprintf(stderr, "%d:", conf.bad_line);
		fprintf(stderr, " the library refuses this file (%s): nothing "
				"merged\n", why);
		return -1;
	}
	return 0;
}

/* A merge under way: the inputs, and the notes of the last pass. */
struct merging {
	const struct merge_input *in;
	int n;
	const char *path;
	bool quiet;
	char *notes;
	size_t notes_len;
};

/* One pass under W's lock: OUT read, merged with the inputs (the notes
 * of this pass in M), replaced; 0, CONFWRITE_AGAIN or -1 after saying
 * why. */
static int merge_once(struct merging *m, struct confwrite *w)
{
	const char *old;
	size_t len, n = 0;
	FILE *notes = NULL;

	if (confwrite_read(w, &old, &len) != 0)
		return -1;
	free(m->notes);
	m->notes = NULL;
	if (!m->quiet &&
	    (notes = open_memstream(&m->notes, &m->notes_len)) == NULL)
		m->quiet = true;
	char *text = merge_sections(old, len, m->path, m->in, m->n, notes, &n);
	if (notes != NULL)
		fclose(notes);
	if (text == NULL) {
		perror("rc4tune");
		confwrite_kept(w);
		return -1;
	}
	int rc = confwrite_replace(w, text, n);
	free(text);
	return rc;
}

int merge_files(const char *const *files, int n, const char *out, bool quiet)
{
	struct merge_input *in = calloc((size_t)n, sizeof *in);
	struct confwrite w;
	int r = EXIT_FAILURE, i = 0;

	if (in == NULL) {
		perror("rc4tune");
		return EXIT_FAILURE;
	}
	while (i < n && load(files[i], &in[i]) == 0)
		i++;
	if (i == n && confwrite_open(&w, out) == 0) {
		/* a device or a pipe gets the file alone */
		struct merging m = { in, n, out, quiet || w.fd >= 0, NULL, 0 };
		int rc = confwrite_lock(&w);
		/* again while a writer without the lock created the file */
		while (rc == 0 && (rc = merge_once(&m, &w)) == CONFWRITE_AGAIN)
			rc = 0;
		confwrite_unlock(&w);
		if (rc == 0) {
			r = EXIT_SUCCESS;
			if (!m.quiet && w.unchanged)
				printf("%src4tune: %s unchanged: it already "
				       "holds the merge of %d file%s\n",
				       m.notes ? m.notes : "", out, n,
				       n == 1 ? "" : "s");
			else if (!m.quiet)
				printf("%src4tune: merged %d file%s into %s\n",
				       m.notes ? m.notes : "", n,
				       n == 1 ? "" : "s", out);
		}
		free(m.notes);
		confwrite_close(&w);
	}
	for (int j = 0; j < n; j++)
		free(in[j].buf);
	free(in);
	return r;
}
