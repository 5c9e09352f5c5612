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
#include "heuristic.h"
#include "report.h"
#include "select.h"
#include "timing.h"
#include "tune.h"

/* One action's measurements: got[kind] is &m[kind] when measured. */
struct tuning {
	bool kept; /* an uncertain run left a confident section alone */
	const struct tune_opts *o;
	struct rc4_cpu cpu;
	const char *cpu_why;
	char section[RC4_SECTION_MAX]; /* "" when not identified */
	struct measurement m[RC4K_KINDS];
	const struct measurement *got[RC4K_KINDS];
	const char **names; /* --speed KERNEL..., those of one kind */
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
		if (measure_run(&t->m[k], kind, o->kernels ? t->names : NULL,
				o->workload, deadline,
				rc4_heuristic(kind, cpu, NULL),
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
			report_table(stdout, "", t->got[k]);
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
		rc4_cpu_section(&t.cpu, t.section);
	if (measure_all(&t) == 0) {
		if (!o->quiet)
			report(&t);
		r = EXIT_SUCCESS;
	}
	tuning_free(&t);
	return r;
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
		const char *want = t->got[k]->kr[t->got[k]->winner].k->name;
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

/* The section for T's measurements, malloc'ed; NULL after saying why. */
static char *section_text(const struct tuning *t)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL) {
		perror("rc4tune");
		return NULL;
	}
	report_section(f, t->section, t->got);
	if (fclose(f) != 0) {
		perror("rc4tune");
		free(text);
		return NULL;
	}
	return text;
}

/* Why a kind's result is uncertain, or NULL when every one is confident. */
static const char *doubt(const struct tuning *t)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL && t->got[k]->uncertain)
			return t->got[k]->why;
	return NULL;
}

/* A confwrite_hooks.replace: an uncertain result never replaces a section
 * an earlier run wrote with confidence (its comments say so). */
static bool replace_section(const char *old, size_t len, void *arg)
{
	struct tuning *t = arg;
	static const char mark[] = "; confidence: high";
	size_t n;
	const char *sec = merge_find(old, len, t->section, &n);

	t->kept = doubt(t) != NULL && sec != NULL &&
		  memmem(sec, n, mark, sizeof mark - 1) != NULL;
	return !t->kept;
}

/* Write TEXT into W, check it, then report (the file first: a closed
 * stdout must not cost it) and say what was written.  An uncertain result
 * is said even with --quiet, on stderr. */
static int write_conf(struct tuning *t, struct confwrite *w, const char *text)
{
	const struct tune_opts *o = t->o;
	struct confwrite_hooks hooks = { replace_section, check_written, t };
	bool to_stdout = w->fd >= 0 && strcmp(w->path, "-") == 0;
	const char *why = doubt(t);

	if (confwrite_commit(w, t->section, text, &hooks) < 0)
		return EXIT_FAILURE;
	if (t->kept)
		fprintf(stderr, "rc4tune: warning: this run was uncertain (%s): "
				"kept the confident section [%s] in %s; tune "
				"again on an idle machine\n",
			why, t->section, w->path);
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
			       rc4k_kinds[k].key,
			       t->got[k]->kr[t->got[k]->winner].k->name,
			       t->section, w->path);
	return EXIT_SUCCESS;
}

/* --if-missing: whether PATH already gives this CPU a kernel the library
 * would use (then there is nothing to do, said unless --quiet). */
static bool tuned_already(const struct tuning *t, const char *path)
{
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];
	const struct rc4_conf_value *v = &conf.value[RC4K_SINGLE][RC4_CONF_CPU];

	if (strcmp(path, "-") == 0 ||
	    rc4_conf_read(path, t->section, &conf, NULL, why, sizeof why) != 0 ||
	    v->line == 0)
		return false;
	const struct rc4k_info *k = rc4k_find(RC4K_SINGLE, v->name);
	if (k == NULL || rc4_refused(k) != NULL)
		return false;
	if (!t->o->quiet)
		printf("rc4tune: [%s] already has kernel = %s in %s (line %d): "
		       "nothing to do\n",
		       t->section, k->name, path, v->line);
	return true;
}

int tune_generate_conf(const struct tune_opts *o)
{
	const char *path = o->output ? o->output : RC4_CONF_DEFAULT_PATH;
	struct tuning t = { .o = o };
	struct confwrite w;
	char *text = NULL;
	int r = EXIT_FAILURE;

	if (rc4_cpu_identify(&t.cpu, &t.cpu_why) != 0) {
		fprintf(stderr, "rc4tune: cannot identify this CPU (%s), so "
				"there is no [cpu] section to write; name a "
				"kernel under [default] in %s by hand\n",
			t.cpu_why, path);
		return EXIT_FAILURE;
	}
	rc4_cpu_section(&t.cpu, t.section);
	if (o->if_missing && tuned_already(&t, path))
		return EXIT_SUCCESS;
	/* Before the budget is spent on measuring. */
	if (confwrite_open(&w, path) != 0)
		return EXIT_FAILURE;
	if (measure_all(&t) == 0 && (text = section_text(&t)) != NULL)
		r = write_conf(&t, &w, text);
	confwrite_close(&w);
	free(text);
	tuning_free(&t);
	return r;
}
