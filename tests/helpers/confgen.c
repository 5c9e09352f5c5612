/* SPDX-License-Identifier: MIT */
/* confgen.c - configs built from bytes (confgen.h). */
#include <config.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "confgen.h"
#include "tuner/section.h"

struct gen {
	const uint8_t *p;
	size_t n, at;
	FILE *out, *headers;
	const char *live, *eol;
	int line;
};

static unsigned pick(struct gen *g, unsigned n)
{
	return (g->at < g->n ? g->p[g->at++] : 0) % n;
}

/* Kernels known and usable, unknown, unusable on most CPUs, empty. */
static const char *kernel(struct gen *g)
{
	static const char *const k[] = { "int-4x", "char-4x", "int-8x",
					 "char-1x", "long-1x", "no-such-kernel",
					 "char-ring4-avx512", "" };
	return k[pick(g, sizeof k / sizeof k[0])];
}

static const char *batch_kernel(struct gen *g)
{
	static const char *const k[] = { "char-2lane", "int-4lane",
					 "no-such-batch", "char-8lane" };
	return k[pick(g, sizeof k / sizeof k[0])];
}

/* TEXT's lines ('\n' ends) with the file's line ends, counted. */
static void put(struct gen *g, const char *text)
{
	for (; *text; text++)
		if (*text == '\n') {
			fputs(g->eol, g->out);
			g->line++;
		} else {
			fputc(*text, g->out);
		}
}

static void header(struct gen *g, const char *text, bool mine)
{
	if (g->headers != NULL)
		fprintf(g->headers, "%d %d\n", g->line + 1, mine);
	put(g, text);
}

/* This CPU's name as every reader takes it, blanks around it or not. */
static void live_header(struct gen *g)
{
	static const char *const fmt[] = { "[%s]\n", "[ %s ]\n", "[\t%s]\n" };
	char h[RC4_SECTION_MAX + 8];

	snprintf(h, sizeof h, fmt[pick(g, 3)], g->live);
	header(g, h, true);
}

/* A name that is not this CPU's: inner blanks doubled or a tab, another
 * case, another model. */
static void near_miss(struct gen *g)
{
	char h[RC4_SECTION_MAX + 8], *sp;
	unsigned how = pick(g, 4);

	snprintf(h, sizeof h, "[%s]\n", g->live);
	sp = strchr(h, ' ');
	if (how == 0 && sp != NULL && strlen(h) + 1 < sizeof h) {
		memmove(sp + 1, sp, strlen(sp) + 1);
	} else if (how == 1 && sp != NULL) {
		*sp = '\t';
	} else if (how == 2) {
		memcpy(h + 1, "CPU", 3);
	} else {
		snprintf(h, sizeof h, "[%s9]\n", g->live); /* another model */
	}
	header(g, h, false);
}

static void keys(struct gen *g)
{
	char l[96];

	snprintf(l, sizeof l, "kernel = %s\n", kernel(g));
	put(g, l);
	/* each batch call's key, and the key they share, in any order */
	static const char *const batch_keys[] = { "batch_kernel",
						  "set_keys_kernel",
						  "crypt_many_kernel" };
	for (int n = (int)pick(g, 4); n > 0; n--) {
		snprintf(l, sizeof l, "%s = %s\n", batch_keys[pick(g, 3)],
			 batch_kernel(g));
		put(g, l);
	}
}

/* A run's scores: mostly as the tuner writes them, now and then a value
 * it never writes. */
static double score(struct gen *g)
{
	static const double bad[] = { 1e300, 1.0 / 0.0, -1, 0, 2 };
	unsigned s = pick(g, 24);
	return s < 19 ? 0.05 * (s + 1) : bad[s - 19];
}

/* This CPU's section as the tuner wrote it, sealed; now and then edited
 * after (a key changed or added). */
static void tuners(struct gen *g)
{
	struct rc4_record r = { .at = "2026-01-01T00:00:00Z" };
	struct rc4_record_key *k = &r.key[RC4K_SINGLE];

	k->present = true;
	snprintf(k->value, sizeof k->value, "%s", kernel(g));
	k->uncertain = pick(g, 3) == 0;
	snprintf(k->why, sizeof k->why, "%s", k->uncertain ? "busy" : "-");
	k->basis = (struct rc4_record_basis){ pick(g, 2) == 0, score(g), 0.025,
					      1 + (int)pick(g, 40),
					      (int)pick(g, 400) };
	k->nruns = (int)pick(g, RC4_RECORD_RUNS + 1);
	for (int i = 0; i < k->nruns; i++) {
		struct rc4_record_run *run = &k->run[i];
		snprintf(run->at, sizeof run->at, "%s", r.at);
		run->n = 2;
		snprintf(run->lead[0].name, sizeof run->lead[0].name, "int-4x");
		run->lead[0].score = 1;
		snprintf(run->lead[1].name, sizeof run->lead[1].name, "char-4x");
		run->lead[1].score = score(g);
	}
	char *text = rc4_section_build(g->live, &r, "; a comment\n", NULL);
	if (text == NULL)
		abort();
	header(g, "", true); /* the header is the text's first line */
	put(g, text);
	free(text);
	if (pick(g, 4) == 0)
		keys(g);
}

static void section(struct gen *g)
{
	char h[64];

	switch (pick(g, 11)) {
	case 0:
		header(g, "[default]\n", false);
		keys(g);
		break;
	case 1:
		if (pick(g, 3) == 0) {
			header(g, "[pin]\n", false);
			keys(g);
		}
		break;
	case 2:
		snprintf(h, sizeof h, "[cpu OtherVendor %u %u]\n", pick(g, 30),
			 pick(g, 200));
		header(g, h, false);
		keys(g);
		break;
	case 3:
	case 4:
		live_header(g);
		keys(g);
		break;
	case 5:
	case 6:
		tuners(g);
		break;
	case 7:
		near_miss(g);
		keys(g);
		break;
	case 8:
		put(g, pick(g, 2) ? "; a comment\n\n" : "unknown = key\n");
		break;
	case 9:
		/* a line the library refuses: the whole file is ignored */
		put(g, pick(g, 6) == 0 ? "not a key line\n" : "\n");
		break;
	default:
		live_header(g);
		put(g, "; a person's, below the tuner's\n");
		keys(g);
		break;
	}
}

void confgen(FILE *out, FILE *headers, const uint8_t *data, size_t size,
	     const char *live)
{
	struct gen g = { data, size, 0, out, headers, live, "\n", 0 };

	if (pick(&g, 8) == 0)
		g.eol = "\r\n";
	for (unsigned n = 1 + pick(&g, 8); n > 0; n--)
		section(&g);
}
