/* SPDX-License-Identifier: MIT */
/* benchutil.h - the sort of the store bound's rounds (tests/bench/storebound.c),
 * which times loops of its own, not kernels, with the tuner's clock
 * (tuner/timing.h). */
#ifndef RC4_BENCHUTIL_H
#define RC4_BENCHUTIL_H

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
