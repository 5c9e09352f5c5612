/* SPDX-License-Identifier: MIT */
/* sweep.c - which relation between a key's state, the data and the stack
 * makes a kernel slow (`make sweep`): one of them moved over a 4 KiB page
 * in 64-byte steps (--step), the others held at fixed page offsets, every
 * figure through the public calls (rc4tune_use_kernel, rc4tune_set_key
 * and rc4tune_crypt on a key in an rc4tune_key array, separate input and
 * output buffers) and timed through the timing core (tuner/speed.h): each
 * (kernel, offset) a row, rounds over all rows, the median of a row's
 * rounds and their spread.
 *
 *   --sweep key|in|out|data|stack  what moves (data: in and out together,
 *                                  OUT - IN held)
 *   --key N --in N --out N         the page offsets of the others (the
 *                                  key's offset is the rc4tune_key's;
 *                                  defaults 0, 2112 and 3200: no 8 KiB
 *                                  message at a page's edge)
 *   --ms MS --rounds N --size N --step N (a power of two), then kernels
 *                                  (default: the rings and a gather)
 *
 * Prints one line an offset, MB/s a kernel, then each kernel's worst and
 * best offsets and worst/best. */
#include <config.h>

#include <alloca.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "tuner/speed.h"
#include "tuner/timing.h"

#define MAXK 16
#define MAXOFF 4096

enum what { KEY, IN, OUT, DATA, STACK };
static const char *const what_names[] = { "key", "in", "out", "data",
					  "stack" };

struct sweep {
	enum what what;
	size_t key, in, out, size, step, noff;
	int nk;
	const char *names[MAXK];
	unsigned long reps[MAXK];
};

/* Each region a page for the offset, then room for the largest object. */
static _Alignas(4096) uint8_t key_arena[4096 + 2 * sizeof(rc4tune_key)];
static _Alignas(4096) uint8_t in_arena[4096 + SPEED_BUF + 4096];
static _Alignas(4096) uint8_t out_arena[4096 + SPEED_BUF + 4096];

/* The page offset of the timing loop's frame, as the last run saw it. */
static size_t stack_at;

/* Offset number J of the swept object (0 .. noff - 1). */
static size_t off_of(const struct sweep *s, size_t j)
{
	return j * s->step;
}

/* Rows take the kernels in turn at each offset, and the offsets in a
 * scattered order (an odd stride over a power of two of them): every
 * slice follows another kernel's, and no offset always follows the same
 * one. */
static size_t off_index(const struct sweep *s, size_t row)
{
	return row / (size_t)s->nk * 27 % s->noff;
}

static size_t kernel_of(const struct sweep *s, size_t row)
{
	return row % (size_t)s->nk;
}

/* Kernel I's row at offset number J. */
static size_t row_of(const struct sweep *s, int i, size_t j)
{
	size_t slot = 0;

	while (slot * 27 % s->noff != j)
		slot++;
	return slot * (size_t)s->nk + (size_t)i;
}

/* The calls themselves, in a frame below the caller's pad. */
static __attribute__((noinline)) double timed(rc4tune_key *k, size_t size,
					      const uint8_t *in, uint8_t *out,
					      unsigned long reps)
{
	volatile uint8_t mark = 0;
	double t0 = timing_now();

	for (unsigned long n = 0; n < reps; n++)
		rc4tune_crypt(k, size, in, out);
	stack_at = (uintptr_t)&mark % 4096;
	return timing_now() - t0 + mark;
}

/* Seconds for REPS calls of ROW's kernel at its offset; the core's
 * speed_run. */
static double run(void *ctx, size_t row, int cell, int place,
		  unsigned long reps)
{
	const struct sweep *s = ctx;
	size_t i = kernel_of(s, row), o = off_of(s, off_index(s, row));
	size_t ko = s->what == KEY ? o : s->key;
	size_t io = s->what == IN ? o : s->in, oo = s->out;
	rc4tune_key *k = (rc4tune_key *)(void *)(key_arena + ko);

	(void)cell;
	(void)place;
	if (s->what == OUT)
		oo = o;
	else if (s->what == DATA) {
		io = o;
		oo = (o + s->out - s->in + 4096) % 4096;
	}
	/* The pad moves the timed frame down by O (16-byte granules). */
	volatile uint8_t *pad = alloca(s->what == STACK ? o + 16 : 16);
	pad[0] = 0;
	rc4tune_use_kernel(s->names[i]);
	rc4tune_set_key(k, "0123456789abcdef", 16);
	double t = timed(k, s->size, in_arena + io, out_arena + oo, reps);
	rc4tune_wipe(k);
	return t + pad[0];
}

/* The core's speed_slice: bytes per second. */
static double slice(void *ctx, size_t row, int cell, int place)
{
	const struct sweep *s = ctx;
	unsigned long reps = s->reps[kernel_of(s, row)];
	double t = run(ctx, row, cell, place, reps);

	return (double)reps * (double)s->size / (t > 0 ? t : 1e-9);
}

static const char *const rings[] = {
	"char-ring5-sse41", "long-ring5-sse41", "int-ring4-sse41",
	"int-ring4-asm", "long-ring4-asm", "char-ring4-avx512",
	"long-ring4-avx512", "char-ahead-ring5-sse41",
	"char-ahead-ring4-avx512", "int-16x-sse41",
};

static int what_of(const char *name)
{
	for (int w = 0; w < 5; w++)
		if (strcmp(name, what_names[w]) == 0)
			return w;
	return -1;
}

