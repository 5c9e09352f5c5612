/* SPDX-License-Identifier: MIT */
/* storebound.h - the store bound (doc/cpus/README.md, "The store
 * bound"): RC4 stores twice a byte, S[x] and S[y], so this CPU's
 * sustained rate of stores of a state's cell width, in a loop that also
 * loads from the memory it stores to, caps every RC4 loop of that width.
 * One copy for tests/limits, tests/bench and tests/bench_batch, so the
 * benchmarks set each kernel against the bound in the same run. */
#ifndef RC4_STOREBOUND_H
#define RC4_STOREBOUND_H

#include <stddef.h>

/* The cell widths in bytes (char, int and long states), and their count. */
#define SB_NWIDTHS 3
extern const unsigned sb_widths[SB_NWIDTHS];

/* Whether the x86 TSC ticks at a constant rate here (then it is the
 * clock), and the clock: TSC ticks, else nanoseconds. */
int sb_use_tsc(void);
double sb_ticks(int tsc);

/* Stores per tick of the clock TSC picks, with WIDTH-byte stores (1, 4 or
 * 8) in RC4's swap without the output: the best of a few runs of about a
 * millisecond each (another process only slows a run down). */
double sb_store_rate(unsigned width, int tsc);

/* A benchmark's store rates, measured among its rounds so they meet the
 * same load as the kernels: a figure per width a round, then medians. */
#define SB_MAXROUNDS 64
struct sb_rounds {
	double rate[SB_NWIDTHS][SB_MAXROUNDS];
	double med[SB_NWIDTHS]; /* stores per tick */
};
void sb_round(struct sb_rounds *b, int round, int tsc);
void sb_medians(struct sb_rounds *b, int rounds);

/* The bound in ticks per byte: 2 stores a byte at RATE stores a tick. */
static inline double sb_bound_cpb(double rate)
{
	return 2 / rate;
}

/* The index in sb_widths of the cell width a kernel NAME stores: its
 * family prefix ("char-", "int-", "long-"), which the names keep even
 * where the descriptor's width is 0 (a private layout, e.g. the ahead
 * kernels, whose inner loop stores bytes); -1 when the name has none. */
int sb_width_of(const char *name);

/* The index in sb_widths of cells of BYTES bytes, or -1. */
int sb_width_index(size_t bytes);

#endif
