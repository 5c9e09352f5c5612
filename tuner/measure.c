/* SPDX-License-Identifier: MIT */
/* measure.c - time the kernels of one kind on this CPU: figures only,
 * which decide.c turns into a choice.
 *
 * A slice is a fixed number of calls (calibrated once to last about
 * m->slice), so no clock read sits inside the loop.  Rounds go over every
 * cell and within a cell over every kernel, starting one kernel further
 * each round, so that drift and the position in a round hit all kernels
 * alike; each round puts the keys' states at the next placement.  Medians
 * over rounds, at each kernel's worst placement, give the table; the
 * per-round scores go with them, for the noise. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/family.h"
#include "measure.h"
#include "timing.h"

enum {
	MAX_ROUNDS = 255,
	TARGET_ROUNDS = 15, /* rounds the slice length is sized for */
};
static const double SETTLE = 0.5;      /* share of the budget the rounds
					* slices are sized for take */
static const double MIN_SLICE = 50e-6, MAX_SLICE = 5e-3;

/* The measuring state: samples of each kernel, cell and round. */
struct run {
	struct measurement *m;
	const double *weight;
	int ncells;
	double *samples;      /* [kernel][cell][round] */
	double *placed;       /* the same, as at the kernel's worst placement */
	double *round_scores; /* [kernel][round], of placed */
	unsigned char phase[MAX_ROUNDS]; /* each round's phase */
	unsigned char place[MAX_ROUNDS]; /* and placement */
	double start, budget; /* the phases divide [start, start + budget) */
	unsigned long *reps;  /* [kernel][cell] */
	size_t *ok, nok;      /* the kernels that passed their self-test */
};

static size_t at(const struct run *r, size_t i, int c, int round)
{
	return ((size_t)i * (size_t)r->ncells + (size_t)c) * MAX_ROUNDS +
	       (size_t)round;
}

static double *sample(const struct run *r, size_t i, int c, int round)
{
	return &r->samples[at(r, i, c, round)];
}

static double *placed(const struct run *r, size_t i, int c, int round)
{
	return &r->placed[at(r, i, c, round)];
}

/* Weighted geometric mean of the cells of V (STRIDE apart). */
static double score_of(const struct run *r, const double *v, size_t stride)
{
	double lg = 0, sum = 0;

	for (int c = 0; c < r->ncells; c++)
		if (r->weight[c] > 0) {
			lg += r->weight[c] * log(v[(size_t)c * stride]);
			sum += r->weight[c];
		}
	return exp(lg / sum);
}

double (*measure_seam)(const struct trial *t, int phase, double slice);

/* The median of kernel I's samples in cell C at each placement, into
 * MED, and how many there were, into K. */
static void place_medians(const struct run *r, size_t i, int c,
			  double med[MEASURE_PLACES], int k[MEASURE_PLACES])
{
	double v[MAX_ROUNDS], tmp[MAX_ROUNDS];

	for (int p = 0; p < MEASURE_PLACES; p++) {
		k[p] = 0;
		for (int j = 0; j < r->m->rounds; j++)
			if (r->place[j] == p)
				v[k[p]++] = *sample(r, i, c, j);
		med[p] = k[p] ? timing_median(v, k[p], tmp) : 0;
	}
}

/* The relative spread (a robust sd, as spread()) of kernel I's samples in
 * cell C about their own placement's median, over the placements with two
 * or more: the noise within a placement, apart from any between them. */
static double within(const struct run *r, size_t i, int c, const double *med,
		     const int *k)
{
	double dev[MAX_ROUNDS], tmp[MAX_ROUNDS];
	int n = 0;

	for (int j = 0; j < r->m->rounds; j++)
		if (k[r->place[j]] > 1)
			dev[n++] = fabs(*sample(r, i, c, j) / med[r->place[j]] -
					1);
	return n ? 1.4826 * timing_median(dev, n, tmp) : 0;
}

/* Kernel I's samples as at its worst placement: per cell, each round's
 * sample times the worst placement's median over its own placement's.
 * The rates, scores, noise and phases then all see the kernel where it
 * runs slowest, so no bad placement hides in a median, and a placement's
 * difference does not pass for noise.  A placement counts as slower than
 * the median over all only by what the noise within placements (two
 * standard errors of its median) does not explain: on a busy machine a
 * placement's few slices would otherwise cost a kernel at random. */
static void place_worst(struct run *r, size_t i)
{
	double med[MEASURE_PLACES], tmp[MAX_ROUNDS];
	int k[MEASURE_PLACES], n = r->m->rounds;

	for (int c = 0; c < r->ncells; c++) {
		place_medians(r, i, c, med, k);
		double s = within(r, i, c, med, k);
		double worst = timing_median(sample(r, i, c, 0), n, tmp);
		for (int p = 0; p < MEASURE_PLACES; p++)
			if (k[p] > 0)
				worst = fmin(worst,
					     med[p] * (1 + 2 * 1.2533 * s /
							       sqrt(k[p])));
		for (int j = 0; j < n; j++)
			*placed(r, i, c, j) = *sample(r, i, c, j) * worst /
					      med[r->place[j]];
	}
}

