/* batchtune.c - time the batch kernels and pick one for batch_kernel.
 *
 * As measure.c for the single-stream kernels, in miniature: kernels called
 * through their descriptors, slices of a calibrated number of calls,
 * round-robin across kernels starting one further each round, medians.
 * Two cells: keys/s (a fresh 16-byte key and 16 bytes of keystream, 64
 * keys a call: password recovery) and bytes/s over 8 streams of 1024-byte
 * calls (a server's many streams). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "batchtune.h"
#include "timing.h"

enum { NKEYS = 64, NSTREAMS = 8, BLOCK = 1024, ROUNDS = 9 };
static const double MIN_SLICE = 50e-6, MAX_SLICE = 5e-3;
/* Scores this close to the best tie; the earliest in registry order (the
 * portable C ones first) wins, so two runs write the same name. */
static const double TIE = 0.02;

/* Weights of keys/s and bytes/s per workload (measure.h). */
static const double weight[WORKLOAD_COUNT][BATCH_CELLS] = {
	[WORKLOAD_MIXED] = { 1, 1 },
	[WORKLOAD_BULK] = { 0, 1 },
	[WORKLOAD_PACKETS] = { 0, 1 },
	[WORKLOAD_KEYS] = { 1, 0 },
};

static _Alignas(64) struct rc4k_state states[NKEYS];
static _Alignas(64) uint8_t buf[NKEYS][BLOCK];
static uint8_t keys[NKEYS][16];

/* Seconds for REPS calls of B in CELL. */
static double run(const void *kernel, int cell, unsigned long reps)
{
	const struct rc4k_batch *b = kernel;
	struct rc4k_state *st[NKEYS];
	const uint8_t *key[NKEYS], *in[NKEYS];
	uint8_t *out[NKEYS];
	size_t len[NKEYS];
	static uint64_t fresh;
	double t0;

	for (size_t i = 0; i < NKEYS; i++) {
		st[i] = &states[i];
		key[i] = keys[i];
		len[i] = sizeof keys[i];
		in[i] = out[i] = buf[i];
	}
	if (cell == BATCH_KEYS) {
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++) {
			for (size_t i = 0; i < NKEYS; i++) {
				fresh++;
				memcpy(keys[i], &fresh, sizeof fresh);
			}
			b->set_keys(st, NKEYS, key, len);
			b->crypt_many(st, NKEYS, 16, in, out);
		}
	} else {
		b->set_keys(st, NSTREAMS, key, len);
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++)
			b->crypt_many(st, NSTREAMS, BLOCK, in, out);
	}
	return timing_now() - t0;
}

static double rate(int cell, unsigned long reps, double t)
{
	double units = cell == BATCH_KEYS ? NKEYS : NSTREAMS * BLOCK;

	return (double)reps * units / (t > 0 ? t : 1e-9);
}

int batch_measure(struct batch_measurement *bm, enum workload w,
		  double budget)
{
	size_t n = 0, nok = 0;

	memset(bm, 0, sizeof *bm);
	while (rc4k_batch_registry[n] != NULL)
		n++;
	bm->br = calloc(n ? n : 1, sizeof *bm->br);
	if (bm->br == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct bresult *r = &bm->br[bm->n++];

		r->b = rc4k_batch_registry[i];
		if (!rc4k_batch_usable(r->b)) {
			r->status = KERNEL_UNUSABLE;
		} else if (rc4k_batch_selftest(r->b) != 0) {
			r->status = KERNEL_FAILED;
			fprintf(stderr, "rc4tune: batch kernel %s failed its "
					"self-test on this CPU; never chosen\n",
				r->b->name);
		} else {
			nok++;
		}
	}
	bm->winner = bm->n;
	if (nok == 0)
		return 0;

	double slice = budget / (ROUNDS * BATCH_CELLS * (double)nok);
	slice = fmin(fmax(slice, MIN_SLICE), MAX_SLICE);
	unsigned long reps[n][BATCH_CELLS];
	double samples[n][BATCH_CELLS][ROUNDS];
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < BATCH_CELLS; c++)
			if (bm->br[i].status == KERNEL_OK)
				reps[i][c] = timing_calibrate(run, bm->br[i].b, c,
							      slice);
	for (int r = 0; r < ROUNDS; r++)
		for (int c = 0; c < BATCH_CELLS; c++)
			for (size_t j = 0; j < n; j++) {
				size_t i = (j + (size_t)r) % n;
				if (bm->br[i].status != KERNEL_OK)
					continue;
				samples[i][c][r] = rate(
					c, reps[i][c],
					run(bm->br[i].b, c, reps[i][c]));
			}
	bm->rounds = ROUNDS;

	size_t best = n;
	for (size_t i = 0; i < n; i++) {
		struct bresult *r = &bm->br[i];
		double lg = 0, sum = 0;

		if (r->status != KERNEL_OK)
			continue;
		for (int c = 0; c < BATCH_CELLS; c++) {
			double tmp[ROUNDS];
			r->rate[c] = timing_median(samples[i][c], ROUNDS, tmp);
			lg += weight[w][c] * log(r->rate[c]);
			sum += weight[w][c];
		}
		r->score = exp(lg / sum);
		if (best == n || r->score > bm->br[best].score)
			best = i;
	}
	for (size_t i = 0; i < n && bm->winner == n; i++)
		if (bm->br[i].status == KERNEL_OK &&
		    bm->br[i].score >= bm->br[best].score * (1 - TIE))
			bm->winner = i;
	bm->tie = bm->winner != best;
	for (size_t i = 0; i < n; i++)
		bm->br[i].ratio = bm->br[i].score / bm->br[bm->winner].score;
	return 0;
}

void batch_report(FILE *f, const char *prefix,
		  const struct batch_measurement *bm, bool key_line)
{
	fprintf(f, "%sbatch kernels (rc4tune_set_keys, rc4tune_crypt_many), "
		   "medians of %d rounds:\n",
		prefix, bm->rounds);
	fprintf(f, "%s%-16s %12s %16s %7s\n", prefix, "batch kernel",
		"keys/s", "8x1024 1000s B/s", "/pick");
	for (size_t i = 0; i < bm->n; i++) {
		const struct bresult *r = &bm->br[i];

		if (r->status != KERNEL_OK)
			fprintf(f, "%s%-16s %s\n", prefix, r->b->name,
				r->status == KERNEL_UNUSABLE
					? "not usable on this CPU"
					: "failed its self-test");
		else
			fprintf(f, "%s%-16s %12.0f %16.0f %7.3f%s\n", prefix,
				r->b->name, r->rate[BATCH_KEYS],
				r->rate[BATCH_STREAMS] / 1000, r->ratio,
				i == bm->winner ? " *" : "");
	}
	if (bm->winner == bm->n) {
		fprintf(f, "%sno batch kernel passed its self-test: the "
			   "library keeps its default\n",
			prefix);
		return;
	}
	if (bm->tie)
		fprintf(f, "%stie within %.0f %% of the best: the earliest in "
			   "registry order\n",
			prefix, TIE * 100);
	if (key_line)
		fprintf(f, "batch_kernel = %s\n", bm->br[bm->winner].b->name);
}

void batch_measure_free(struct batch_measurement *bm)
{
	free(bm->br);
	bm->br = NULL;
}
