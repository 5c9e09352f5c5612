/* SPDX-License-Identifier: MIT */
/* tune.c - the measuring actions: --speed reports, --generate-conf also
 * writes the winners into the config. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"
#include "confwrite.h"
#include "cpu.h"
#include "decide.h"
#include "heuristic.h"
#include "section.h"
#include "report.h"
#include "select.h"
#include "timing.h"
#include "tune.h"

/* One action's measurements: got[kind] is &m[kind] when measured. */
struct tuning {
	/* Why the run left this CPU's section alone (a person's, or more
	 * confident than this run), or NULL; and its line. */
	const char *kept;
	int kept_line;
	bool kept_surer; /* kept as more confident, not as a person's */
	char at[RC4_RECORD_TIME_MAX]; /* when the record says it was written */
	const struct tune_opts *o;
	struct rc4_cpu cpu;
	const char *cpu_why;
	char section[RC4_SECTION_MAX]; /* "" when not identified */
	struct measurement m[RC4K_KINDS];
	const struct measurement *got[RC4K_KINDS];
	struct choice choice[RC4K_KINDS]; /* what --generate-conf writes */
	const char *path;                 /* where */
	const char **names; /* --speed KERNEL..., those of one kind */
	const char *heuristic[RC4K_KINDS]; /* each kind's rule's kernel */
};

/* The names of O->kernels that are of KIND, into T->names; false when
 * none are (the kind is not measured). */
static bool names_of(struct tuning *t, enum rc4k_kind kind)
{
	size_t n = 0;

	for (const char *const *k = t->o->kernels; *k; k++)
		if (rc4k_find(kind, *k) != NULL)
			t->names[n++] = *k;
	t->names[n] = NULL;
	return n > 0;
}

/* Measure each kind (all kernels, or those named) for its share of the
 * budget, which is wall-clock time from here, with a progress line when a
 * person watches stderr.  A tie goes to the heuristic's kernel, so two
 * runs write the same one.  Returns 0 when any kind was measured. */
static int measure_all(struct tuning *t)
{
	const struct tune_opts *o = t->o;
	bool show = !o->quiet && isatty(STDERR_FILENO), use[RC4K_KINDS];
	const struct rc4_cpu *cpu = t->section[0] ? &t->cpu : NULL;
	double shares = 0, deadline = timing_now();
	size_t n = 0;

	while (o->kernels && o->kernels[n])
		n++;
	t->names = calloc(n + 1, sizeof *t->names);
	if (t->names == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (int k = 0; k < RC4K_KINDS; k++) {
		use[k] = o->kernels == NULL || names_of(t, (enum rc4k_kind)k);
		shares += use[k] ? measure_benches[k].share : 0;
	}
	for (int k = 0; k < RC4K_KINDS; k++) {
		enum rc4k_kind kind = (enum rc4k_kind)k;
		if (!use[k])
			continue;
		if (o->kernels)
			names_of(t, kind);
		deadline += o->budget * measure_benches[k].share / shares;
		const struct rc4k_info *h = rc4_heuristic_walk(
			kind, cpu, true, rc4k_find, NULL, NULL, NULL);
		t->heuristic[k] = h ? h->name : NULL;
		if (measure_run(&t->m[k], kind, o->kernels ? t->names : NULL,
				o->workload, deadline, t->heuristic[k],
				show ? report_progress : NULL) == 0)
			t->got[k] = &t->m[k];
		if (show)
			report_progress_end();
	}
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL)
			return 0;
	return -1;
}

/* The report on stdout: JSON, or each kind's table. */
static void report(const struct tuning *t)
{
	bool first = true;

	if (t->o->json) {
		report_json(stdout, t->got, t->section[0] ? t->section : NULL);
		return;
	}
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL) {
			if (!first)
				printf("\n");
			report_table(stdout, "", t->got[k], t->choice[k].note);
			first = false;
		}
}

static void tuning_free(struct tuning *t)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		measure_free(&t->m[k]);
	free(t->names);
}

int tune_speed(const struct tune_opts *o)
{
	struct tuning t = { .o = o };
	int r = EXIT_FAILURE;

	if (rc4_cpu_identify(&t.cpu, &t.cpu_why) == 0)
		rc4_section_name(&t.cpu, t.section);
	if (measure_all(&t) == 0) {
		if (!o->quiet)
			report(&t);
		r = EXIT_SUCCESS;
	}
	tuning_free(&t);
	return r;
}

/* The name of the kernel of kind K that --generate-conf writes. */
static const char *chosen(const struct tuning *t, int k)
{
	return t->got[k]->kr[t->choice[k].kernel].k->name;
}

/* The library takes a config whole or not at all: fail when the file just
 * written (this section, or another line kept as it was) would not give
 * this CPU the kernels measured, so a postinst hears that the tuning has
 * no effect until the file is mended.  A confwrite_hooks.written: it runs
 * while the file is locked, so it reads this run's file. */