/* Medians and scores after m->rounds rounds, and m->best. */
static void rank(struct run *r)
{
	struct measurement *m = r->m;
	double tmp[MAX_ROUNDS];
	int n = m->rounds;
	size_t best = m->n;

	for (size_t j = 0; j < r->nok; j++) {
		size_t i = r->ok[j];
		struct kresult *kr = &m->kr[i];
		double *rs = &r->round_scores[i * MAX_ROUNDS];

		double all[MEASURE_MAX_CELLS];

		place_worst(r, i);
		for (int c = 0; c < r->ncells; c++) {
			kr->rate[c] = timing_median(placed(r, i, c, 0), n, tmp);
			all[c] = timing_median(sample(r, i, c, 0), n, tmp);
		}
		kr->score = score_of(r, kr->rate, 1);
		kr->placed = kr->score / score_of(r, all, 1);
		for (int k = 0; k < n; k++)
			rs[k] = score_of(r, placed(r, i, 0, k), MAX_ROUNDS);
		kr->spread = timing_spread(rs, n);
		kr->round_score = rs;
		if (best == m->n || kr->score > m->kr[best].score)
			best = i;
	}
	m->best = best;
}

/* Each kernel's median round score in each phase. */
static void phases(struct run *r)
{
	struct measurement *m = r->m;
	double v[MAX_ROUNDS], tmp[MAX_ROUNDS];

	for (size_t j = 0; j < r->nok; j++)
		for (int p = 0; p < MEASURE_PHASES; p++) {
			size_t i = r->ok[j];
			int n = 0;
			for (int k = 0; k < m->rounds; k++)
				if (r->phase[k] == p)
					v[n++] = r->round_scores[i * MAX_ROUNDS + k];
			m->kr[i].phase[p] = n ? timing_median(v, n, tmp) : 0;
		}
}

/* Position of K among the kernels of its kind. */
static size_t order_of(const struct rc4k_info *k)
{
	size_t i = 0;

	while (rc4k_nth(k->kind, i) != k)
		i++;
	return i;
}

/* Fill m->kr from NAMES (or the whole kind) and self-test each. */
static int collect(struct measurement *m, const char *const *names)
{
	size_t n = 0;

	while (names ? names[n] != NULL : rc4k_nth(m->kind, n) != NULL)
		n++;
	m->kr = calloc(n ? n : 1, sizeof *m->kr);
	if (m->kr == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rc4k_info *k = names ? rc4k_find(m->kind, names[i])
						  : rc4k_nth(m->kind, i);
		struct kresult *r = &m->kr[m->n++];
		r->k = k;
		r->order = order_of(k);
		if (rc4k_refused(k) == NULL)
			continue;
		if (!rc4k_usable(k)) {
			r->status = KERNEL_UNUSABLE;
		} else {
			r->status = KERNEL_FAILED;
			fprintf(stderr, "rc4tune: %s %s failed its self-test on "
					"this CPU; never chosen\n",
				rc4k_kinds[m->kind].what, k->name);
		}
	}
	return 0;
}

/* The buffers of R, and its list of kernels that passed. */
static int prepare(struct run *r)
{
	struct measurement *m = r->m;
	size_t nc = (size_t)r->ncells;

	r->samples = malloc(m->n * nc * MAX_ROUNDS * sizeof *r->samples);
	r->placed = malloc(m->n * nc * MAX_ROUNDS * sizeof *r->placed);
	/* the measurement's: decide.c weighs the noise from them */
	m->round_scores = r->round_scores =
		malloc(m->n * MAX_ROUNDS * sizeof *r->round_scores);
	r->reps = malloc(m->n * nc * sizeof *r->reps);
	r->ok = malloc(m->n * sizeof *r->ok);
	if (r->samples == NULL || r->placed == NULL ||
	    r->round_scores == NULL || r->reps == NULL || r->ok == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK)
			r->ok[r->nok++] = i;
	if (r->nok == 0) {
		fprintf(stderr, "rc4tune: no %s passed its self-test on this "
				"CPU\n",
			rc4k_kinds[m->kind].what);
		return -1;
	}
	return 0;
}

/* Past the deadline in the middle of a round: every slice from here on is
 * a sixteenth as long (a rate needs no more than one call), so that the
 * round ends soon however little CPU this process gets. */
static void hurry(struct run *r)
{
	size_t n = r->m->n * (size_t)r->ncells;

	r->m->hurried = true;
	for (size_t i = 0; i < n; i++)
		r->reps[i] = r->reps[i] > 16 ? r->reps[i] / 16 : 1;
}

/* One round: every cell, every kernel, from a rotating start, all in the
 * phase in which the round starts and at the round's placement. */
