/* SPDX-License-Identifier: MIT */
/* placement.c - how much each kernel's speed depends on where its key
 * sits (`make placement`): every usable kernel through the public API, in
 * calls of one size (8 KiB unless --size), timed through the tuner's
 * timing core (tuner/speed.h) with its keys and buffers: the key in an
 * rc4tune_key array and separate input and output buffers at each of the
 * core's placements in turn.
 *
 * The rounds are whole turns of every placement on every CPU
 * (speed_whole_turns), so that a CPU in another state weighs on each
 * placement alike.  Prints MB/s per placement (the median of its
 * rounds), then the kernel's speed as the core defines it (the median as
 * at its worst placement, what the tuner and `make bench` report), the
 * best placement's median, their ratio and the spread within
 * placements. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "tuner/speed.h"
#include "tuner/timing.h"

#define MAXK 64

struct row {
	const char *name;
	unsigned long reps;
};

static size_t block = SPEED_BUF;

/* Seconds that REPS calls of row I take, its key at PLACE; the core's
 * speed_run (one cell). */
static double run(void *ctx, size_t i, int cell, int place,
		  unsigned long reps)
{
	const struct row *r = (const struct row *)ctx + i;
	rc4tune_key *k = speed_keys(place);
	double t0;

	(void)cell;
	rc4tune_use_kernel(r->name);
	rc4tune_set_key(k, "0123456789abcdef", 16);
	t0 = timing_now();
	for (unsigned long n = 0; n < reps; n++)
		rc4tune_crypt(k, block, speed_in(place), speed_out(place));
	double t = timing_now() - t0;
	rc4tune_wipe(k);
	return t;
}

/* The core's speed_slice: bytes per second, or the seam's rate. */
static double slice(void *ctx, size_t i, int cell, int place)
{
	const struct row *r = (const struct row *)ctx + i;

	if (speed_seam != NULL)
		return speed_seam(r->name, place);
	double t = run(ctx, i, cell, place, r->reps);
	return (double)r->reps * (double)block / (t > 0 ? t : 1e-9);
}

/* The options and kernels named into ROWS: the count of rows, 0 for
 * every usable kernel, -1 on a usage error. */
static int parse_args(int argc, char **argv, int *rounds, double *secs,
		      struct row *rows)
{
	int n = 0;

	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc)
			*rounds = atoi(argv[++a]);
		else if (strcmp(argv[a], "--ms") == 0 && a + 1 < argc)
			*secs = atof(argv[++a]) / 1000;
		else if (strcmp(argv[a], "--size") == 0 && a + 1 < argc)
			block = (size_t)atol(argv[++a]);
		else if (n < MAXK)
			rows[n++].name = argv[a];
	}
	if (*rounds < 1 || *rounds > SPEED_MAX_ROUNDS || *secs <= 0 ||
	    block < 1 || block > SPEED_BUF) {
		fprintf(stderr, "usage: placement [--rounds 1..%d] [--ms MS] "
				"[--size 1..%d] [KERNEL...]\n",
			SPEED_MAX_ROUNDS, SPEED_BUF);
		return -1;
	}
	*rounds = speed_whole_turns(*rounds, SPEED_MAX_ROUNDS, speed_cpus());
	return n;
}

static void print_rows(const struct speed_table *t, const struct row *rows,
		       int n)
{
	printf("MB/s in %zu-byte calls, the key and buffers at each "
	       "placement of the timing core (the median of %d rounds over "
	       "%d placements on %d CPUs)\n"
	       "%-24s",
	       block, t->rounds, SPEED_PLACES, speed_cpus(), "kernel");
	for (int p = 0; p < SPEED_PLACES; p++)
		printf("   at %d", p);
	printf(" %7s %7s %6s %7s\n", "speed", "best", "s/b", "spread");
	for (int i = 0; i < n; i++) {
		struct speed s;
		double hi = 0;
		speed_of(t, (size_t)i, 0, &s, NULL);
		printf("%-24s", rows[i].name);
		for (int p = 0; p < SPEED_PLACES; p++) {
			/* 0: no round there (fewer rounds than placements) */
			if (s.at[p] > 0)
				printf(" %6.0f", s.at[p] / 1e6);
			else
				printf(" %6s", "-");
			hi = s.at[p] > hi ? s.at[p] : hi;
		}
		printf(" %7.0f %7.0f %6.3f %6.1f%%\n", s.rate / 1e6, hi / 1e6,
		       s.rate / hi, 100 * s.spread);
	}
}

/* Every usable kernel into ROWS; the count. */
static int all_kernels(struct row *rows)
{
	const char *name;
	int n = 0, usable;

	for (size_t i = 0; n < MAXK &&
			   (name = rc4tune_kernel_info(i, NULL, &usable));
	     i++)
		if (usable)
			rows[n++].name = name;
	return n;
}

int main(int argc, char **argv)
{
	static struct row rows[MAXK];
	int rounds = 3 * SPEED_PLACES;
	double secs = 0.002;
	int n = parse_args(argc, argv, &rounds, &secs, rows);
	struct speed_table t;

	if (n < 0)
		return 2;
	if (n == 0)
		n = all_kernels(rows);
	for (int i = 0; i < n; i++) {
		if (rc4tune_use_kernel(rows[i].name) != 0) {
			fprintf(stderr, "placement: %s: unknown or unusable "
					"kernel\n",
				rows[i].name);
			return 1;
		}
		rows[i].reps = speed_calibrate(run, rows, (size_t)i, 0, secs);
	}
	if (speed_init(&t, (size_t)n, 1) != 0) {
		perror("placement");
		return 1;
	}
	for (int r = 0; r < rounds; r++)
		speed_round(&t, NULL, (size_t)n, slice, rows);
	print_rows(&t, rows, n);
	speed_free(&t);
	return 0;
}
