/* SPDX-License-Identifier: MIT */
/* measure.c - time the kernels of one kind on this CPU and pick the
 * fastest, the same way twice.
 *
 * A slice is a fixed number of calls (calibrated once to last about
 * m->slice), so no clock read sits inside the loop.  Rounds go over every
 * cell and within a cell over every kernel, starting one kernel further
 * each round, so that drift and the position in a round hit all kernels
 * alike; each round puts the keys' states at the next placement.  Medians
 * over rounds, at each kernel's worst placement, give the table; the
 * spread of the per-round scores gives the noise that decides when to stop
 * and what counts as a tie. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure.h"
#include "select.h"
#include "timing.h"

enum {
	MIN_ROUNDS = 5,     /* fewer medians are not worth a decision */
	MAX_ROUNDS = 255,
	TARGET_ROUNDS = 15, /* rounds the slice length is sized for */
};
static const double SETTLE = 0.5;      /* share of the budget the rounds
					* slices are sized for take */
static const double TIE_FLOOR = 0.02;  /* closer than 2 %: always a tie */
static const double TIE_CAP = 0.03;    /* a tie never costs more than 3 % */
static const double MIN_SLICE = 50e-6, MAX_SLICE = 5e-3;
/* Other processes using this share of all CPUs compete for cores, caches
 * and memory, and not evenly across kernels, in a way the spread of
 * slices need not show: no early stop, and the result is uncertain. */
static const double BUSY = 0.25;

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

/* Robust relative spread of V[0..n): the median absolute deviation,
 * scaled to a standard deviation, over the median.  The odd slice that
 * another process interrupted does not move it. */
static double spread(const double *v, int n)
{
	double dev[MAX_ROUNDS], tmp[MAX_ROUNDS], mid = timing_median(v, n, tmp);

	for (int k = 0; k < n; k++)
		dev[k] = fabs(v[k] - mid);
	return 1.4826 * timing_median(dev, n, tmp) / mid;
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

/* Medians and scores after m->rounds rounds; sets m->best and returns the
 * second best (m->n if none). */
static size_t rank(struct run *r)
{
	struct measurement *m = r->m;
	double tmp[MAX_ROUNDS];
	int n = m->rounds;
	size_t best = m->n, second = m->n;

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
		kr->spread = spread(rs, n);
		if (best == m->n || kr->score > m->kr[best].score) {
			second = best;
			best = i;
		} else if (second == m->n || kr->score > m->kr[second].score) {
			second = i;
		}
	}
	m->best = best;
	return second;
}

/* Whether the pick may be wrong, and why: too few rounds for medians, a
 * busy machine, or noise that could have swapped best and second. */
static void doubt(struct measurement *m)
{
	m->why[0] = '\0';
	m->why_code = NULL;
	if (m->rounds < MIN_ROUNDS) {
		m->why_code = "rounds";
		snprintf(m->why, sizeof m->why, "only %d round%s fit in the "
						"budget",
			 m->rounds, m->rounds == 1 ? "" : "s");
	} else if (m->load >= BUSY) {
		m->why_code = "busy";
		snprintf(m->why, sizeof m->why, "other processes used %.0f %% "
						"of the CPUs",
			 m->load * 100);
	} else if (m->noise > TIE_CAP && m->gap < m->noise) {
		m->why_code = "noise";
		snprintf(m->why, sizeof m->why, "the noise, %.1f %%, was larger "
						"than the gap between the best "
						"two",
			 m->noise * 100);
	}
	m->uncertain = m->why_code != NULL;
}

/* Best and second were timed side by side in each round, so the ratio of
 * their round scores cancels what hit both (frequency, a neighbour's
 * load).  The standard error of its median is about 1.25 sd / sqrt(n);
 * twice that is the noise.  It matters only when it could have swapped
 * best and second. */
static void judge(struct run *r, size_t second)
{
	struct measurement *m = r->m;
	double tmp[MAX_ROUNDS];
	int n = m->rounds;

	m->noise = 0;
	m->gap = 1;
	if (second != m->n) {
		for (int k = 0; k < n; k++)
			tmp[k] = r->round_scores[m->best * MAX_ROUNDS + k] /
				 r->round_scores[second * MAX_ROUNDS + k];
		m->noise = 2 * 1.2533 * spread(tmp, n) / sqrt(n);
		m->gap = 1 - m->kr[second].score / m->kr[m->best].score;
	}
	m->window = fmin(fmax(m->noise, TIE_FLOOR), TIE_CAP);
	doubt(m);
}

/* How early R's name stands in PREFER[0..N) (NULL members name nothing):
 * its index, or N. */
static size_t rank_in(const struct kresult *r, const char *const *prefer,
		      size_t n)
{
	size_t i = 0;

	for (; i < n; i++)
		if (prefer[i] && strcmp(r->k->name, prefer[i]) == 0)
			break;
	return i;
}

/* Among the kernels within the window of the best SCORE: the first that
 * PREFER names, else the earliest in the registry (simplest loops
 * first). */
