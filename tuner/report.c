/* SPDX-License-Identifier: MIT */
/* report.c - what the tuner shows of its measurements (report.h). */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "json.h"
#include "report.h"

void report_progress(const struct measurement *m, double elapsed,
		     double budget)
{
	fprintf(stderr, "\rrc4tune: measuring %zu %ss: round %d, "
			"%.1f s of %.1f s ",
		m->n, rc4k_kinds[m->kind].what, m->rounds, elapsed, budget);
}

void report_progress_end(void)
{
	fprintf(stderr, "\r%72s\r", "");
}

static void table_rows(FILE *f, const char *prefix,
		       const struct measurement *m, const struct choice *ch)
{
	const struct bench *b = m->bench;
	int width = 6; /* "kernel" */

	for (size_t i = 0; i < m->n; i++)
		if ((int)strlen(m->kr[i].k->name) > width)
			width = (int)strlen(m->kr[i].k->name);
	fprintf(f, "%s%s\n%s%-*s", prefix, b->title, prefix, width, "kernel");
	for (int c = 0; c < b->ncells; c++)
		fprintf(f, b->cells[c].bytes ? " %11s" : " %10s",
			b->cells[c].label);
	if (m->cycle_clock && b->cpb_cell >= 0)
		fprintf(f, " %7s", b->cpb_label);
	fprintf(f, " %7s\n", "/winner");
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];

		fprintf(f, "%s%-*s", prefix, width, r->k->name);
		if (r->status != KERNEL_OK && r->status != KERNEL_MISFIT) {
			fprintf(f, " %s\n", r->status == KERNEL_UNUSABLE
				? "(this CPU cannot run it)"
				: "(failed its self-test: never chosen)");
			continue;
		}
		/* byte rates in 1000s, as `openssl speed`; key rates whole */
		for (int c = 0; c < b->ncells; c++)
			fprintf(f, b->cells[c].bytes ? " %10.2fk" : " %10.0f",
				r->rate[c] / (b->cells[c].bytes ? 1000 : 1));
		if (m->cycle_clock && b->cpb_cell >= 0)
			fprintf(f, " %7.2f", m->cycle_hz / r->rate[b->cpb_cell]);
		/* timed, but its keys would need a kernel of its layout */
		fprintf(f, " %7.3f%s\n", r->score / m->kr[ch->kernel].score,
			i == ch->kernel		    ? " *"
			: r->status == KERNEL_MISFIT ? " (other layout)"
						     : "");
	}
}

/* The single-stream kernel that serial ran in M, or NULL when M timed no
 * batch kernel of no layout. */
static const char *serial_runs(const struct measurement *m)
{
	for (size_t i = 0; m->single && i < m->n; i++)
		if (m->kr[i].k->kind == RC4K_BATCH && m->kr[i].k->width == 0)
			return m->single->info.name;
	return NULL;
}

