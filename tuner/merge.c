/* SPDX-License-Identifier: MIT */
/* merge.c - rc4tune --merge: each CPU's section from the file that speaks
 * for it best, found, read and put back through the section module
 * (section.h), written by confwrite.c as --generate-conf writes. */
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

/* A section that may go into the result, and the file it is in. */
struct cand {
	struct rc4_section s;
	const char *path;
};

/* The sections of every file, OUT's first, in file order. */
struct cands {
	struct cand *c;
	int n, cap;
	const char *path; /* the file being walked */
	bool out;         /* ... is OUT, whose other sections stay anyway */
	bool failed;      /* out of memory */
};

static bool merged_name(const char *name)
{
	return strcmp(name, "pin") == 0 || strcmp(name, "default") == 0 ||
	       strncmp(name, "cpu ", 4) == 0;
}

static void on_section(void *arg, const struct rc4_section *s)
{
	struct cands *cs = arg;
	struct cand *more;

	if (!merged_name(s->name)) {
		if (!cs->out)
			fprintf(stderr, "rc4tune: warning: %s:%d: [%s] is not "
					"merged (only [cpu ...], [pin] and "
					"[default] are)\n",
				cs->path, s->line, s->name);
		return;
	}
	if (cs->n == cs->cap) {
		/* doubling: a realloc a section copies them all each time */
		int cap = cs->cap ? 2 * cs->cap : 16;
		more = realloc(cs->c, sizeof *cs->c * (size_t)cap);
		if (more == NULL) {
			cs->failed = true;
			return;
		}
		cs->c = more;
		cs->cap = cap;
	}
	cs->c[cs->n++] = (struct cand){ *s, cs->path };
}

/* Whether a section's record says any of its results is uncertain. */
static bool uncertain(const struct rc4_section *s)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (s->record.key[k].present && s->record.key[k].uncertain)
			return true;
	return false;
}

/* Whether A speaks for its CPU better than B: a person's section, then a
 * confident one, then the newer record (its time sorts as text). */
static bool better(const struct rc4_section *a, const struct rc4_section *b)
{
	bool pa = a->record.owner != RC4_OWNER_TUNER;
	bool pb = b->record.owner != RC4_OWNER_TUNER;

	if (pa != pb)
		return pa;
	if (pa)
		return false; /* two persons': the first stays */
	if (uncertain(a) != uncertain(b))
		return uncertain(b);
	return strcmp(a->record.at, b->record.at) > 0;
}

/* The section that goes in for NAME: [pin] and [default] the first
 * (OUT's, then the inputs' in order), a CPU's the best. */
static const struct cand *winner(const struct cands *cs, const char *name)
{
	const struct cand *w = NULL;
	bool cpu = strncmp(name, "cpu ", 4) == 0;

	for (int i = 0; i < cs->n; i++)
		if (strcmp(cs->c[i].s.name, name) == 0 &&
		    (w == NULL || (cpu && better(&cs->c[i].s, &w->s))))
			w = &cs->c[i];
	return w;
}

/* Whether two sections set the same keys to the same values. */
static bool same_keys(const struct rc4_section *a, const struct rc4_section *b)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (strcmp(a->key[k].value, b->key[k].value) != 0)
			return false;
	return true;
}

/* Warn of the sections named like W that say otherwise and are left out:
 * another [pin] or [default], a person's section for the CPU. */
static void warn_left_out(const struct cands *cs, const struct cand *w)
{
	bool cpu = strncmp(w->s.name, "cpu ", 4) == 0;

	for (int i = 0; i < cs->n; i++) {
		const struct cand *c = &cs->c[i];
		if (c == w || strcmp(c->s.name, w->s.name) != 0 ||
		    same_keys(&c->s, &w->s) ||
		    (cpu && c->s.record.owner == RC4_OWNER_TUNER))
			continue;
		fprintf(stderr, "rc4tune: warning: %s:%d: [%s] differs from "
				"%s:%d's, which is kept%s\n",
			c->path, c->s.line, c->s.name, w->path, w->s.line,
			cpu ? " (both a person's)" : "");
	}
}

/* The section's text to put in: up to its last line that is neither
 * blank nor a comment (those after it belong to what follows in its
 * file), with '\n' line ends; malloc'ed, NULL when out of memory. */
static char *body(const struct rc4_section *s)
{
	struct rc4_ini_text t = { 0 };
	size_t end = 0, n = 0;
	char *text;

	while (rc4_ini_next(s->text, s->len, &t))
		if (t.l.kind != RC4_INI_BLANK && t.l.kind != RC4_INI_COMMENT)
			end = t.next;
	if ((text = malloc(end + 2)) == NULL)
		return NULL;
	for (size_t i = 0; i < end; i++)
		if (s->text[i] != '\r' || i + 1 >= end || s->text[i + 1] != '\n')
			text[n++] = s->text[i];
	if (n == 0 || text[n - 1] != '\n')
		text[n++] = '\n';
	text[n] = '\0';
	return text;
}

