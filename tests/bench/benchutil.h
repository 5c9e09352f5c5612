/* SPDX-License-Identifier: MIT */
/* benchutil.h - the clock and the sort of the bound loops (tests/bench/limits.c,
 * tests/bench/storebound.c), which time loops of their own, not kernels: the
 * kernels' benchmarks time through the tuner's core (tuner/speed.h). */
#ifndef RC4_BENCHUTIL_H
#define RC4_BENCHUTIL_H

#include <time.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
