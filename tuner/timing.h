/* SPDX-License-Identifier: MIT */
/* timing.h - the clock the tuner and the benchmarks time slices with,
 * and the machine's load meanwhile (speed.h makes figures of them). */
#ifndef RC4_TIMING_H
#define RC4_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC, in seconds. */
double timing_clock(void);

/* What slices are timed with: timing_clock, or the seam's. */
double timing_now(void);

/* The x86 time-stamp counter, 0 on other machines. */
uint64_t timing_tsc(void);

/* Set only by tests/helpers/seam.c. */
extern double (*timing_seam_now)(void);

/* All CPUs' busy and total time (/proc/stat) and this process's. */
struct timing_load {
	double busy, total, self;
	bool known;
};

void timing_load_mark(struct timing_load *l);

/* Other processes' share of all CPUs' time since A; -1: unknown. */
double timing_others_load(const struct timing_load *a);

#endif