/* What section W is, for the notes. */
static void note(FILE *f, const struct cand *w)
{
	const struct rc4_record *r = &w->s.record;

	fprintf(f, "rc4tune: [%s]: %s:%d, %s", w->s.name, w->path, w->s.line,
		rc4_owner_name(r->owner));
	if (r->owner == RC4_OWNER_TUNER)
		fprintf(f, " (%s, %s)", uncertain(&w->s) ? "uncertain"
							 : "confident",
			r->at);
	fputc('\n', f);
}

/* Whether candidate I is the first of its name. */
static bool first_of_name(const struct cands *cs, int i)
{
	for (int j = 0; j < i; j++)
		if (strcmp(cs->c[j].s.name, cs->c[i].s.name) == 0)
			return false;
	return true;
}

/* OLD with each name's winner put in, in the order the names first
 * appear. */
static char *put_winners(const struct cands *cs, const char *old, size_t len,
			 const char *outpath, FILE *notes, size_t *outlen)
{
	char *buf = malloc(len + 1);

	if (buf == NULL)
		return NULL;
	memcpy(buf, old, len);
	*outlen = len;
	for (int i = 0; i < cs->n && buf != NULL; i++) {
		if (!first_of_name(cs, i))
			continue;
		const struct cand *w = winner(cs, cs->c[i].s.name);
		warn_left_out(cs, w);
		if (notes != NULL)
			note(notes, w);
		char *text = body(&w->s), *next = NULL;
		if (text != NULL)
			next = rc4_section_replace(buf, *outlen, w->s.name, text,
						   outpath, outlen);
		free(text);
		free(buf);
		buf = next;
	}
	return buf;
}

char *merge_sections(const char *old, size_t len, const char *outpath,
		     const struct merge_input *in, int n, FILE *notes,
		     size_t *outlen)
{
	struct cands cs = { NULL, 0, 0, outpath, true, false };
	char *out = NULL;

	rc4_section_walk(old, len, on_section, &cs);
	cs.out = false;
	for (int i = 0; i < n; i++) {
		cs.path = in[i].path;
		rc4_section_walk(in[i].buf, in[i].len, on_section, &cs);
	}
	if (!cs.failed)
		out = put_winners(&cs, old, len, outpath, notes, outlen);
	free(cs.c);
	return out;
}

/* PATH read as the library reads a config, into IN: 0, or -1 after
 * saying why. */
static int load(const char *path, struct merge_input *in)
{
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];
	int rc = rc4_conf_read(path, NULL, &conf, NULL, why, sizeof why);

	if (rc > 0) {
		fprintf(stderr, "rc4tune: %s: no such file\n", path);
		return -1;
	}
	if (rc < 0) {
		fprintf(stderr, "rc4tune: %s:", path);
		if (conf.bad_line != 0)
			fprintf(stderr, "%d:", conf.bad_line);
		fprintf(stderr, " the library refuses this file (%s): nothing "
				"merged\n",
			why);
		return -1;
	}
	in->path = path;
	in->buf = rc4_conf_load(path, &in->len);
	if (in->buf == NULL)
		fprintf(stderr, "rc4tune: %s: cannot read it\n", path);
	return in->buf != NULL ? 0 : -1;
}

/* A merge under way: the inputs, and the notes of the last update. */
struct merging {
	const struct merge_input *in;
	int n;
	const char *path;
	bool quiet;
	char *notes;
	size_t notes_len;
};

/* A confwrite_hooks.update: OUT's bytes now, merged with the inputs. */
static char *update(const char *old, size_t len, size_t *outlen, bool *err,
		    void *arg)
{
	struct merging *m = arg;
	FILE *notes = NULL;

	free(m->notes);
	m->notes = NULL;
	if (!m->quiet && (notes = open_memstream(&m->notes, &m->notes_len)) == NULL)
		m->quiet = true;
	char *out = merge_sections(old, len, m->path, m->in, m->n, notes,
				   outlen);
	if (notes != NULL)
		fclose(notes);
	if (out == NULL)
		perror("rc4tune");
	*err = out == NULL;
	return out;
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
		struct confwrite_hooks hooks = { update, NULL, &m };
		if (confwrite_commit(&w, &hooks) >= 0) {
			r = EXIT_SUCCESS;
			if (!m.quiet)
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
