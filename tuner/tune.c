/* tune.c - the measuring actions: --speed reports, --generate-conf also
 * writes the winner into the config. */
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
#include "tune.h"

/* The share of the budget that times the batch kernels: a few kernels,
 * two cells, against the single kernels' many. */
static const double BATCH_SHARE = 0.2;

/* Measure with a progress line when a person watches stderr.  A tie goes
 * to the heuristic's kernel for CPU (NULL: not identified), so two runs
 * write the same kernel. */
static int measure(const struct tune_opts *o, struct measurement *m,
		   const struct rc4_cpu *cpu)
{
	bool show = !o->quiet && isatty(STDERR_FILENO);
	const char *prefer = cpu ? rc4_heuristic(cpu, NULL) : NULL;
	double budget = o->kernels ? o->budget : o->budget * (1 - BATCH_SHARE);
	int r = measure_run(m, o->kernels, o->workload, budget, prefer,
			    show ? report_progress : NULL, NULL);

	if (show)
		report_progress_end();
	return r;
}

/* The batch kernels, unless --speed names kernels: BATCH_SHARE of the
 * budget.  Returns NULL when not measured (or on failure, said). */
static const struct batch_measurement *
measure_batch(const struct tune_opts *o, struct batch_measurement *bm)
{
	if (o->kernels != NULL ||
	    batch_measure(bm, o->workload, o->budget * BATCH_SHARE) != 0)
		return NULL;
	return bm;
}

/* BM: the batch kernels for the JSON (NULL: not measured); the table
 * leaves them to the caller. */
static void report(const struct tune_opts *o, const struct measurement *m,
		   const struct batch_measurement *bm, const char *cpu)
{
	if (o->json)
		report_json(stdout, m, bm, cpu);
	else
		report_table(stdout, "", m);
}

/* A report that did not reach stdout (a full disk, a closed pipe) fails. */
static int finish(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("rc4tune: standard output");
		return EXIT_FAILURE;
	}
	return EXIT_SUCCESS;
}

/* The library takes a config whole or not at all: fail when the file just
 * written (this section, or another line kept as it was) would not give
 * KERNEL to this CPU, so a postinst hears that the tuning has no effect
 * until the file is mended. */
static int check_written(const char *path, const char *section,
			 const char *kernel)
{
	struct rc4_conf conf;
	char why[256];
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return EXIT_SUCCESS; /* a device or a pipe took the text */
	int r = rc4_conf_read(path, section, &conf, NULL, why, sizeof why);
	if (r == 0 && strcmp(conf.kernel[RC4_CONF_CPU], kernel) == 0)
		return EXIT_SUCCESS;
	fprintf(stderr, "rc4tune: error: %s: written, but the library will "
			"not use kernel = %s from it: ",
		path, kernel);
	if (r == 0)
		fprintf(stderr, "it reads kernel = %s", conf.kernel[RC4_CONF_CPU]);
	else
		fprintf(stderr, "%s (line %d)", why, conf.bad_line);
	fprintf(stderr, "; see rc4tune --check-conf %s\n", path);
	return EXIT_FAILURE;
}

int tune_speed(const struct tune_opts *o)
{
	struct rc4_cpu cpu;
	const char *why, *name = NULL;
	char section[64];
	struct measurement m;
	struct batch_measurement bm = { 0 };
	int r = EXIT_FAILURE;

	if (rc4_cpu_identify(&cpu, &why) == 0) {
		rc4_cpu_section(&cpu, section, sizeof section);
		name = section;
	}
	if (measure(o, &m, name ? &cpu : NULL) == 0) {
		const struct batch_measurement *b = measure_batch(o, &bm);
		if (!o->quiet)
			report(o, &m, b, name);
		if (!o->quiet && !o->json && b != NULL) {
			printf("\n");
			batch_report(stdout, "", b, false);
		}
		r = finish();
	}
	batch_measure_free(&bm);
	measure_free(&m);
	return r;
}

int tune_generate_conf(const struct tune_opts *o)
{
	const char *path = o->output ? o->output : RC4_CONF_DEFAULT_PATH;
	bool to_stdout = strcmp(path, "-") == 0;
	struct rc4_cpu cpu;
	const char *why = NULL;
	char section[64], *text = NULL;
	size_t len;
	struct measurement m;
	struct batch_measurement bm = { 0 };

	if (rc4_cpu_identify(&cpu, &why) != 0) {
		fprintf(stderr, "rc4tune: cannot identify this CPU (%s), so "
				"there is no [cpu] section to write; name a "
				"kernel under [default] in %s by hand\n",
			why, path);
		return EXIT_FAILURE;
	}
	rc4_cpu_section(&cpu, section, sizeof section);
	if (measure(o, &m, &cpu) != 0) {
		measure_free(&m);
		return EXIT_FAILURE;
	}
	const struct batch_measurement *b = measure_batch(o, &bm);
	FILE *f = open_memstream(&text, &len);
	if (f == NULL) {
		perror("rc4tune");
		batch_measure_free(&bm);
		measure_free(&m);
		return EXIT_FAILURE;
	}
	report_section(f, section, &m, b);
	if (fclose(f) != 0) {
		perror("rc4tune");
		free(text);
		batch_measure_free(&bm);
		measure_free(&m);
		return EXIT_FAILURE;
	}
	/* With --output -, stdout is the config: its comments carry the
	 * table. */
	if (!o->quiet && !to_stdout)
		report(o, &m, b, section);
	const char *kernel = m.kr[m.winner].k->name;
	int r = confwrite(path, section, text) == 0 ? EXIT_SUCCESS
						     : EXIT_FAILURE;
	if (r == EXIT_SUCCESS && !to_stdout)
		r = check_written(path, section, kernel);
	if (r == EXIT_SUCCESS && !o->quiet && !to_stdout && !o->json)
		printf("rc4tune: wrote kernel = %s for [%s] to %s\n", kernel,
		       section, path);
	if (r == EXIT_SUCCESS && !o->quiet && !to_stdout && !o->json &&
	    b != NULL && b->winner < b->n)
		printf("rc4tune: wrote batch_kernel = %s for [%s] to %s\n",
		       b->br[b->winner].b->name, section, path);
	free(text);
	batch_measure_free(&bm);
	measure_free(&m);
	return r == EXIT_SUCCESS ? finish() : r;
}