void report_table(FILE *f, const char *prefix, const struct measurement *m,
		  const struct choice *c, const char *note)
{
	const struct kresult *win = &m->kr[c->kernel];
	const struct bench *b = m->bench;

	table_rows(f, prefix, m, c);
	fprintf(f, "%sworkload %s: %s\n", prefix, workload_name(m->workload),
		b->describe[m->workload]);
	fprintf(f, "%s%d round%s of %.2f ms slices in %.2f s, timed with %s\n",
		prefix, m->rounds, m->rounds == 1 ? "" : "s", m->slice * 1e3,
		m->seconds, m->clock);
	if (m->first_pass > 0)
		fprintf(f, "%sa race: %d rounds of every %s, then %zu in "
			   "the final, %d round%s each (the others clearly "
			   "behind)\n",
			prefix, m->first_pass, rc4k_kinds[m->kind].what,
			m->finalists, m->rounds, m->rounds == 1 ? "" : "s");
	fprintf(f, "%sthe keys' states at %d places in a 4 KiB page in turn; "
		   "each kernel's figures at its slowest\n",
		prefix, SPEED_PLACES);
	if (serial_runs(m))
		fprintf(f, "%sserial: %s key by key and stream by stream\n",
			prefix, serial_runs(m));
	if (m->cycle_clock && b->cpb_cell >= 0)
		fprintf(f, "%s%s: cycles per byte at %s, of the %s at %.3f "
			   "GHz\n",
			prefix, b->cpb_label, b->cells[b->cpb_cell].label,
			m->cycle_clock, m->cycle_hz / 1e9);
	fprintf(f, "%s%d phases, the leader in each:", prefix, MEASURE_PHASES);
	for (int p = 0; p < MEASURE_PHASES; p++) {
		const struct kresult *lead = NULL;
		for (size_t i = 0; i < m->n; i++)
			if (m->kr[i].status == KERNEL_OK && m->kr[i].phase[p] > 0 &&
			    (lead == NULL || m->kr[i].phase[p] > lead->phase[p]))
				lead = &m->kr[i];
		fprintf(f, "%s %s", p ? "," : "", lead ? lead->k->name : "-");
	}
	fprintf(f, "\n%snoise %.1f %%, gap %.1f %% (best vs second); ", prefix,
		c->noise * 100, c->gap * 100);
	fprintf(f, m->load >= 0 ? "other processes used %.0f %% of the CPUs\n"
			       : "the other processes' load is unknown\n",
		m->load * 100);
	fprintf(f, c->uncertain ? "%sconfidence: uncertain (%s): rerun on an "
				  "idle machine\n"
				: "%sconfidence: high\n",
		prefix, c->why);
	if (c->tie_rule)
		fprintf(f, "%stie: %zu %ss within %.1f %% of the best (%s): "
			   "chose %s, %s\n",
			prefix, c->ntied, rc4k_kinds[m->kind].what,
			c->window * 100, m->kr[m->best].k->name, win->k->name,
			c->tie_rule);
	fprintf(f, "%swinner: %s\n", prefix, win->k->name);
	for (const char *s = note; s != NULL && *s != '\0';) {
		size_t n = strcspn(s, "\n");
		fprintf(f, "%s%.*s\n", prefix, (int)n, s);
		s += n + (s[n] == '\n');
	}
}

static const char *status_name(enum kstatus s)
{
	return s == KERNEL_OK		? "ok"
	       : s == KERNEL_UNUSABLE ? "unusable"
	       : s == KERNEL_MISFIT   ? "other-layout"
				      : "failed-selftest";
}

/* VALUE(c) for each byte cell of B, as a JSON array. */
static void json_bytes(FILE *f, const struct bench *b, const char *fmt,
		       const double *rate, double scale)
{
	bool first = true;

	fputc('[', f);
	for (int c = 0; c < b->ncells; c++)
		if (b->cells[c].bytes) {
			fprintf(f, first ? "" : ", ");
			fprintf(f, fmt, scale ? scale / rate[c] : rate[c]);
			first = false;
		}
	fputc(']', f);
}

static void json_kernel(FILE *f, const char *in, const struct measurement *m,
			const struct choice *ch, const struct kresult *r)
{
	const struct bench *b = m->bench;

	fprintf(f, "%s{\"name\": \"%s\", \"status\": \"%s\"", in, r->k->name,
		status_name(r->status));
	if (r->status == KERNEL_OK || r->status == KERNEL_MISFIT) {
		fputs(", \"bytes_per_second\": ", f);
		json_bytes(f, b, "%.6g", r->rate, 0);
		if (m->cycle_clock) {
			fputs(", \"cycles_per_byte\": ", f);
			json_bytes(f, b, "%.4g", r->rate, m->cycle_hz);
		}
		for (int c = 0; c < b->ncells; c++)
			if (!b->cells[c].bytes)
				fprintf(f, ", \"keys_per_second\": %.6g",
					r->rate[c]);
		fprintf(f, ", \"rounds\": %d, \"finalist\": %s", r->rounds,
			r->finalist ? "true" : "false");
		fprintf(f, ", \"score\": %.6g, \"ratio\": %.4f, "
			   "\"spread\": %.4f, \"placed\": %.4f",
			r->score, r->score / m->kr[ch->kernel].score, r->spread,
			r->placed);
	}
	fputc('}', f);
}

