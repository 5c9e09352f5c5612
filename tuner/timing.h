/* SPDX-License-Identifier: MIT */
/* timing.h - the clock the tuner and the benchmarks time slices with,
 * and the machine's load meanwhile (speed.h makes figures of them). */
#ifndef RC4_TIMING_H
#define RC4_TIMING_H

#include <stdbool.h>
#include <stdint.h>

/* CLOCK_MONOTONIC, in seconds. */
double timing_clock(void);

/* timing_clock, or the test seam's virtual clock: what slices are timed
 * with. */
double timing_now(void);

/* The x86 time-stamp counter, 0 on other machines. */
uint64_t timing_tsc(void);

/* Set only by the test seam (tests/helpers/seam.c), NULL in rc4tune. */
extern double (*timing_seam_now)(void);

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
