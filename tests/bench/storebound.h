/* SPDX-License-Identifier: MIT */
/* storebound.h - the store bound (doc/cpus/README.md, "The store
 * bound"): RC4 stores twice a byte, S[x] and S[y], so this CPU's
 * sustained rate of stores of a state's cell width, in a loop that also
 * loads 3 cells to 2 stores, caps every RC4 loop of that width.  The rate
 * is the best of loop shapes in which no load can wait on a store
 * (storebound.c), so that it is the store rate and not the chance of a
 * conflict.  One copy for tests/bench/limits, tests/bench/bench and tests/bench/bench_batch,
 * so the benchmarks set each kernel against the bound in the same run. */
#ifndef RC4_STOREBOUND_H
#define RC4_STOREBOUND_H

#include <stddef.h>

/* The cell widths in bytes (char, int and long states), and their count. */
#define SB_NWIDTHS 3
extern const unsigned sb_widths[SB_NWIDTHS];

/* The lane counts measured (1, 2, 4, 8: the lane kernels'), by index. */
#define SB_NLANES 4
#define SB_LANES(l) (1u << (l))

/* Whether the x86 TSC ticks at a constant rate here (then it is the
 * clock), and the clock: TSC ticks, else nanoseconds. */
int sb_use_tsc(void);
double sb_ticks(int tsc);

/* The loop shapes (storebound.c): NAME, the cell width's index, the
 * lanes (tables stepped together), the loop and what readies its tables. */
struct sb_shape {
	const char *name;
	int width;
	unsigned lanes;
	void (*run)(void);
	void (*setup)(void);
};
#define SB_NSHAPES 24
extern const struct sb_shape sb_shapes[SB_NSHAPES];

/* Stores per tick of the clock TSC picks in each shape: the best of RUNS
 * runs of about a tenth of a millisecond, round-robin over the shapes so
 * that a change of clock or load meets them all alike (another process
 * only slows a run down), run R on the CPU of the timing core's round R
 * (speed_pin). */
void sb_rates(double rates[SB_NSHAPES], int runs, int tsc);

/* The store rate per lane count for cells of width index W, from RATES by
 * shape (sb_rates'): for L lanes, the best shape of at most L lanes
 * (lanes that do not raise the rate leave it as it is). */
void sb_lane_rates(int w, const double rates[SB_NSHAPES],
		   double out[SB_NLANES]);

/* A benchmark's store rates, measured among its rounds so they meet the
 * same load as the kernels: a figure per width and lane count a round,
 * on that round's CPU, then medians. */
#define SB_MAXROUNDS 64
struct sb_rounds {
	double rate[SB_NWIDTHS][SB_NLANES][SB_MAXROUNDS];
	double lanes_med[SB_NWIDTHS][SB_NLANES]; /* stores per tick */
	double med[SB_NWIDTHS];                  /* one lane's */
};
void sb_round(struct sb_rounds *b, int round, int tsc);
void sb_medians(struct sb_rounds *b, int rounds);

/* The bound in ticks per byte: 2 stores a byte at RATE stores a tick. */
static inline double sb_bound_cpb(double rate)
{
	return 2 / rate;
}

/* The index in sb_widths of the cell width a kernel NAME stores: its
 * family prefix ("char-", "int-", "long-"); -1 when the name has none. */
int sb_width_of(const char *name);

/* The index of the lane count a batch kernel NAME steps together, by its
 * name's "-Nlane" (LAYOUT-Nlane, as kernels/batch.h names them): N's
 * index, or 0 (one lane) for other names. */
int sb_lanes_of(const char *name);

/* The index in sb_widths of cells of BYTES bytes, or -1. */
int sb_width_index(size_t bytes);

#endif
