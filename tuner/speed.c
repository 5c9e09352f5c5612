/* SPDX-License-Identifier: MIT */
/* speed.c - the timing core (speed.h). */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "speed.h"

/* A normal sample's standard deviation over its median absolute
 * deviation. */
#define SD_PER_MAD 1.4826

double (*speed_seam)(const char *name, int place);

/* Where the keys start in a page, by placement: a key's place changed
 * some kernels' speed by up to 25 % (doc/cpus/AuthenticAMD-25-1.md).
 * Multiples of 64, each in another 256-byte slot, three in each half. */
static const size_t place_at[SPEED_PLACES] = { 0, 704, 1408, 2112, 2816,
					       3520 };
static _Alignas(4096) uint8_t arena[4096 + SPEED_NKEYS * sizeof(rc4tune_key)];

/* The single stream's input and output offsets by placement, including
 * those that cost a kernel on some CPU (doc/cpus/AuthenticAMD-26-2.md,
 * "Where the key and the data sit"): a message at a page's first byte
 * (0), a 64-byte one ending at its last (1), offsets that OR to a page's
 * end (2); in the rest no message touches a page's edge. */
static const size_t in_at[SPEED_PLACES] = { 0, 2112, 1792, 2112, 2112,
					    2112 };
static const size_t out_at[SPEED_PLACES] = { 1088, 4032, 2880, 3200, 3200,
					     3200 };
static _Alignas(4096) uint8_t in_arena[4096 + SPEED_BUF],
	out_arena[4096 + SPEED_BUF];
static _Alignas(64) uint8_t lanes_in[SPEED_NKEYS][SPEED_LANE],
	lanes_out[SPEED_NKEYS][SPEED_LANE];

rc4tune_key *speed_keys(int place)
{
	return (rc4tune_key *)(void *)(arena + place_at[place]);
}

const uint8_t *speed_in(int place)
{
	return in_arena + in_at[place];
}

uint8_t *speed_out(int place)
{
	return out_arena + out_at[place];
}

const uint8_t *speed_lane_in(size_t i)
{
	return lanes_in[i];
}

uint8_t *speed_lane_out(size_t i)
{
	return lanes_out[i];
}

int speed_init(struct speed_table *t, size_t nrows, int ncells)
{
	memset(t, 0, sizeof *t);
	t->ncells = ncells;
	t->rate = calloc((nrows ? nrows : 1) * (size_t)ncells * SPEED_MAX_ROUNDS,
			 sizeof *t->rate);
	return t->rate ? 0 : -1;
}

void speed_free(struct speed_table *t)
{
	free(t->rate);
	t->rate = NULL;
}

double *speed_sample(const struct speed_table *t, size_t row, int cell,
		     int round)
{
	return &t->rate[(row * (size_t)t->ncells + (size_t)cell) *
				SPEED_MAX_ROUNDS +
			(size_t)round];
}

/* A byte of every cache line a round's slices touch (the kernels' own
 * states aside), read on a CPU new to them, so that the round's first
 * slice does not pay alone for fetching them from another CPU's caches. */
static void warm(void)
{
	static const struct {
		const uint8_t *p;
		size_t n;
	} areas[] = { { arena, sizeof arena }, { in_arena, sizeof in_arena },
		      { out_arena, sizeof out_arena },
		      { &lanes_in[0][0], sizeof lanes_in },
		      { &lanes_out[0][0], sizeof lanes_out } };
	volatile uint8_t sink = 0;

	for (size_t a = 0; a < sizeof areas / sizeof areas[0]; a++)
		for (size_t i = 0; i < areas[a].n; i += 64)
			sink ^= areas[a].p[i];
	(void)sink;
}

void speed_pin(struct speed_cpu *c, int round)
{
	cpu_set_t one;
	int n;

	c->moved = false;
	c->nth = 0;
	if (sched_getaffinity(0, sizeof c->was, &c->was) != 0 ||
	    (n = CPU_COUNT(&c->was)) < 2)
		return;
	/* each placement comes to each CPU in turn (rc4tune(1), WHAT A
	 * RESULT MUST HOLD) */
	c->nth = (round % SPEED_PLACES + round / SPEED_PLACES) % n;
	int nth = c->nth, cpu = 0;
	for (;; cpu++)
		if (CPU_ISSET(cpu, &c->was) && nth-- == 0)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	c->moved = sched_setaffinity(0, sizeof one, &one) == 0;
}