/* M's members, each line after IN. */
static void json_members(FILE *f, const char *in, const struct measurement *m,
			 const struct choice *c)
{
	const struct bench *b = m->bench;

	fprintf(f, "%s\"cells\": [", in);
	for (int c = 0; c < b->ncells; c++)
		fprintf(f, "%s\"%s\"", c ? ", " : "", b->cells[c].label);
	fprintf(f, "],\n%s\"sizes\": ", in);
	double sizes[SPEED_MAX_CELLS];
	for (int c = 0; c < b->ncells; c++)
		sizes[c] = (double)b->cells[c].bytes;
	json_bytes(f, b, "%.0f", sizes, 0);
	fprintf(f, ",\n%s\"placements\": %d,\n%s\"serial_runs\": ", in,
		SPEED_PLACES, in);
	json_string_or_null(f, serial_runs(m));
	fprintf(f, ",\n%s\"first_pass_rounds\": %d,\n%s\"finalists\": %zu",
		in, m->first_pass, in, m->finalists);
	fprintf(f, ",\n%s\"rounds\": %d,\n%s\"slice_seconds\": %.6g,\n"
		   "%s\"seconds\": %.3f,\n%s\"deadline_seconds\": %.3f,\n"
		   "%s\"last_round_seconds\": %.3f,\n%s\"noise\": %.4f,\n"
		   "%s\"gap\": %.4f,\n%s\"others_load\": ",
		in, m->rounds, in, m->slice, in, m->seconds, in,
		m->deadline_at, in, m->last_round_at, in, c->noise, in, c->gap,
		in);
	fprintf(f, m->load >= 0 ? "%.3f" : "null", m->load);
	fprintf(f, ",\n%s\"lower\": ", in);
	fprintf(f, c->lower >= 0 ? "%.4f" : "null", c->lower);
	fprintf(f, ",\n%s\"confidence\": \"%s\",\n%s\"uncertain_because\": ",
		in, c->uncertain ? "uncertain" : "high", in);
	json_string_or_null(f, c->uncertain ? c->why : NULL);
	fprintf(f, ",\n%s\"uncertain\": %s,\n%s\"best\": \"%s\",\n"
		   "%s\"winner\": \"%s\",\n%s\"tied\": %zu,\n"
		   "%s\"tie_broken\": %s,\n%s\"tie_rule\": ",
		in, c->uncertain ? "true" : "false", in,
		m->kr[m->best].k->name, in, m->kr[c->kernel].k->name, in,
		c->ntied, in, c->tie_rule ? "true" : "false", in);
	json_string_or_null(f, c->tie_rule);
	fprintf(f, ",\n%s\"kernels\": [", in);
	for (size_t i = 0; i < m->n; i++) {
		fprintf(f, "%s\n", i ? "," : "");
		json_kernel(f, in, m, c, &m->kr[i]);
	}
	fprintf(f, "\n%s]", in);
}

void report_json(FILE *f, const struct measurement *const m[RC4K_KINDS],
		 const struct choice c[RC4K_KINDS], const char *cpu,
		 const char *const written[RC4K_KINDS])
{
	const struct measurement *any = NULL;

	for (int k = 0; k < RC4K_KINDS && any == NULL; k++)
		any = m[k];
	fprintf(f, "{\n  \"rc4tune\": \"%s\",\n  \"cpu\": ", PACKAGE_VERSION);
	json_string_or_null(f, cpu);
	fprintf(f, ",\n  \"workload\": \"%s\",\n  \"clock\": \"%s\",\n"
		   "  \"cycle_clock\": ",
		workload_name(any->workload), any->clock);
	json_string_or_null(f, any->cycle_clock);
	fputs(",\n  \"cycle_hz\": ", f);
	fprintf(f, any->cycle_clock ? "%.6g" : "null", any->cycle_hz);
	for (int k = 0; k < RC4K_KINDS; k++) {
		if (m[k] == NULL)
			continue;
		const char *in = m[k]->bench->json == NULL ? "  " : "    ";
		fprintf(f, m[k]->bench->json ? ",\n  \"%s\": {\n" : ",\n",
			m[k]->bench->json);
		json_members(f, in, m[k], &c[k]);
		fprintf(f, ",\n%s\"written\": ", in);
		json_string_or_null(f, written ? written[k] : NULL);
		if (m[k]->bench->json != NULL)
			fputs("\n  }", f);
	}
	fputs("\n}\n", f);
}

void report_comment(FILE *f, const struct measurement *const m[RC4K_KINDS],
		    const struct choice c[RC4K_KINDS],
		    const char *const note[RC4K_KINDS])
{
	fprintf(f, "; written by rc4tune %s --generate-conf; the lines "
		   "starting \"%.2s\" are its record (rc4tune.conf(5))\n",
		PACKAGE_VERSION, RC4_RECORD_PREFIX);
	for (int k = 0; k < RC4K_KINDS; k++)
		if (m[k] != NULL)
			report_table(f, "; ", m[k], &c[k], note[k]);
}
