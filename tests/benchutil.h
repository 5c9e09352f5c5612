/* SPDX-License-Identifier: MIT */
/* benchutil.h - the clock and the sort the benchmarks share.  Kept apart
 * from the tuner's harness (tuner/timing.c) on purpose: the benchmarks
 * re-measure the tuner's pick independently. */
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
