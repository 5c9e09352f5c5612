/* SPDX-License-Identifier: MIT */
/* speed.h - the one timing core the tuner and the benchmarks time
 * through, and the one definition of a row's speed in a cell.  A row is
 * what is timed (a kernel, another library's RC4), a cell what each call
 * does.  A round times every row in every cell once, from a start one
 * further each round, so that drift hits all rows alike; it runs on one
 * of the CPUs the process may run on, each placement on each in turn. */
#ifndef RC4_SPEED_H
#define RC4_SPEED_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rc4tune.h"

/* Rounds put the keys at this many places in turn: speed_keys' offsets
 * past a 4 KiB boundary, the same every run. */
#define SPEED_PLACES 6
#define SPEED_MAX_ROUNDS 255
#define SPEED_MAX_CELLS 6

/* Keys and buffers as a program has them: SPEED_NKEYS keys, one stream's
 * input and output (SPEED_BUF bytes), all moved by the placement; and
 * SPEED_NKEYS streams of SPEED_LANE bytes. */
enum { SPEED_NKEYS = 64, SPEED_BUF = 8192, SPEED_LANE = 1024 };

/* Another library's key state may sit at speed_keys instead. */
rc4tune_key *speed_keys(int place);
const uint8_t *speed_in(int place);
uint8_t *speed_out(int place);
const uint8_t *speed_lane_in(size_t i);
uint8_t *speed_lane_out(size_t i);

/* Every sample of a run: rate[row][cell][round], in units a second. */
struct speed_table {
	int ncells, rounds;
	double *rate;
	unsigned char place[SPEED_MAX_ROUNDS]; /* each round's placement */
	/* each round's CPU, the nth of the process's: under 48 (speed_pin) */
	unsigned char cpu[SPEED_MAX_ROUNDS];
};

/* ROW's rate in CELL over one slice, its keys at PLACE. */
typedef double speed_slice(void *ctx, size_t row, int cell, int place);

/* 0, or -1 with errno set (out of memory); speed_free afterwards. */
int speed_init(struct speed_table *t, size_t nrows, int ncells);
void speed_free(struct speed_table *t);

/* A round over the N rows of ROWS (NULL: 0 .. N - 1); -1, timing
 * nothing, once SPEED_MAX_ROUNDS are in. */
int speed_round(struct speed_table *t, const size_t *rows, size_t n,
		speed_slice *f, void *ctx);

double *speed_sample(const struct speed_table *t, size_t row, int cell,
		     int round);

/* speed_pin moves the process to the CPU that round ROUND of
 * speed_round runs on, and speed_unpin gives it its CPUs back, so that
 * figures taken beside the rounds (the benchmarks' bounds) see each CPU
 * as the rounds do.  A process allowed one CPU is not moved. */
struct speed_cpu {
	cpu_set_t was;
	bool moved;
	int nth; /* of the process's CPUs (0 if it has one) */
};
void speed_pin(struct speed_cpu *c, int round);
void speed_unpin(const struct speed_cpu *c);

/* The CPUs the rounds take in turn: the process's affinity (1 if
 * unknown). */
int speed_cpus(void);
/* The rounds a benchmark runs when asked for ROUNDS (at most MOST) on
 * CPUS CPUs: from a turn of the placements on, whole turns of every
 * placement on every CPU, so that a CPU in another state (its other
 * hardware thread busy) weighs on every placement alike; ROUNDS where
 * fewer, or where the next whole turn is past MOST. */
int speed_whole_turns(int rounds, int most, int cpus);

/* What the rounds say of a row in a cell. */
struct speed {
	double rate;   /* the median as at its worst placement: its speed */
	double all;    /* the median over every round, whatever placement */
	double spread; /* a round's about its placement's median */
	double at[SPEED_PLACES]; /* the median at each placement (0: none) */
};

/* ROW in CELL so far; V (unless NULL) gets each round's sample as at the
 * worst placement, so that a figure of several cells' rounds sees the row
 * at its slowest too.  In each median each CPU's rounds weigh alike, so
 * that a CPU in another state weighs on every placement alike however
 * few the rounds (in whole turns: the plain median).  A placement counts
 * as slower only by what two standard errors of its median do not
 * explain: on a busy machine its few slices would otherwise cost a row at
 * random. */
void speed_of(const struct speed_table *t, size_t row, int cell,
	      struct speed *s, double *v);

/* What the rounds say of a row over its cells. */
struct speed_row {
	double rate[SPEED_MAX_CELLS]; /* speed_of's, per cell */
	double score;  /* the geometric mean of rate[], weighted */
	double placed; /* what its worst placement costs SCORE (1: nothing) */
	double spread; /* a round's score's */
};

/* The geometric mean of V[c * STRIDE] over T's cells, weighted by W[c]
 * (NULL: all alike). */
double speed_geomean(const struct speed_table *t, const double *w,
		     const double *v, size_t stride);

/* ROW over the cells weighted by W; ROUNDS (unless NULL) gets each
 * round's score as at the row's worst placements. */
void speed_row(const struct speed_table *t, size_t row, const double *w,
	       struct speed_row *s, double *rounds);

/* Seconds that REPS calls of ROW in CELL take, its keys at PLACE. */
typedef double speed_run(void *ctx, size_t row, int cell, int place,
			 unsigned long reps);

/* Calls of ROW in CELL that take about SECS seconds; a warm-up too. */
unsigned long speed_calibrate(speed_run *run, void *ctx, size_t row,
			      int cell, double secs);

/* The standard error of a median over that of a mean (sqrt(pi / 2)). */
#define SPEED_MEDIAN_SE 1.2533

/* The ratios A[k] / B[k] over the N rounds where both were timed
 * cancel what hit both rows in a round: their median into *MEDIAN
 * (unless NULL), and its lower bound at one-sided LEVEL by the sign test
 * (0: too few rounds). */
double speed_ratio_bound(const double *a, const double *b, int n,
			 double level, double *median);

/* Median of V[0..n); sorts a copy in TMP. */
double speed_median(const double *v, int n, double *tmp);

/* The median absolute deviation of V[0..n) as a standard deviation,
 * over the median: the odd interrupted slice does not move it. */
double speed_spread(const double *v, int n);

/* The benchmarks' test seam (tests/helpers/seam.c; NULL otherwise): row
 * NAME's rate at PLACE instead of a timed slice. */
extern double (*speed_seam)(const char *name, int place);

#endif