static int check_written(const char *path, void *arg)
{
	const struct tuning *t = arg;
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* a device or a pipe took the text */
	int r = rc4_conf_read(path, t->section, &conf, NULL, why, sizeof why);
	for (int k = 0; k < RC4K_KINDS; k++) {
		if (t->got[k] == NULL)
			continue;
		const char *want = chosen(t, k);
		const char *got = conf.value[k][RC4_CONF_CPU].name;
		if (r == 0 && strcmp(got, want) == 0)
			continue;
		fprintf(stderr, "rc4tune: error: %s: written, but the library "
				"will not use %s = %s from it: ",
			path, rc4k_kinds[k].key, want);
		if (r == 0)
			fprintf(stderr, "it reads %s = %s", rc4k_kinds[k].key,
				got);
		else if (conf.bad_line != 0)
			fprintf(stderr, "%s (line %d)", why, conf.bad_line);
		else
			fprintf(stderr, "%s", why);
		fprintf(stderr, "; see rc4tune --check-conf %s\n", path);
		return -1;
	}
	return 0;
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

/* The record for T's measurements: each key's result, and its history:
 * this run, then PRIOR's runs (the section's record, when it was the
 * tuner's; else NULL). */
static void make_record(const struct tuning *t, const struct rc4_record *prior,
			struct rc4_record *r)
{
	memset(r, 0, sizeof *r);
	snprintf(r->at, sizeof r->at, "%s", t->at);
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct measurement *m = t->got[k];
		const struct choice *c = &t->choice[k];
		struct rc4_record_key *rk = &r->key[k];
		if (m == NULL)
			continue;
		rk->present = true;
		snprintf(rk->value, sizeof rk->value, "%s", chosen(t, k));
		rk->uncertain = c->uncertain;
		snprintf(rk->why, sizeof rk->why, "%s",
			 c->why_code ? c->why_code : "-");
		this_run(&rk->run[0], m, c->uncertain, t->at);
		rk->nruns = 1;
		for (int i = 0; prior && i < prior->key[k].nruns &&
				rk->nruns < RC4_RECORD_RUNS;
		     i++)
			rk->run[rk->nruns++] = prior->key[k].run[i];
	}
}

/* The section for T's measurements, sealed, malloc'ed; NULL after saying
 * why. */
static char *section_text(const struct tuning *t, const struct rc4_record *prior)
{
	char *comment = NULL, *text = NULL;
	size_t len;
	FILE *f = open_memstream(&comment, &len);
	struct rc4_record r;
	const char *notes[RC4K_KINDS];

	for (int k = 0; k < RC4K_KINDS; k++)
		notes[k] = t->choice[k].note;
	if (f != NULL) {
		report_comment(f, t->got, notes);
		if (fclose(f) == 0) {
			make_record(t, prior, &r);
			text = rc4_section_build(t->section, &r, comment, NULL);
		}
	}
	if (text == NULL)
		perror("rc4tune");
	free(comment);
	return text;
}

/* Why a kind's result is uncertain, or NULL when every one is confident. */
static const char *doubt(const struct tuning *t)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL && t->choice[k].uncertain)
			return t->choice[k].why;
	return NULL;
}

/* Whether this run is uncertain about a key that the file's section SEC
 * holds with confidence, and the library takes that key from the file:
 * a file it refuses, or a key it cannot use here, is no result to keep. */
static bool less_sure(const struct tuning *t, const struct rc4_section *sec)
{
	const struct rc4_record *r = &sec->record;
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];
	bool doubt = false;

	for (int k = 0; k < RC4K_KINDS; k++)
		doubt |= t->got[k] != NULL && t->choice[k].uncertain &&
			 r->key[k].present && !r->key[k].uncertain;
	if (!doubt ||
	    rc4_conf_read(t->path, t->section, &conf, NULL, why, sizeof why))
		return false;
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct rc4_conf_value *v = &conf.value[k][RC4_CONF_CPU];
		const struct rc4k_info *ki = rc4k_find((enum rc4k_kind)k,
						       v->name);
		if (r->key[k].present && (strcmp(v->name, r->key[k].value) ||
					  ki == NULL || rc4k_refused(ki)))
			return false;
	}
	return true;
}

/* A confwrite_hooks.update: the file OLD (LEN bytes) with the section for
 * T's measurements, *OUTLEN bytes.  NULL keeps the file, with t->kept
 * saying why (unless --force): a person's section, or a section an
 * earlier run wrote with more confidence than this one has. */
static char *next_file(const char *old, size_t len, size_t *outlen, bool *err,
		       void *arg)
{
	struct tuning *t = arg;
	struct rc4_section sec, theirs;
	int found = rc4_section_find(old, len, t->section, &sec, &theirs);

	t->kept = NULL;
	t->kept_surer = false;
	if (!t->o->force && theirs.line != 0) {
		t->kept = rc4_owner_name(theirs.record.owner);
		t->kept_line = theirs.line;
		return NULL;
	}
	const struct rc4_record *mine =
		found && sec.record.owner == RC4_OWNER_TUNER ? &sec.record
							     : NULL;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL)
			t->choice[k] = decide(t->got[k],
					      mine ? &mine->key[k] : NULL,
					      t->heuristic[k]);
	if (mine != NULL && !t->o->force && less_sure(t, &sec)) {
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
	return out;
}

