/* timing.h - what both tuners (measure.c, batchtune.c) time with. */
#ifndef RC4_TIMING_H
#define RC4_TIMING_H

/* CLOCK_MONOTONIC, in seconds. */
double timing_now(void);

/* Seconds that REPS calls of kernel K take in CELL (the caller's meaning). */
typedef double (*timing_run)(const void *k, int cell, unsigned long reps);

/* Calls of K in CELL that take about SLICE seconds; doubles as warm-up. */
unsigned long timing_calibrate(timing_run run, const void *k, int cell,
			       double slice);

/* Median of V[0..n); sorts a copy in TMP. */
double timing_median(const double *v, int n, double *tmp);

#endif
