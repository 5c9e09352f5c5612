/* timing.c - clock, calibration and medians shared by the tuners. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

double timing_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned long timing_calibrate(timing_run run, const void *k, int cell,
			       double slice)
{
	unsigned long reps = 1;
	double t;

	while ((t = run(k, cell, reps)) < slice / 4 && reps < (1ul << 28))
		reps *= 4;
	double r = (double)reps * slice / (t > 0 ? t : 1e-9);
	return r < 1 ? 1 : (unsigned long)r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double timing_median(const double *v, int n, double *tmp)
{
	memcpy(tmp, v, (size_t)n * sizeof *tmp);
	qsort(tmp, (size_t)n, sizeof *tmp, cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}