void speed_unpin(const struct speed_cpu *c)
{
	if (c->moved)
		sched_setaffinity(0, sizeof c->was, &c->was);
}

int speed_cpus(void)
{
	cpu_set_t s;

	return sched_getaffinity(0, sizeof s, &s) == 0 && CPU_COUNT(&s) > 0
		       ? CPU_COUNT(&s)
		       : 1;
}

int speed_whole_turns(int rounds, int most, int cpus)
{
	/* speed_pin's order: each run of CPUS turns of the placements
	 * takes each placement to each CPU once */
	int turn = SPEED_PLACES * (cpus > 1 ? cpus : 1);
	int whole = (rounds + turn - 1) / turn * turn;

	return rounds < SPEED_PLACES || whole > most ? rounds : whole;
}

int speed_round(struct speed_table *t, const size_t *rows, size_t n,
		speed_slice *f, void *ctx)
{
	int round = t->rounds, place = round % SPEED_PLACES;
	struct speed_cpu cpu;

	if (round == SPEED_MAX_ROUNDS)
		return -1;
	speed_pin(&cpu, round);
	if (cpu.moved)
		warm();
	t->place[round] = (unsigned char)place;
	t->cpu[round] = (unsigned char)cpu.nth;
	for (int c = 0; c < t->ncells; c++)
		for (size_t j = 0; j < n; j++) {
			size_t k = (j + (size_t)round) % n;
			size_t row = rows ? rows[k] : k;
			*speed_sample(t, row, c, round) = f(ctx, row, c, place);
		}
	speed_unpin(&cpu);
	t->rounds++;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double speed_median(const double *v, int n, double *tmp)
{
	memcpy(tmp, v, (size_t)n * sizeof *tmp);
	qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

/* The rank (from 1) of the smallest of N ratios that bounds their median
 * from below at LEVEL by the sign test: the largest J with P(X < J) <=
 * 1 - LEVEL for X ~ Binomial(N, 1/2); 0: N is too few. */
static int sign_rank(int n, double level)
{
	double p = ldexp(1, -n), below = 0; /* P(X = k), P(X <= k) */
	int j = 0;

	for (int k = 0; k < n; k++) {
		below += p;
		if (below > 1 - level)
			break;
		j = k + 1;
		p = p * (n - k) / (k + 1);
	}
	return j;
}

double speed_ratio_bound(const double *a, const double *b, int n,
			 double level, double *median)
{
	double ratio[n > 0 ? n : 1], tmp[n > 0 ? n : 1];
	int k = 0;

	for (int i = 0; i < n; i++)
		if (a[i] > 0 && b[i] > 0)
			ratio[k++] = a[i] / b[i];
	if (median != NULL)
		*median = k > 0 ? speed_median(ratio, k, tmp) : 0;
	int j = sign_rank(k, level);
	if (j == 0)
		return 0;
	qsort(ratio, (size_t)k, sizeof ratio[0], cmp_double);
	return ratio[j - 1];
}

double speed_spread(const double *v, int n)
{
	if (n < 1)
		return 0;
	double dev[n], tmp[n], mid = speed_median(v, n, tmp);

	for (int k = 0; k < n; k++)
		dev[k] = fabs(v[k] - mid);
	return SD_PER_MAD * speed_median(dev, n, tmp) / mid;
}

struct weighed {
	double v, w;
};

static int cmp_weighed(const void *a, const void *b)
{
	return cmp_double(&((const struct weighed *)a)->v,
			  &((const struct weighed *)b)->v);
}

/* The median of the N samples V taken on the CPUs CPU, each CPU's samples
 * weighing 1 in all: what a program meets that runs on any of them alike.
 * Where each CPU has as many, the plain median (speed_median). */
static double cpus_median(const double *v, const unsigned char *cpu, int n)
{
	struct weighed s[SPEED_MAX_ROUNDS];
	int count[UCHAR_MAX + 1] = { 0 }, cpus = 0;

	for (int i = 0; i < n; i++)
		cpus += count[cpu[i]]++ == 0;
	for (int i = 0; i < n; i++)
		s[i] = (struct weighed){ v[i], 1.0 / count[cpu[i]] };
	qsort(s, (size_t)n, sizeof *s, cmp_weighed);
	/* the first sample at which half the weight is in; on the half
	 * exactly, the mean of it and the next */
	double half = cpus / 2.0, in = 0, eps = 1e-9;
	int i = 0;
	while (i < n - 1 && (in += s[i].w) < half - eps)
		i++;
	return i < n - 1 && in < half + eps ? (s[i].v + s[i + 1].v) / 2
					     : s[i].v;
}

/* ROW's median in CELL at each placement into S->at; the counts in K. */
static void place_medians(const struct speed_table *t, size_t row, int cell,
			  struct speed *s, int k[SPEED_PLACES])
{
	double v[SPEED_MAX_ROUNDS];
	unsigned char cpu[SPEED_MAX_ROUNDS];

	for (int p = 0; p < SPEED_PLACES; p++) {
		k[p] = 0;
		for (int j = 0; j < t->rounds; j++)
			if (t->place[j] == p) {
				cpu[k[p]] = t->cpu[j];
				v[k[p]++] = *speed_sample(t, row, cell, j);
			}
		s->at[p] = k[p] ? cpus_median(v, cpu, k[p]) : 0;
	}
}

/* The noise within placements (those with two samples or more), apart
 * from any between them. */
static double within(const struct speed_table *t, size_t row, int cell,
		     const struct speed *s, const int *k)
{
	double dev[SPEED_MAX_ROUNDS], tmp[SPEED_MAX_ROUNDS];
	int n = 0;

	for (int j = 0; j < t->rounds; j++)
		if (k[t->place[j]] > 1)
			dev[n++] = fabs(*speed_sample(t, row, cell, j) /
						s->at[t->place[j]] -
					1);
	return n ? SD_PER_MAD * speed_median(dev, n, tmp) : 0;
}

void speed_of(const struct speed_table *t, size_t row, int cell,
	      struct speed *s, double *v)
{
	double placed[SPEED_MAX_ROUNDS];
	int k[SPEED_PLACES], n = t->rounds;

	memset(s, 0, sizeof *s);
	if (n == 0)
		return;
	place_medians(t, row, cell, s, k);
	s->spread = within(t, row, cell, s, k);
	s->all = cpus_median(speed_sample(t, row, cell, 0), t->cpu, n);
	double worst = s->all;
	for (int p = 0; p < SPEED_PLACES; p++)
		if (k[p] > 0)
			worst = fmin(worst, s->at[p] * (1 + 2 * SPEED_MEDIAN_SE *
							       s->spread /
							       sqrt(k[p])));
	for (int j = 0; j < n; j++)
		placed[j] = *speed_sample(t, row, cell, j) * worst /
			    s->at[t->place[j]];
	s->rate = cpus_median(placed, t->cpu, n);
	if (v != NULL)
		memcpy(v, placed, (size_t)n * sizeof *v);
}

double speed_geomean(const struct speed_table *t, const double *w,
		     const double *v, size_t stride)
{
	double lg = 0, sum = 0;

	for (int c = 0; c < t->ncells; c++) {
		double wc = w ? w[c] : 1;
		if (wc > 0) {
			lg += wc * log(v[(size_t)c * stride]);
			sum += wc;
		}
	}
	return exp(lg / sum);
}

void speed_row(const struct speed_table *t, size_t row, const double *w,
	       struct speed_row *s, double *rounds)
{
	double placed[SPEED_MAX_CELLS][SPEED_MAX_ROUNDS], all[SPEED_MAX_CELLS];
	double rs[SPEED_MAX_ROUNDS];
	struct speed sp;

	for (int c = 0; c < t->ncells; c++) {
		speed_of(t, row, c, &sp, placed[c]);
		s->rate[c] = sp.rate;
		all[c] = sp.all;
	}
	s->score = speed_geomean(t, w, s->rate, 1);
	s->placed = s->score / speed_geomean(t, w, all, 1);
	for (int k = 0; k < t->rounds; k++)
		rs[k] = speed_geomean(t, w, &placed[0][k], SPEED_MAX_ROUNDS);
	s->spread = speed_spread(rs, t->rounds);
	if (rounds != NULL)
		memcpy(rounds, rs, (size_t)t->rounds * sizeof *rounds);
}

unsigned long speed_calibrate(speed_run *run, void *ctx, size_t row,
			      int cell, double secs)
{
	unsigned long reps = 1;
	double t;

	if (speed_seam != NULL)
		return 1;
	while ((t = run(ctx, row, cell, 0, reps)) < secs / 4 &&
	       reps < (1ul << 28))
		reps *= 4;
	double r = (double)reps * secs / (t > 0 ? t : 1e-9);
	return r < 1 ? 1 : (unsigned long)r;
}