/* One option at ARGV[A] (with its value at A + 1) into S; -1 if bad. */
static int option(struct sweep *s, char **argv, int a, int *rounds,
		  double *secs)
{
	const char *o = argv[a], *v = argv[a + 1];

	if (strcmp(o, "--sweep") == 0)
		return (int)(s->what = (enum what)what_of(v)) < 0 ? -1 : 0;
	if (strcmp(o, "--rounds") == 0)
		*rounds = atoi(v);
	else if (strcmp(o, "--ms") == 0)
		*secs = atof(v) / 1000;
	else if (strcmp(o, "--size") == 0)
		s->size = (size_t)atol(v);
	else if (strcmp(o, "--step") == 0)
		s->step = (size_t)atol(v);
	else if (strcmp(o, "--key") == 0)
		s->key = (size_t)atol(v);
	else if (strcmp(o, "--in") == 0)
		s->in = (size_t)atol(v);
	else if (strcmp(o, "--out") == 0)
		s->out = (size_t)atol(v);
	else
		return -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct sweep *s, int *rounds,
		      double *secs)
{
	for (int a = 1; a < argc; a++) {
		if (strncmp(argv[a], "--", 2) == 0) {
			if (a + 1 >= argc ||
			    option(s, argv, a, rounds, secs) != 0)
				return -1;
			a++;
		} else if (s->nk < MAXK) {
			s->names[s->nk++] = argv[a];
		}
	}
	if (s->step < 1 || s->step > 4096 || (s->step & (s->step - 1)) ||
	    s->size < 1 ||
	    s->size > SPEED_BUF || s->key >= 4096 || s->in >= 4096 ||
	    s->out >= 4096 || *secs <= 0)
		return -1;
	s->noff = 4096 / s->step;
	if (*rounds < 1 || *rounds > SPEED_MAX_ROUNDS)
		return -1;
	return 0;
}

/* The default kernels, those usable here. */
static void default_kernels(struct sweep *s)
{
	for (size_t i = 0; i < sizeof rings / sizeof *rings; i++)
		if (rc4tune_use_kernel(rings[i]) == 0)
			s->names[s->nk++] = rings[i];
}

/* Row ROW's median over the rounds (all of them: the core's placements
 * are not this sweep's) and its robust spread. */
static double row_rate(const struct speed_table *t, size_t row, double *sd)
{
	struct speed sp;

	speed_of(t, row, 0, &sp, NULL);
	*sd = speed_spread(speed_sample(t, row, 0, 0), t->rounds);
	return sp.all;
}

static void print_head(const struct sweep *s, int rounds)
{
	printf("# MB/s in %zu-byte calls by the %s's page offset (median of "
	       "%d rounds); fixed: key %zu, in %zu, out %zu, timed frame at "
	       "%zu; the state's entries start 24 bytes past the key\n",
	       s->size, what_names[s->what], rounds, s->key, s->in, s->out,
	       stack_at);
	printf("%-6s", "offset");
	for (int i = 0; i < s->nk; i++)
		printf(" %s", s->names[i]);
	printf("\n");
}

static void print_sweep(const struct speed_table *t, const struct sweep *s)
{
	double sd;

	print_head(s, t->rounds);
	for (size_t j = 0; j < s->noff; j++) {
		printf("%-6zu", off_of(s, j));
		for (int i = 0; i < s->nk; i++) {
			size_t row = row_of(s, i, j);
			printf(" %.0f", row_rate(t, row, &sd) / 1e6);
		}
		printf("\n");
	}
	printf("# kernel worst@offset best@offset worst/best "
	       "median-spread\n");
	for (int i = 0; i < s->nk; i++) {
		size_t lo = 0, hi = 0;
		double r[MAXOFF], sds[MAXOFF], tmp[MAXOFF];
		for (size_t j = 0; j < s->noff; j++) {
			r[j] = row_rate(t, row_of(s, i, j), &sds[j]);
			lo = r[j] < r[lo] ? j : lo;
			hi = r[j] > r[hi] ? j : hi;
		}
		printf("# %s %.0f@%zu %.0f@%zu %.3f %.1f%%\n", s->names[i],
		       r[lo] / 1e6, off_of(s, lo), r[hi] / 1e6, off_of(s, hi),
		       r[lo] / r[hi],
		       100 * speed_median(sds, (int)s->noff, tmp));
	}
}

int main(int argc, char **argv)
{
	static struct sweep s = { .what = KEY, .key = 0, .in = 2112,
				  .out = 3200, .size = SPEED_BUF, .step = 64 };
	int rounds = 7;
	double secs = 0.001;
	struct speed_table t;

	if (parse_args(argc, argv, &s, &rounds, &secs) != 0) {
		fprintf(stderr, "usage: sweep [--sweep key|in|out|data|stack] "
				"[--key N] [--in N] [--out N] [--ms MS] "
				"[--rounds N] [--size N] [--step N] "
				"[KERNEL...]\n");
		return 2;
	}
	if (s.nk == 0)
		default_kernels(&s);
	for (int i = 0; i < s.nk; i++) {
		if (rc4tune_use_kernel(s.names[i]) != 0) {
			fprintf(stderr, "sweep: %s: unknown or unusable "
					"kernel\n", s.names[i]);
			return 1;
		}
		s.reps[i] = speed_calibrate(run, &s, (size_t)i, 0,
					    secs);
	}
	if (speed_init(&t, (size_t)s.nk * s.noff, 1) != 0) {
		perror("sweep");
		return 1;
	}
	for (int r = 0; r < rounds; r++)
		speed_round(&t, NULL, (size_t)s.nk * s.noff, slice, &s);
	print_sweep(&t, &s);
	speed_free(&t);
	return 0;
}
