/* report.c - what the tuner shows of a measurement: a progress line, the
 * `openssl speed`-shaped table, JSON, and the config section text. */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "report.h"

void report_progress(void *ctx, const struct measurement *m, double elapsed,
		     double budget)
{
	(void)ctx;
	fprintf(stderr, "\rrc4tune: measuring %zu kernels: round %d, "
			"%.1f s of %.1f s ",
		m->n, m->rounds, elapsed, budget);
}

void report_progress_end(void)
{
	fprintf(stderr, "\r%72s\r", "");
}

static const char *status_text(enum kstatus s)
{
	return s == KERNEL_UNUSABLE ? "(this CPU cannot run it)"
				    : "(failed its self-test: never chosen)";
}

void report_table(FILE *f, const char *prefix, const struct measurement *m)
{
	const struct kresult *win = &m->kr[m->winner];
	int width = 6; /* "kernel" */

	for (size_t i = 0; i < m->n; i++)
		if ((int)strlen(m->kr[i].k->name) > width)
			width = (int)strlen(m->kr[i].k->name);

	fprintf(f, "%sThe 'numbers' are in 1000s of bytes per second "
		   "processed; keys/s: a fresh key per 16-byte message.\n",
		prefix);
	fprintf(f, "%s%-*s", prefix, width, "kernel");
	for (int c = 0; c < MEASURE_NSIZES; c++)
		fprintf(f, " %5zu bytes", measure_sizes[c]);
	fprintf(f, " %10s%s %7s\n", "keys/s", m->cycle_clock ? " c/B@8k" : "",
		"/winner");
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];

		fprintf(f, "%s%-*s", prefix, width, r->k->name);
		if (r->status != KERNEL_OK) {
			fprintf(f, " %s\n", status_text(r->status));
			continue;
		}
		for (int c = 0; c < MEASURE_NSIZES; c++)
			fprintf(f, " %10.2fk", r->rate[c] / 1000);
		fprintf(f, " %10.0f", r->rate[MEASURE_KEYS]);
		if (m->cycle_clock)
			fprintf(f, " %7.2f",
				m->cycle_hz / r->rate[MEASURE_NSIZES - 1]);
		fprintf(f, " %7.3f%s\n", r->ratio, r == win ? " *" : "");
	}

	fprintf(f, "%sworkload %s: %s\n", prefix, workload_name(m->workload),
		workload_describe(m->workload));
	fprintf(f, "%s%d rounds of %.2f ms slices in %.2f s, timed with %s\n",
		prefix, m->rounds, m->slice * 1e3, m->seconds, m->clock);
	if (m->cycle_clock)
		fprintf(f, "%sc/B@8k: cycles per byte at 8192 bytes, of the %s "
			   "at %.3f GHz\n",
			prefix, m->cycle_clock, m->cycle_hz / 1e9);
	fprintf(f, "%snoise %.1f %%, gap %.1f %% (best vs second); ", prefix,
		m->noise * 100, m->gap * 100);
	if (m->load >= 0)
		fprintf(f, "other processes used %.0f %% of the CPUs\n",
			m->load * 100);
	else
		fprintf(f, "the other processes' load is unknown\n");
	fprintf(f, "%sconfidence: %s\n", prefix,
		m->uncertain ? "LOW, the machine was busy or noisy: the result "
			       "is uncertain, rerun on an idle machine"
			     : "high");
	if (m->tie_rule)
		fprintf(f, "%stie: %zu kernels within %.1f %% of the best (%s): "
			   "chose %s, %s\n",
			prefix, m->ntied, m->window * 100,
			m->kr[m->best].k->name, win->k->name, m->tie_rule);
	fprintf(f, "%swinner: %s\n", prefix, win->k->name);
}

/* A JSON string: names come from the registry and CPUID, but a vendor
 * string is 12 arbitrary bytes. */
static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *status_name(enum kstatus s)
{
	return s == KERNEL_OK ? "ok" : s == KERNEL_UNUSABLE ? "unusable"
							    : "failed-selftest";
}

/* The opening of one kernel's object in a "kernels" array (INDENT before
 * it, a comma unless FIRST); true when the kernel was measured, so its
 * numbers follow. */
static bool json_kernel_open(FILE *f, const char *indent, bool first,
			     const char *name, enum kstatus s)
{
	fprintf(f, "%s\n%s{\"name\": \"%s\", \"status\": \"%s\"",
		first ? "" : ",", indent, name, status_name(s));
	return s == KERNEL_OK;
}

/* The numbers every measured kernel, single or batch, ends with. */
static void json_kernel_score(FILE *f, double keys_per_second, double score,
			      double ratio)
{
	fprintf(f, "\"keys_per_second\": %.6g, \"score\": %.6g, "
		   "\"ratio\": %.4f",
		keys_per_second, score, ratio);
}

