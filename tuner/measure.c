/* SPDX-License-Identifier: MIT */
/* measure.c - time the kernels of one kind (measure.h) through the
 * timing core (speed.h), as the benchmarks do; here the budget, its
 * phases, the race and the self-tests.  A slice is a calibrated number of
 * calls, so that no clock read sits inside the loop. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/cpufeat.h"
#include "kernels/family.h"
#include "measure.h"
#include "speed.h"
#include "timing.h"

enum { TARGET_ROUNDS = 15 }; /* rounds the slice length is sized for */
enum { FINAL_ROUNDS = 30 };  /* ... and the final's, for its finalists */
/* A final with time for fewer rounds than this is not run: its figures
 * alone would be too few medians to decide on (decide.c's least). */
enum { FINAL_LEAST = 5 };
/* A kernel this far below the leader in every round of the first pass
 * leaves the race: beyond the tie window, and the most a later step may
 * give up for another kernel (decide.c's family cost), so no kernel that
 * could be chosen is dropped. */
static const double RACE_CUT = 0.05;
static const double SETTLE = 0.5; /* of the budget, for TARGET_ROUNDS */
static const double MIN_SLICE = 50e-6, MAX_SLICE = 5e-3;

/* The measuring state. */
struct run {
	struct measurement *m;
	const double *weight;
	int ncells;
	struct speed_table t;
	unsigned char phase[SPEED_MAX_ROUNDS]; /* each round's phase */
	double start, budget; /* the phases divide [start, start + budget) */
	double deadline;
	unsigned long *reps;  /* [kernel][cell] */
	size_t *ok, nok;      /* passed the self-test; later the finalists */
	int cur;              /* the phase of the round under way */
	/* After the first pass: its table, to which a round over every
	 * kernel (ALL) at each later phase's start keeps the dropped
	 * kernels' phases known. */
	bool raced, in_first;  /* IN_FIRST: such a round is under way */
	double first_slice;    /* the first pass's slice length */
	struct speed_table first;
	unsigned char first_phase[SPEED_MAX_ROUNDS];
	size_t *all, nall;
};

double (*measure_seam)(const struct trial *t, int phase, double slice);

/* Kernel I's figures from table T, whose rounds' phases are PHASE. */
static void figures(struct run *r, const struct speed_table *t,
		    const unsigned char *phase, size_t i)
{
	struct kresult *kr = &r->m->kr[i];
	double *rs = &r->m->round_scores[i * SPEED_MAX_ROUNDS];
	double v[SPEED_MAX_ROUNDS], tmp[SPEED_MAX_ROUNDS];
	struct speed_row s;

	speed_row(t, i, r->weight, &s, rs);
	memcpy(kr->rate, s.rate, sizeof kr->rate);
	kr->score = s.score;
	kr->placed = s.placed;
	kr->spread = s.spread;
	kr->round_score = rs;
	kr->rounds = t->rounds;
	for (int p = 0; p < MEASURE_PHASES; p++) {
		int n = 0;
		for (int k = 0; k < t->rounds; k++)
			if (phase[k] == p)
				v[n++] = rs[k];
		kr->phase[p] = n ? speed_median(v, n, tmp) : 0;
	}
}

/* The figures of the kernels in the race so far, and m->best. */
static void rank(struct run *r)
{
	struct measurement *m = r->m;
	size_t best = m->n;

	for (size_t j = 0; j < r->nok; j++) {
		size_t i = r->ok[j];
		figures(r, &r->t, r->phase, i);
		if (best == m->n || m->kr[i].score > m->kr[best].score)
			best = i;
	}
	m->best = best;
}

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
		r->status = rc4k_usable(k) ? KERNEL_FAILED : KERNEL_UNUSABLE;
		if (r->status == KERNEL_FAILED)
			fprintf(stderr, "rc4tune: %s %s failed its self-test on "
					"this CPU; never chosen\n",
				rc4k_kinds[m->kind].what, k->name);
	}
	return 0;
}