/* Write T's section into W, check it, then report (the file first: a
 * closed stdout must not cost it) and say what was written.  An uncertain
 * result and a kept section are said even with --quiet, on stderr. */
static int write_conf(struct tuning *t, struct confwrite *w)
{
	const struct tune_opts *o = t->o;
	struct confwrite_hooks hooks = { next_file, check_written, t };
	bool to_stdout = w->fd >= 0 && strcmp(w->path, "-") == 0;

	rc4_record_now(t->at);
	t->path = w->path;
	if (confwrite_commit(w, &hooks) < 0)
		return EXIT_FAILURE;
	const char *why = doubt(t);
	if (t->kept_surer)
		fprintf(stderr, "rc4tune: warning: this run was uncertain (%s): "
				"kept the confident section [%s] in %s; tune "
				"again on an idle machine\n",
			why, t->section, w->path);
	else if (t->kept != NULL)
		fprintf(stderr, "rc4tune: kept [%s] in %s (line %d): it is %s; "
				"rc4tune --generate-conf --force replaces it\n",
			t->section, w->path, t->kept_line, t->kept);
	else if (why != NULL && !to_stdout)
		fprintf(stderr, "rc4tune: warning: the result is uncertain (%s): "
				"written to [%s] in %s marked so; a run on an "
				"idle machine will replace it\n",
			why, t->section, w->path);
	/* With --output -, stdout is the config: its comments carry the
	 * tables. */
	if (o->quiet || to_stdout)
		return EXIT_SUCCESS;
	report(t);
	for (int k = 0; k < RC4K_KINDS && !o->json && !t->kept; k++)
		if (t->got[k] != NULL)
			printf("rc4tune: wrote %s = %s for [%s] to %s\n",
			       rc4k_kinds[k].key, chosen(t, k),
			       t->section, w->path);
	return EXIT_SUCCESS;
}

/* --if-missing: whether PATH's section for this CPU leaves nothing to do
 * (said unless --quiet): a person's, or the tuner's with a confident
 * result for every key, each a kernel the library would use.  A section
 * marked uncertain is measured again. */
static bool tuned_already(const struct tuning *t, const char *path)
{
	struct rc4_conf conf;
	struct rc4_section sec, theirs;
	char why[RC4_CONF_WHY_MAX], *buf;
	size_t len = 0;
	const struct rc4_conf_value *v = &conf.value[RC4K_SINGLE][RC4_CONF_CPU];

	if (strcmp(path, "-") == 0 ||
	    rc4_conf_read(path, t->section, &conf, NULL, why, sizeof why) != 0 ||
	    (buf = rc4_conf_load(path, &len)) == NULL)
		return false;
	bool found = rc4_section_find(buf, len, t->section, &sec, &theirs) > 0;
	free(buf);
	if (!found)
		return false;
	/* a person's duplicate speaks too: the run would keep the file */
	if (theirs.line != 0 && !t->o->force) {
		if (!t->o->quiet)
			printf("rc4tune: [%s] in %s (line %d) is %s: nothing to "
			       "do (--force replaces it)\n",
			       t->section, path, theirs.line,
			       rc4_owner_name(theirs.record.owner));
		return true;
	}
	const struct rc4_record r = sec.record;
	/* every key the run wrote; kernel = in any case */
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct rc4_conf_value *kv = &conf.value[k][RC4_CONF_CPU];
		const struct rc4k_info *ki = rc4k_find((enum rc4k_kind)k,
						       kv->name);
		if (!r.key[k].present && k != RC4K_SINGLE)
			continue;
		if (r.key[k].uncertain ||
		    kv->line == 0 || ki == NULL || rc4k_refused(ki) != NULL) {
			if (!t->o->quiet && r.key[k].uncertain)
				printf("rc4tune: [%s] in %s is marked uncertain "
				       "(%s): measuring again\n",
				       t->section, path, r.key[k].why);
			return false;
		}
	}
	if (!t->o->quiet)
		printf("rc4tune: [%s] already has kernel = %s in %s (line %d): "
		       "nothing to do\n",
		       t->section, v->name, path, v->line);
	return true;
}

int tune_generate_conf(const struct tune_opts *o)
{
	const char *path = o->output ? o->output : RC4_CONF_DEFAULT_PATH;
	struct tuning t = { .o = o };
	struct confwrite w;
	int r = EXIT_FAILURE;

	if (rc4_cpu_identify(&t.cpu, &t.cpu_why) != 0) {
		fprintf(stderr, "rc4tune: cannot identify this CPU (%s), so "
				"there is no [cpu] section to write; name a "
				"kernel under [default] in %s by hand\n",
			t.cpu_why, path);
		return EXIT_FAILURE;
	}
	rc4_section_name(&t.cpu, t.section);
	if (o->if_missing && tuned_already(&t, path))
		return EXIT_SUCCESS;
	/* Before the budget is spent on measuring. */
	if (confwrite_open(&w, path) != 0)
		return EXIT_FAILURE;
	if (measure_all(&t) == 0)
		r = write_conf(&t, &w);
	confwrite_close(&w);
	tuning_free(&t);
	return r;
}
