/* SPDX-License-Identifier: MIT */
/* result.c - a run's result into the config (result.h): the choice for
 * each key, the record and the section, or the file kept. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "report.h"
#include "result.h"
#include "memstream.h"

/* What the library takes for SECTION from TEXT (LEN bytes) written to
 * PATH: CONF and U as it reads them, and rc4_conf_parse's status (WHY, of
 * RC4_CONF_WHY_MAX bytes, says why when it is not 0). */
static int library_reads(const char *text, size_t len, const char *path,
			 const char *section, struct rc4_conf *conf,
			 struct rc4_keys_use *u, char *why)
{
	const struct rc4_keys_how how = { true, NULL, NULL };
	int rc = rc4_conf_trusted(path, why, RC4_CONF_WHY_MAX);

	if (rc == 0)
		rc = rc4_conf_parse(text, len, section, conf, NULL, why,
				    RC4_CONF_WHY_MAX);
	else
		memset(conf, 0, sizeof *conf);
	rc4_keys_judge(conf->value[RC4_CONF_CPU], &how, u);
	return rc;
}

/* The library takes a config whole or not at all: a postinst hears from
 * this check that the tuning has no effect until the file is mended. */
int result_check(const struct result *t, const char *path)
{
	const struct split *s = &t->dec.split;
	struct rc4_conf conf;
	struct rc4_keys_use u;
	char why[RC4_CONF_WHY_MAX];

	if (t->text == NULL)
		return 0;
	int rc = library_reads(t->text, t->text_len, path, t->section, &conf,
			       &u, why);
	for (int k = 0; k < RC4K_KINDS; k++) {
		if (t->dec.use[k] == NULL)
			continue;
		const char *want = decide_name(&t->dec, k);
		if (rc == 0 && u.k[k] && strcmp(u.k[k]->name, want) == 0)
			continue;
		fprintf(stderr, "rc4tune: error: %s: written, but the library "
				"will not use %s = %s from it: %s",
			path, rc4_keys[k].name, want,
			rc != 0 ? why : u.k[k] ? "it reads another kernel"
					       : "it passes the key over");
		if (rc != 0 && conf.bad_line != 0)
			fprintf(stderr, " (line %d)", conf.bad_line);
		fprintf(stderr, "; see rc4tune --check-conf %s\n", path);
		return -1;
	}
	const struct measurement *single = t->dec.use[RC4K_SINGLE];
	if (single == NULL)
		return 0;
	const char *short_name =
		s->below > 0 ? single->kr[s->short_kernel].k->name : NULL;
	if (u.split.below == s->below &&
	    (short_name == NULL ||
	     strcmp(u.split.short_kernel->info.name, short_name) == 0))
		return 0;
	fprintf(stderr, "rc4tune: error: %s: written, but the library does "
			"not take the split decided (%zu bytes, %s) from it; "
			"see rc4tune --check-conf %s\n",
		path, s->below, short_name ? short_name : "none", path);
	return -1;
}

/* This run of M as the record's history keeps it: its leading kernels,
 * scored against its best. */
static void this_run(struct rc4_record_run *run, const struct measurement *m,
		     bool uncertain, const char *at)
{
	double best = m->kr[m->best].score;

	snprintf(run->at, sizeof run->at, "%s", at);
	run->uncertain = uncertain;
	run->n = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *kr = &m->kr[i];
		if (kr->status != KERNEL_OK)
			continue;
		int j = run->n < RC4_RECORD_LEADERS ? run->n++ : RC4_RECORD_LEADERS;
		/* insertion: the slower ones move down, the last drops */
		for (; j > 0 && run->lead[j - 1].score < kr->score / best; j--)
			if (j < RC4_RECORD_LEADERS)
				run->lead[j] = run->lead[j - 1];
		if (j < RC4_RECORD_LEADERS) {
			snprintf(run->lead[j].name, sizeof run->lead[j].name,
				 "%s", kr->k->name);
			run->lead[j].score = kr->score / best;
		}
	}
}

/* D's size split, with its figures, into SP (none: not present). */
static void split_record(const struct decision *d, struct rc4_record_split *sp)
{
	const struct split *s = &d->split;
	const struct measurement *m = d->use[RC4K_SINGLE];

	if (m == NULL || s->below == 0)
		return;
	sp->present = true;
	snprintf(sp->value, sizeof sp->value, "%s", m->kr[s->short_kernel].k->name);
	sp->below = s->below;
	sp->gain = s->gain;
	for (sp->n = 0; sp->n < s->cells && sp->n < RC4_RECORD_SPLIT_CELLS;
	     sp->n++)
		sp->cell[sp->n] = (struct rc4_record_cell){
			m->bench->cells[sp->n].bytes, s->ratio[sp->n]
		};
}