/* R's buffers, and its kernels that passed. */
static int prepare(struct run *r)
{
	struct measurement *m = r->m;
	size_t nc = (size_t)r->ncells;

	/* [kernel][round]: the measurement's, which decide.c weighs */
	m->round_scores =
		malloc(m->n * SPEED_MAX_ROUNDS * sizeof *m->round_scores);
	r->reps = malloc(m->n * nc * sizeof *r->reps);
	r->ok = malloc(m->n * sizeof *r->ok);
	r->all = malloc(m->n * sizeof *r->all);
	if (speed_init(&r->t, m->n, r->ncells) != 0 ||
	    m->round_scores == NULL || r->reps == NULL || r->ok == NULL ||
	    r->all == NULL) {
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

/* Past the deadline mid-round, slices a sixteenth as long (a rate needs
 * one call) end the round soon however little CPU we get. */
static void hurry(struct run *r)
{
	size_t n = r->m->n * (size_t)r->ncells;

	r->m->hurried = true;
	for (size_t i = 0; i < n; i++)
		r->reps[i] = r->reps[i] > 16 ? r->reps[i] / 16 : 1;
}

/* The core's speed_run. */
static double run_kernel(void *ctx, size_t i, int c, int place,
			 unsigned long reps)
{
	const struct run *r = ctx;
	const struct measurement *m = r->m;
	struct trial tr = { m->kr[i].k, m->single, c, place, m->kind };

	return m->bench->run(&tr, reps);
}

/* The core's speed_slice: timed, or the seam's. */
static double slice(void *ctx, size_t i, int c, int place)
{
	struct run *r = ctx;
	struct measurement *m = r->m;
	const struct cell *cell = &m->bench->cells[c];
	unsigned long n = r->reps[i * (size_t)r->ncells + (size_t)c];
	double units = cell->bytes ? (double)cell->bytes : (double)cell->keys;
	struct trial tr = { m->kr[i].k, m->single, c, place, m->kind };

	if (measure_seam != NULL)
		return measure_seam(&tr, r->cur,
				    r->in_first ? r->first_slice : m->slice);
	double t = m->bench->run(&tr, n);
	if (!m->hurried && timing_now() > r->deadline)
		hurry(r);
	return (double)n * units / (t > 0 ? t : 1e-9);
}

static int phase_now(const struct run *r)
{
	int phase = (int)(MEASURE_PHASES * (timing_now() - r->start) /
			  r->budget);

	return phase < MEASURE_PHASES - 1 ? phase : MEASURE_PHASES - 1;
}

/* A round over the kernels in the race, in the phase it starts in;
 * after the first pass, one over every kernel first where a phase
 * begins. */
static void round_robin(struct run *r)
{
	r->cur = phase_now(r);
	if (r->raced && r->first.rounds < SPEED_MAX_ROUNDS &&
	    r->first_phase[r->first.rounds - 1] != r->cur) {
		r->first_phase[r->first.rounds] = (unsigned char)r->cur;
		r->in_first = true;
		speed_round(&r->first, r->all, r->nall, slice, r);
		r->in_first = false;
	}
	r->phase[r->t.rounds] = (unsigned char)r->cur;
	speed_round(&r->t, r->ok, r->nok, slice, r);
	r->m->rounds = r->t.rounds;
}

/* Calibrated once a cell, on one kernel, so that a loaded machine pays
 * for a handful of calibrations, not hundreds. */
static void calibrate(struct run *r)
{
	struct measurement *m = r->m;

	for (int c = 0; c < r->ncells; c++) {
		unsigned long reps = measure_seam ? 1 : speed_calibrate(
			run_kernel, r, r->ok[0], c, m->slice);
		for (size_t j = 0; j < r->nok; j++)
			r->reps[r->ok[j] * (size_t)r->ncells + (size_t)c] = reps;
	}
}

/* Slices that fit ROUNDS rounds in SETTLE of the time left, at least
 * SHORTEST long. */
static void size_slices(struct run *r, double rounds, double shortest)
{
	double slice = (r->deadline - timing_now()) * SETTLE /
		       (rounds * r->ncells * (double)r->nok);

	r->m->slice = fmin(fmax(slice, fmax(shortest, MIN_SLICE)), MAX_SLICE);
	calibrate(r);
}

/* Kernel I's round K of R, scored over the cells as a row is. */
static double round_score(const struct run *r, size_t i, int k)
{
	double v[SPEED_MAX_CELLS];

	for (int c = 0; c < r->ncells; c++)
		v[c] = *speed_sample(&r->t, i, c, k);
	return speed_geomean(&r->t, r->weight, v, 1);
}

/* Whether I is more than RACE_CUT below L in every round.  A round is
 * one placement on one CPU, every kernel side by side, so its ratio
 * cancels what hit both, and a kernel within the cut at any placement
 * stays; scored over the cells, a kernel ahead in one cell leaves only
 * when that cannot make up for the others. */
static bool clearly_behind(const struct run *r, size_t i, size_t l)
{
	double best = 0;

	for (int k = 0; k < r->t.rounds; k++)
		best = fmax(best, round_score(r, i, k) / round_score(r, l, k));
	return best < 1 - RACE_CUT;
}

/* Whether batch kernel J fits every layout I fits, so that dropping I
 * for J loses no kernel that fits the one chosen. */
static bool covers(const struct rc4k_info *j, const struct rc4k_info *i)
{
	const struct rc4k_info *s;

	for (size_t n = 0; (s = rc4k_nth(RC4K_SINGLE, n)) != NULL; n++)
		if (rc4k_misfit_reason(i, rc4k_single(s)) == NULL &&
		    rc4k_misfit_reason(j, rc4k_single(s)) != NULL)
			return false;
	return true;
}

/* Whether I is clearly behind the leader, or one that covers it. */
static bool dropped(const struct run *r, size_t i)
{
	const struct measurement *m = r->m;

	if (m->kind == RC4K_SINGLE)
		return clearly_behind(r, i, m->best);
	for (size_t j = 0; j < r->nall; j++)
		if (r->all[j] != i && covers(m->kr[r->all[j]].k, m->kr[i].k) &&
		    clearly_behind(r, i, r->all[j]))
			return true;
	return false;
}

/* After the first pass, whose rounds took ROUND_TIME each: the dropped
 * keep its figures; the finalists are timed on in a new table, unless
 * none is dropped or there is no time left for FINAL_LEAST of their
 * rounds and one more (a round is started only when one as long would
 * end in time; each as long as the first pass's, for their share of the
 * kernels), with a round over every kernel where each later phase
 * begins: then the first pass goes on.  0, or -1 (out of memory). */
static int final(struct run *r, double round_time)
{
	struct measurement *m = r->m;
	size_t n = 0;

	memcpy(r->all, r->ok, r->nok * sizeof *r->ok);
	r->nall = r->nok;
	for (size_t j = 0; j < r->nall; j++)
		if (!dropped(r, r->all[j]))
			r->ok[n++] = r->all[j];
	double need = round_time *
		      ((FINAL_LEAST + 1) * (double)n / (double)r->nall +
		       (MEASURE_PHASES - 1 - phase_now(r)));
	if (n == r->nall || r->deadline - timing_now() < need) {
		memcpy(r->ok, r->all, r->nall * sizeof *r->ok);
		return 0;
	}
	r->nok = n;
	r->raced = true;
	r->first_slice = m->slice;
	r->first = r->t;
	memcpy(r->first_phase, r->phase, sizeof r->phase);
	if (speed_init(&r->t, m->n, r->ncells) != 0) {
		perror("rc4tune");
		return -1;
	}
	m->rounds = 0;
	/* many finalists: as many rounds as there would have been, not
	 * shorter, noisier slices */
	size_slices(r, FINAL_ROUNDS, r->first_slice);
	return 0;
}

/* Rounds until the deadline (none started that would end past it), the
 * race's final after the first pass.  0, or -1 (out of memory). */
static int rounds(struct run *r, double start, double deadline,
		  measure_progress *progress)
{
	struct measurement *m = r->m;
	struct timing_load mark;
	double budget = deadline - start;
	bool race = true;

	r->start = start;
	r->budget = budget > 0 ? budget : 1e-9;
	timing_load_mark(&mark);
	r->deadline = deadline;
	size_slices(r, TARGET_ROUNDS, 0);
	m->deadline_at = budget;
	for (double last = timing_now();;) {
		m->last_round_at = last - start;
		round_robin(r);
		/* the seam's runs take no CPU to share */
		m->load = measure_seam ? 0 : timing_others_load(&mark);
		rank(r);
		double now = timing_now(), round_time = now - last;
		last = now;
		if (progress)
			progress(m, now - start, budget);
		if (m->rounds == SPEED_MAX_ROUNDS || now + round_time > deadline)
			break;
		if (race && m->rounds == SPEED_PLACES) {
			race = false;
			if (final(r, (now - start) / m->rounds) != 0)
				return -1;
		}
	}
	m->finalists = r->nok;
	for (size_t j = 0; j < r->nok; j++)
		m->kr[r->ok[j]].finalist = true;
	m->first_pass = r->raced ? r->first.rounds : 0;
	for (size_t j = 0; r->raced && j < r->nall; j++)
		if (!m->kr[r->all[j]].finalist)
			figures(r, &r->first, r->first_phase, r->all[j]);
	return 0;
}

int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const struct rc4k *single, measure_progress *progress)
{
	double start = timing_now();
	uint64_t cstart = timing_tsc();
	struct run r = { .m = m };
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->kind = kind;
	m->bench = &measure_benches[kind];
	m->load = -1;
	m->workload = w;
	if (rc4k_kinds[kind].type == RC4K_BATCH)
		m->single = single;
	m->clock = "CLOCK_MONOTONIC";
	r.weight = m->bench->weight[w];
	r.ncells = m->bench->ncells;
	if (collect(m, names) == 0 && prepare(&r) == 0 &&
	    rounds(&r, start, deadline, progress) == 0) {
		m->seconds = timing_now() - start;
		/* the TSC only where invariant: else cycles per byte would
		 * drift with the frequency; none behind the seam's scripted
		 * rates, whose output is then the same from run to run */
		m->cycle_clock = rc4k_have_invariant_tsc() && !measure_seam
			? "x86 TSC (constant rate, not core cycles)" : NULL;
		if (m->cycle_clock)
			m->cycle_hz = (double)(timing_tsc() - cstart) /
				      m->seconds;
		rc = 0;
	}
	speed_free(&r.t);
	if (r.raced)
		speed_free(&r.first);
	free(r.all);
	free(r.reps);
	free(r.ok);
	return rc;
}

void measure_free(struct measurement *m)
{
	free(m->kr);
	free(m->round_scores);
	m->kr = NULL;
	m->round_scores = NULL;
}
