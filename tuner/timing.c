/* SPDX-License-Identifier: MIT */
/* timing.c - the clock and the machine's load. */
#include <config.h>

#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "timing.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

double (*timing_seam_now)(void);

double timing_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double timing_now(void)
{
	return timing_seam_now != NULL ? timing_seam_now() : timing_clock();
}

uint64_t timing_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __rdtsc();
#else
	return 0;
#endif
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