static void round_robin(struct run *r, double deadline)
{
	const struct bench *b = r->m->bench;
	int round = r->m->rounds;
	int phase = (int)(MEASURE_PHASES * (timing_now() - r->start) /
			  r->budget);
	struct trial tr = { .one = r->m->one, .place = round % MEASURE_PLACES,
			    .kind = r->m->kind };

	r->phase[round] = (unsigned char)(phase < MEASURE_PHASES - 1
						  ? phase
						  : MEASURE_PHASES - 1);
	r->place[round] = (unsigned char)tr.place;
	for (tr.cell = 0; tr.cell < r->ncells; tr.cell++)
		for (size_t j = 0; j < r->nok; j++) {
			int c = tr.cell;
			size_t i = r->ok[(j + (size_t)round) % r->nok];
			unsigned long n = r->reps[i * (size_t)r->ncells + (size_t)c];
			const struct cell *cell = &b->cells[c];
			double units = cell->bytes ? (double)cell->bytes
						   : (double)cell->keys;

			tr.k = r->m->kr[i].k;
			if (measure_seam != NULL) {
				*sample(r, i, c, round) = measure_seam(
					&tr, r->phase[round], r->m->slice);
				continue;
			}
			double t = b->run(&tr, n);
			*sample(r, i, c, round) =
				(double)n * units / (t > 0 ? t : 1e-9);
			if (!r->m->hurried && timing_now() > deadline)
				hurry(r);
		}
}

/* Slices of about m->slice: calibrated once a cell, on one kernel (the
 * others' slices are as many calls, a little longer or shorter), so that
 * a loaded machine pays for a handful of calibrations, not hundreds. */
static void calibrate(struct run *r)
{
	struct measurement *m = r->m;

	for (int c = 0; c < r->ncells; c++) {
		struct trial tr = { m->kr[r->ok[0]].k, m->one, c, 0, m->kind };
		unsigned long reps = measure_seam ? 1 : timing_calibrate(
			m->bench->run, &tr, m->slice);
		for (size_t j = 0; j < r->nok; j++)
			r->reps[r->ok[j] * (size_t)r->ncells + (size_t)c] = reps;
	}
}

/* Rounds until the deadline, spread over its phases: a round that would
 * end past the deadline is not started. */
static void rounds(struct run *r, double start, double deadline,
		   measure_progress *progress)
{
	struct measurement *m = r->m;
	struct timing_load mark;
	double budget = deadline - start, now = timing_now();

	r->start = start;
	r->budget = budget > 0 ? budget : 1e-9;
	double slice = (deadline - now) * SETTLE /
		       (TARGET_ROUNDS * r->ncells * (double)r->nok);

	timing_load_mark(&mark);
	m->slice = fmin(fmax(slice, MIN_SLICE), MAX_SLICE);
	calibrate(r);
	m->deadline_at = budget;
	for (double last = timing_now();;) {
		m->last_round_at = last - start;
		round_robin(r, deadline);
		m->rounds++;
		/* the seam's runs take no CPU to share */
		m->load = measure_seam ? 0 : timing_others_load(&mark);
		rank(r);
		now = timing_now();
		double round_time = now - last;
		last = now;
		if (progress)
			progress(m, now - start, budget);
		if (m->rounds == MAX_ROUNDS || now + round_time > deadline)
			break;
	}
	phases(r);
}

int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const struct rc4k *one,
		measure_progress *progress)
{
	double start = timing_now();
	uint64_t cstart = timing_cycles();
	struct run r = { .m = m };
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->bench = &measure_benches[kind];
	m->load = -1;
	m->workload = w;
	if (rc4k_kinds[kind].type == RC4K_BATCH)
		m->one = one;
	m->clock = "CLOCK_MONOTONIC";
	r.weight = m->bench->weight[w];
	r.ncells = m->bench->ncells;
	if (collect(m, names) == 0 && prepare(&r) == 0) {
		rounds(&r, start, deadline, progress);
		m->seconds = timing_now() - start;
		m->cycle_clock = timing_cycle_clock();
		if (m->cycle_clock)
			m->cycle_hz = (double)(timing_cycles() - cstart) /
				      m->seconds;
		rc = 0;
	}
	free(r.samples);
	free(r.placed);
	free(r.reps);
	free(r.ok);
	return rc;
}

int measure_fitting(const struct measurement *m, const struct rc4k *one,
		    struct measurement *out)
{
	*out = *m;
	out->round_scores = NULL; /* M's, which OUT's results point into */
	out->kr = malloc((m->n ? m->n : 1) * sizeof *m->kr);
	if (out->kr == NULL) {
		perror("rc4tune");
		return -1;
	}
	out->best = m->n;
	for (size_t i = 0; i < m->n; i++) {
		struct kresult *r = &out->kr[i];
		*r = m->kr[i];
		if (r->status == KERNEL_OK && rc4k_misfit(r->k, one) != NULL)
			r->status = KERNEL_MISFIT;
		if (r->status == KERNEL_OK &&
		    (out->best == m->n || r->score > out->kr[out->best].score))
			out->best = i;
	}
	if (out->best < m->n)
		return 0;
	fprintf(stderr, "rc4tune: no %s fits kernel %s\n",
		rc4k_kinds[m->kind].what, one->info.name);
	return -1;
}

void measure_free(struct measurement *m)
{
	free(m->kr);
	free(m->round_scores);
	m->kr = NULL;
	m->round_scores = NULL;
}
