/* SPDX-License-Identifier: MIT */
/* timing.c - clocks, calibration, medians and the machine's load. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "kernels/cpufeat.h"
#include "timing.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

double (*timing_seam_now)(void);

double timing_now(void)
{
	struct timespec ts;

	if (timing_seam_now != NULL)
		return timing_seam_now();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The TSC counts at a constant rate only where CPUID says it is invariant;
 * otherwise cycles per byte would drift with the frequency. */
const char *timing_cycle_clock(void)
{
	return rc4k_have_invariant_tsc()
		       ? "x86 TSC (constant rate, not core cycles)"
		       : NULL;
}

uint64_t timing_cycles(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

unsigned long timing_calibrate(timing_run run, const struct trial *tr,
			       double slice)
{
	unsigned long reps = 1;
	double t;

	while ((t = run(tr, reps)) < slice / 4 && reps < (1ul << 28))
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

double timing_spread(const double *v, int n)
{
	if (n < 1)
		return 0;
	double dev[n], tmp[n], mid = timing_median(v, n, tmp);

	for (int k = 0; k < n; k++)
		dev[k] = fabs(v[k] - mid);
	return 1.4826 * timing_median(dev, n, tmp) / mid;
}

void timing_load_mark(struct timing_load *l)
{
	unsigned long long v[8] = { 0 }; /* user nice system idle iowait ... */
	double hz = (double)sysconf(_SC_CLK_TCK);
	struct timespec ts;
	FILE *f = fopen("/proc/stat", "re");
	int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7])
		  : 0;

	if (f)
		fclose(f);
	l->known = n >= 5 && hz > 0;
	l->total = 0;
	for (int i = 0; i < 8; i++)
		l->total += (double)v[i] / hz;
	l->busy = l->total - (double)(v[3] + v[4]) / hz;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	l->self = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double timing_others_load(const struct timing_load *a)
{
	struct timing_load b;

	timing_load_mark(&b);
	if (!a->known || !b.known || b.total <= a->total)
		return -1;
	double l = (b.busy - a->busy - (b.self - a->self)) /
		   (b.total - a->total);
	return l > 0 ? l : 0;
}