/* The batch kernels as the "batch" member: what the config's batch_kernel
 * was chosen from, so --generate-conf --json says what it wrote. */
static void json_batch(FILE *f, const struct batch_measurement *bm)
{
	fprintf(f, ",\n  \"batch\": {\n    \"rounds\": %d,\n"
		   "    \"winner\": ",
		bm->rounds);
	if (bm->winner < bm->n)
		fprintf(f, "\"%s\"", bm->br[bm->winner].b->name);
	else
		fputs("null", f);
	fprintf(f, ",\n    \"tie_broken\": %s,\n    \"kernels\": [",
		bm->tie ? "true" : "false");
	for (size_t i = 0; i < bm->n; i++) {
		const struct bresult *r = &bm->br[i];

		if (json_kernel_open(f, "      ", i == 0, r->b->name,
				     r->status)) {
			fprintf(f, ", \"bytes_per_second\": %.6g, ",
				r->rate[BATCH_STREAMS]);
			json_kernel_score(f, r->rate[BATCH_KEYS], r->score,
					  r->ratio);
		}
		fputc('}', f);
	}
	fputs("\n    ]\n  }", f);
}

void report_json(FILE *f, const struct measurement *m,
		 const struct batch_measurement *bm, const char *cpu)
{
	fprintf(f, "{\n  \"rc4tune\": \"%s\",\n  \"cpu\": ", PACKAGE_VERSION);
	if (cpu)
		json_string(f, cpu);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"workload\": \"%s\",\n  \"sizes\": [",
		workload_name(m->workload));
	for (int c = 0; c < MEASURE_NSIZES; c++)
		fprintf(f, "%s%zu", c ? ", " : "", measure_sizes[c]);
	fprintf(f, "],\n  \"rounds\": %d,\n  \"slice_seconds\": %.6g,\n"
		   "  \"seconds\": %.3f,\n  \"clock\": \"%s\",\n"
		   "  \"cycle_clock\": ",
		m->rounds, m->slice, m->seconds, m->clock);
	if (m->cycle_clock)
		fprintf(f, "\"%s\",\n  \"cycle_hz\": %.6g", m->cycle_clock,
			m->cycle_hz);
	else
		fputs("null,\n  \"cycle_hz\": null", f);
	fprintf(f, ",\n  \"noise\": %.4f,\n  \"gap\": %.4f,\n"
		   "  \"others_load\": ",
		m->noise, m->gap);
	if (m->load >= 0)
		fprintf(f, "%.3f", m->load);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"uncertain\": %s,\n"
		   "  \"best\": \"%s\",\n  \"winner\": \"%s\",\n"
		   "  \"tied\": %zu,\n  \"tie_rule\": ",
		m->uncertain ? "true" : "false",
		m->kr[m->best].k->name, m->kr[m->winner].k->name, m->ntied);
	if (m->tie_rule)
		fprintf(f, "\"%s\"", m->tie_rule);
	else
		fputs("null", f);
	fputs(",\n  \"kernels\": [", f);
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];

		if (json_kernel_open(f, "    ", i == 0, r->k->name,
				     r->status)) {
			fputs(", \"bytes_per_second\": [", f);
			for (int c = 0; c < MEASURE_NSIZES; c++)
				fprintf(f, "%s%.6g", c ? ", " : "", r->rate[c]);
			if (m->cycle_clock) {
				fputs("], \"cycles_per_byte\": [", f);
				for (int c = 0; c < MEASURE_NSIZES; c++)
					fprintf(f, "%s%.4g", c ? ", " : "",
						m->cycle_hz / r->rate[c]);
			}
			fputs("], ", f);
			json_kernel_score(f, r->rate[MEASURE_KEYS], r->score,
					  r->ratio);
			fprintf(f, ", \"spread\": %.4f", r->spread);
		}
		fputc('}', f);
	}
	fputs("\n  ]", f);
	if (bm != NULL)
		json_batch(f, bm);
	fputs("\n}\n", f);
}

void report_section(FILE *f, const char *cpu, const struct measurement *m,
		    const struct batch_measurement *bm)
{
	char date[32];
	time_t t = time(NULL);

	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
	fprintf(f, "[%s]\n", cpu);
	fprintf(f, "; written by rc4tune %s --generate-conf on %s\n",
		PACKAGE_VERSION, date);
	report_table(f, "; ", m);
	if (bm != NULL)
		batch_report(f, "; ", bm, true);
	fprintf(f, "kernel = %s\n", m->kr[m->winner].k->name);
}