/* The record for T's measurements: each key's result, and its history:
 * this run, then PRIOR's runs (the section's record, when it was the
 * tuner's; else NULL). */
static void make_record(const struct result *t, const struct rc4_record *prior,
			struct rc4_record *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->at, sizeof r->at, "%s", t->at);
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct measurement *m = t->dec.use[k];
		const struct choice *c = &t->dec.choice[k];
		struct rc4_record_key *rk = &r->key[k];
		if (m == NULL)
			continue;
		rk->present = true;
		snprintf(rk->value, sizeof rk->value, "%s", decide_name(&t->dec, k));
		rk->uncertain = c->uncertain;
		snprintf(rk->why, sizeof rk->why, "%s",
			 c->why_code ? c->why_code : "-");
		rk->basis = (struct rc4_record_basis){
			true, c->lower, c->window, (int)c->finalists, m->rounds
		};
		this_run(&rk->run[0], m, c->uncertain, t->at);
		rk->nruns = 1;
		for (int i = 0; prior && i < prior->key[k].nruns &&
				rk->nruns < RC4_RECORD_RUNS; i++)
			rk->run[rk->nruns++] = prior->key[k].run[i];
	}
	split_record(&t->dec, &r->split);
}

/* The section for T's measurements, sealed, malloc'ed; NULL after saying
 * why. */
static char *section_text(const struct result *t, const struct rc4_record *prior)
{
	char *comment = NULL, *text = NULL;
	size_t len;
	FILE *f = open_memstream(&comment, &len);
	struct rc4_record r;
	const char *notes[RC4K_KINDS];

	for (int k = 0; k < RC4K_KINDS; k++)
		notes[k] = t->dec.choice[k].note;
	if (f != NULL) {
		report_comment(f, t->run->use, t->run->choice, notes);
		if (rc4_memstream_close(f) == 0 && comment != NULL) {
			make_record(t, prior, &r);
			text = rc4_section_build(t->section, &r, comment, NULL);
		}
	}
	if (text == NULL)
		perror("rc4tune");
	free(comment);
	return text;
}

const char *result_doubt(const struct result *t)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->dec.use[k] != NULL && t->dec.choice[k].uncertain)
			return t->dec.choice[k].why;
	return NULL;
}

/* Whether this run is uncertain about a key that the file's section SEC
 * holds with confidence, and the library takes every key of that section
 * from the file, whose bytes are OLD (LEN of them): a file it refuses, or
 * a key it passes over, is no result to keep. */
static bool less_sure(const struct result *t, const struct rc4_section *sec,
		      const char *old, size_t len)
{
	const struct rc4_record *r = &sec->record;
	struct rc4_keys_use u;
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];
	bool doubt = false;

	for (int k = 0; k < RC4K_KINDS; k++)
		doubt |= t->dec.use[k] != NULL && t->dec.choice[k].uncertain &&
			 r->key[k].present && !r->key[k].uncertain;
	if (!doubt || library_reads(old, len, t->path, t->section, &conf, &u,
				    why) != 0)
		return false;
	for (int k = 0; k < RC4_KEYS; k++)
		if (u.bad[k].line != 0)
			return false;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (r->key[k].present &&
		    (u.k[k] == NULL || strcmp(u.k[k]->name, r->key[k].value) != 0))
			return false;
	return true;
}

const struct rc4_record *result_prior(const char *old, size_t len,
				      const char *section,
				      struct rc4_section *sec,
				      struct rc4_section *theirs)
{
	int found = rc4_section_find(old, len, section, sec, theirs);

	return found && sec->record.owner == RC4_OWNER_TUNER ? &sec->record
							     : NULL;
}

char *result_text(struct result *t, const char *old, size_t len,
		  size_t *outlen, bool *err)
{
	struct rc4_section sec, theirs;
	const struct rc4_record *mine =
		result_prior(old, len, t->section, &sec, &theirs);

	t->kept = NULL;
	t->kept_surer = false;
	t->text = NULL;
	if (!t->force && theirs.line != 0) {
		t->kept = rc4_owner_name(theirs.record.owner);
		t->kept_line = theirs.line;
		return NULL;
	}
	if (decide_calls(&t->dec, t->got, mine, t->heuristic, t->single) != 0) {
		*err = true;
		return NULL;
	}
	if (mine != NULL && !t->force && less_sure(t, &sec, old, len)) {
		t->kept = "more confident than this run";
		t->kept_surer = true;
		return NULL;
	}
	char *text = section_text(t, mine), *out = NULL;
	if (text != NULL && (out = rc4_section_replace(old, len, t->section, text,
						       t->path, outlen)) == NULL)
		perror("rc4tune");
	free(text);
	*err = out == NULL;
	t->text = out;
	t->text_len = out != NULL ? *outlen : 0;
	return out;
}
