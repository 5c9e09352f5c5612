/* SPDX-License-Identifier: MIT */
/* timing.h - the clocks the tuner measures with, and what it computes
 * from their readings. */
#ifndef RC4_TIMING_H
#define RC4_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include "kernels/kernel.h"

/* CLOCK_MONOTONIC, in seconds; or the test seam's virtual clock. */
double timing_now(void);

/* Set only by the test seam (tests/seam.c), NULL in rc4tune. */
extern double (*timing_seam_now)(void);

/* A cycle counter that ticks at a constant rate, and what it is; NULL
 * when this CPU has none (then timing_cycles() is 0). */
const char *timing_cycle_clock(void);
uint64_t timing_cycles(void);

/* What a slice times (measure.h). */
struct trial;

/* Seconds that REPS calls of trial T take (the caller's meaning). */
typedef double (*timing_run)(const struct trial *t, unsigned long reps);

/* Calls of T that take about SLICE seconds; doubles as warm-up. */
unsigned long timing_calibrate(timing_run run, const struct trial *t,
			       double slice);

/* Median of V[0..n); sorts a copy in TMP. */
double timing_median(const double *v, int n, double *tmp);

/* Robust relative spread of V[0..n): the median absolute deviation,
 * scaled to a standard deviation, over the median.  The odd slice that
 * another process interrupted does not move it. */
double timing_spread(const double *v, int n);

/* Busy and total time of all CPUs (/proc/stat) and this process's CPU
 * time, to tell what the rest of the machine did meanwhile. */
struct timing_load {
	double busy, total, self;
	bool known;
};

void timing_load_mark(struct timing_load *l);

/* The share of all CPUs' time that other processes used since A, or -1
 * when unknown (no /proc/stat). */
double timing_others_load(const struct timing_load *a);

#endif
