/* SPDX-License-Identifier: MIT */
/* placement.c - how much each kernel's speed depends on where its key
 * sits (`make placement`): every usable kernel through the public API,
 * 8 KiB in-place calls, with the rc4tune_key at 16 offsets 0..3840 bytes
 * past a 4 KiB boundary and the data buffer where it always is.
 *
 * Rounds go over every offset and every kernel, so drift hits all alike;
 * each figure is the fastest of its rounds: another process only slows a
 * slice down, while a bad placement slows every round, so on a busy
 * machine the fastest round still shows it and the median may not.
 * Prints MB/s per offset, then each kernel's worst, best and worst/best. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "benchutil.h"

#define NOFF 16
#define STEP 256
#define BLOCK 8192
#define MAXK 64
#define MAXROUNDS 64

struct row {
	const char *name;
	double mbs[NOFF][MAXROUNDS], top[NOFF];
};

static _Alignas(4096) unsigned char arena[4096 * 2];
static _Alignas(4096) unsigned char buf[BLOCK];

/* MB/s of BLOCK-byte calls for about SECS, the key at OFF in the arena. */
static double slice(const char *name, size_t off, double secs)
{
	rc4tune_key *k = (rc4tune_key *)(void *)(arena + off);
	size_t bytes = 0;
	double t0, t;

	rc4tune_use_kernel(name);
	rc4tune_set_key(k, "0123456789abcdef", 16);
	rc4tune_crypt(k, BLOCK, buf, buf); /* warm: state and buffer cached */
	t0 = now();
	do {
		for (int r = 0; r < 8; r++)
			rc4tune_crypt(k, BLOCK, buf, buf);
		bytes += 8 * BLOCK;
		t = now() - t0;
	} while (t < secs);
	rc4tune_wipe(k);
	return bytes / t / 1e6;
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
		else if (n < MAXK)
			rows[n++].name = argv[a];
	}
	if (*rounds < 1 || *rounds > MAXROUNDS || *secs <= 0) {
		fprintf(stderr, "usage: placement [--rounds 1..%d] [--ms MS] "
				"[KERNEL...]\n",
			MAXROUNDS);
		return -1;
	}
	return n;
}

static void print_rows(struct row *rows, int n, int rounds)
{
	printf("MB/s at 8 KiB in-place calls, the key at OFFSET past a 4 KiB "
	       "boundary (the fastest of %d rounds)\n%-24s", rounds, "kernel");
	for (int o = 0; o < NOFF; o++)
		printf(" %5d", o * STEP);
	printf(" %6s %6s %6s\n", "worst", "best", "w/b");
	for (int i = 0; i < n; i++) {
		struct row *r = &rows[i];
		double lo = 0, hi = 0;
		printf("%-24s", r->name);
		for (int o = 0; o < NOFF; o++) {
			qsort(r->mbs[o], (size_t)rounds, sizeof(double),
			      cmp_double);
			r->top[o] = r->mbs[o][rounds - 1];
			lo = o == 0 || r->top[o] < lo ? r->top[o] : lo;
			hi = r->top[o] > hi ? r->top[o] : hi;
			printf(" %5.0f", r->top[o]);
		}
		printf(" %6.0f %6.0f %6.3f\n", lo, hi, lo / hi);
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
	int rounds = 9;
	double secs = 0.002;
	int n = parse_args(argc, argv, &rounds, &secs, rows);

	if (n < 0)
		return 2;
	if (n == 0)
		n = all_kernels(rows);
	for (int i = 0; i < n; i++)
		if (rc4tune_use_kernel(rows[i].name) != 0) {
			fprintf(stderr, "placement: %s: unknown or unusable "
					"kernel\n",
				rows[i].name);
			return 1;
		}
	memset(buf, 0x5a, sizeof buf);
	for (int r = 0; r < rounds; r++)
		for (int o = 0; o < NOFF; o++)
			for (int i = 0; i < n; i++)
				rows[i].mbs[o][r] = slice(rows[i].name,
							  (size_t)(o * STEP), secs);
	print_rows(rows, n, rounds);
	return 0;
}