struct measure_pick measure_pick(const struct measurement *m,
				 const double *score,
				 const char *const *prefer,
				 const char *const *rules, size_t nprefer)
{
	struct measure_pick pk = { m->n, 0, NULL };
	size_t best = m->n;

	for (size_t i = 0; i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK &&
		    (best == m->n || score[i] > score[best]))
			best = i;
	double cut = score[best] * (1 - m->window);
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];
		if (r->status != KERNEL_OK || score[i] < cut)
			continue;
		pk.ntied++;
		size_t a = rank_in(r, prefer, nprefer);
		size_t b = pk.winner == m->n
				   ? a + 1
				   : rank_in(&m->kr[pk.winner], prefer, nprefer);
		if (a < b || (a == b && r->order < m->kr[pk.winner].order))
			pk.winner = i;
	}
	if (pk.ntied > 1) {
		size_t a = rank_in(&m->kr[pk.winner], prefer, nprefer);
		pk.tie_rule = a < nprefer ? rules[a]
					  : "the earliest in registry order";
	}
	return pk;
}

/* The winner by this run's scores; a tie goes to the heuristic's kernel. */
static void pick(struct measurement *m, const char *prefer)
{
	static const char *const rules[] = { "the heuristic's choice" };
	double score[m->n];

	for (size_t i = 0; i < m->n; i++)
		score[i] = m->kr[i].score;
	struct measure_pick pk = measure_pick(m, score, &prefer, rules, 1);
	m->winner = pk.winner;
	m->ntied = pk.ntied;
	m->tie_rule = pk.tie_rule;
	for (size_t i = 0; i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK)
			m->kr[i].ratio = m->kr[i].score / m->kr[pk.winner].score;
}

bool measure_leads(const struct measurement *m, size_t a, size_t b)
{
	for (int p = 0; p < MEASURE_PHASES; p++)
		if (m->kr[a].phase[p] > 0 &&
		    m->kr[a].phase[p] <= m->kr[b].phase[p])
			return false;
	return true;
}

/* Each kernel's median round score in each phase.  Then, where the result
 * is not doubted already: a kernel that led the winner in a phase by more
 * than the tie window means the ranking changed during the run (a state
 * of the host that began or ended), so the pick may hold only for part of
 * the time. */
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
	if (m->uncertain)
		return;
	const struct kresult *w = &m->kr[m->winner];
	for (int p = 0; p < MEASURE_PHASES; p++)
		for (size_t j = 0; j < r->nok; j++) {
			const struct kresult *o = &m->kr[r->ok[j]];
			if (w->phase[p] == 0 ||
			    o->phase[p] <= w->phase[p] * (1 + m->window))
				continue;
			m->uncertain = true;
			m->why_code = "phases";
			snprintf(m->why, sizeof m->why, "the ranking changed: "
					 "%.32s led in phase %d of %d by "
					 "%.1f %%",
				 o->k->name, p + 1, MEASURE_PHASES,
				 (o->phase[p] / w->phase[p] - 1) * 100);
			return;
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
	r->round_scores = malloc(m->n * MAX_ROUNDS * sizeof *r->round_scores);
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
	struct trial tr = { .one = r->m->one, .place = round % MEASURE_PLACES };

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
		struct trial tr = { m->kr[r->ok[0]].k, m->one, c, 0 };
		unsigned long reps = measure_seam ? 1 : timing_calibrate(
			m->bench->run, &tr, m->slice);
		for (size_t j = 0; j < r->nok; j++)
			r->reps[r->ok[j] * (size_t)r->ncells + (size_t)c] = reps;
	}
}

/* Rounds until the deadline, spread over its phases: a round that would
 * end past the deadline is not started. */
static void rounds(struct run *r, double start, double deadline,
		   const char *prefer, measure_progress *progress)
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
		judge(r, rank(r));
		pick(m, prefer);
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

const struct rc4k *measure_single_winner(const struct measurement *m)
{
	return m ? rc4k_single(m->kr[m->winner].k) : NULL;
}

int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const char *prefer, const struct rc4k *one,
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
	if (kind == RC4K_BATCH)
		m->one = one ? one : rc4k_single(rc4_current(RC4K_SINGLE));
	m->clock = "CLOCK_MONOTONIC";
	r.weight = m->bench->weight[w];
	r.ncells = m->bench->ncells;
	if (collect(m, names) == 0 && prepare(&r) == 0) {
		rounds(&r, start, deadline, prefer, progress);
		m->seconds = timing_now() - start;
		m->cycle_clock = timing_cycle_clock();
		if (m->cycle_clock)
			m->cycle_hz = (double)(timing_cycles() - cstart) /
				      m->seconds;
		rc = 0;
	}
	free(r.samples);
	free(r.placed);
	free(r.round_scores);
	free(r.reps);
	free(r.ok);
	return rc;
}

void measure_free(struct measurement *m)
{
	free(m->kr);
	m->kr = NULL;
}
