/* SPDX-License-Identifier: MIT */
/* speed.h - the one timing core that the tuner and the benchmarks (make
 * bench, bench-batch, placement, and so make profile) time through, and
 * the one definition of a row's speed in a cell: the median over rounds
 * of its rate there, as at its worst placement, with the spread of its
 * rounds.
 *
 * A row is what is timed (a kernel, another library's RC4), a cell what
 * each call does (a message size, a batch call).  A round times every row
 * in every cell once: cell by cell, the rows from a start one further each
 * round, so that drift and the position in a round hit all rows alike;
 * and each round puts the keys at the next placement. */
#ifndef RC4_SPEED_H
#define RC4_SPEED_H

#include <stddef.h>
#include <stdint.h>
#include "rc4tune.h"

/* Rounds put the keys at this many places in turn: speed_keys' offsets
 * past a 4 KiB boundary, the same every run. */
#define SPEED_PLACES 6
#define SPEED_MAX_ROUNDS 255
#define SPEED_MAX_CELLS 6

/* Keys and buffers as a program has them, shared by every tool: an array
 * of SPEED_NKEYS rc4tune_key, starting at a placement; separate input and
 * output buffers for one stream (SPEED_BUF bytes, at other offsets in
 * their pages, which the placement moves too); and SPEED_NKEYS streams'
 * of SPEED_LANE bytes each. */
enum { SPEED_NKEYS = 64, SPEED_BUF = 8192, SPEED_LANE = 1024 };

/* The first of SPEED_NKEYS keys at PLACE (0 .. SPEED_PLACES - 1); another
 * library's key state may sit there instead. */
rc4tune_key *speed_keys(int place);
/* The single stream's input and output at PLACE. */
const uint8_t *speed_in(int place);
uint8_t *speed_out(int place);
/* Stream I's input and output (0 .. SPEED_NKEYS - 1). */
const uint8_t *speed_lane_in(size_t i);
uint8_t *speed_lane_out(size_t i);

/* Every sample of a run: rate[row][cell][round], in units a second. */
struct speed_table {
	size_t nrows;
	int ncells, rounds;
	double *rate;
	unsigned char place[SPEED_MAX_ROUNDS]; /* each round's placement */
};

/* ROW's rate in CELL over one slice, its keys at PLACE (units a second:
 * the caller's). */
typedef double speed_slice(void *ctx, size_t row, int cell, int place);

/* 0, or -1 with errno set (out of memory); speed_free afterwards. */
int speed_init(struct speed_table *t, size_t nrows, int ncells);
void speed_free(struct speed_table *t);

/* Round t->rounds over the N rows of ROWS (NULL: rows 0 .. N - 1), each
 * slice by F; returns -1, timing nothing, once SPEED_MAX_ROUNDS are in. */
int speed_round(struct speed_table *t, const size_t *rows, size_t n,
		speed_slice *f, void *ctx);

/* The sample of ROW in CELL in round ROUND. */
double *speed_sample(const struct speed_table *t, size_t row, int cell,
		     int round);

/* What the rounds say of a row in a cell. */
struct speed {
	double rate;   /* the median as at its worst placement: its speed */
	double all;    /* the median over every round, whatever placement */
	double spread; /* robust relative sd of a round about its
			* placement's median */
	double at[SPEED_PLACES]; /* the median at each placement (0: none) */
};

/* The speed of ROW in CELL after the rounds so far; V[0 .. t->rounds),
 * unless NULL, gets each round's sample as at the worst placement (the
 * sample times the worst placement's median over its own placement's),
 * so that a figure made of several cells' rounds sees the row where it
 * runs slowest too.  A placement counts as slower than the median over
 * all only by what the noise within placements (two standard errors of
 * its median) does not explain: on a busy machine a placement's few
 * slices would otherwise cost a row at random. */
void speed_of(const struct speed_table *t, size_t row, int cell,
	      struct speed *s, double *v);

/* What the rounds say of a row over its cells. */
struct speed_row {
	double rate[SPEED_MAX_CELLS]; /* speed_of's, per cell */
	double score;  /* the geometric mean of rate[], weighted */
	double placed; /* SCORE over that of the medians over every round:
			* what its worst placement costs it (1: nothing) */
	double spread; /* robust relative sd of a round's score */
};

/* The geometric mean of V[c * STRIDE] over T's cells, each weighted by
 * W[c] (0: left out; NULL: all alike): a row's score from its cells. */
double speed_geomean(const struct speed_table *t, const double *w,
		     const double *v, size_t stride);

/* ROW over the cells, each weighted by W[cell] (0: left out; NULL: all
 * alike); ROUNDS[0 .. t->rounds), unless NULL, gets each round's score as
 * at the row's worst placements. */
void speed_row(const struct speed_table *t, size_t row, const double *w,
	       struct speed_row *s, double *rounds);

/* Seconds that REPS calls of ROW in CELL take, its keys at PLACE. */
typedef double speed_run(void *ctx, size_t row, int cell, int place,
			 unsigned long reps);

/* Calls of ROW in CELL that take about SECS seconds by RUN (its keys at
 * the first placement); doubles as a warm-up.  1 on the seam. */
unsigned long speed_calibrate(speed_run *run, void *ctx, size_t row,
			      int cell, double secs);

/* A normal sample's standard deviation over its median absolute
 * deviation, and the standard error of a median over that of a mean
 * (sqrt(pi / 2)): the statistics' constants, named once. */
#define SPEED_SD_PER_MAD 1.4826
#define SPEED_MEDIAN_SE 1.2533

/* Two rows timed side by side, round by round: the ratios A[k] / B[k]
 * over the N rounds where both were timed (above 0), which cancel what
 * hit both rows in a round.  Their median into *MEDIAN (unless NULL), and
 * the lower bound of that median at one-sided LEVEL (0.95) by the sign
 * test; 0 when the rounds are too few for one.  The tuner's confidence
 * and bench --pick's comparison both ask it. */
double speed_ratio_bound(const double *a, const double *b, int n,
			 double level, double *median);

/* Median of V[0..n); sorts a copy in TMP. */
double speed_median(const double *v, int n, double *tmp);

/* Robust relative spread of V[0..n): the median absolute deviation,
 * scaled to a standard deviation, over the median.  The odd slice that
 * another process interrupted does not move it. */
double speed_spread(const double *v, int n);

/* The benchmarks' test seam (set by tests/helpers/seam.c, linked into the seam
 * builds only; NULL otherwise): the rate row NAME has at PLACE instead of
 * timing a slice.  The tuner's is measure_seam (measure.h); both read the
 * same RC4TUNE_SEAM_RATES. */
extern double (*speed_seam)(const char *name, int place);

#endif
