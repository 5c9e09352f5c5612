/* seam.c - linked into tests/rc4tune_seam only: the tuner on a virtual
 * clock with made-up rates (measure_seam, timing_seam_now), so that a test
 * can give a kernel its speed in each phase of a run, on any machine,
 * under valgrind or an emulator alike.
 *
 * RC4TUNE_SEAM_RATES="NAME=R1,R2,R3 ...": NAME's rate in phases 1, 2 and
 * 3 (any unit); every kernel not named runs at rate 1.  Unset: the real
 * clock and the real kernels, as rc4tune. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tuner/measure.h"
#include "tuner/timing.h"

#define SEAM_MAX 16
_Static_assert(MEASURE_PHASES == 3, "RC4TUNE_SEAM_RATES gives three rates");

static struct {
	char name[48];
	double rate[MEASURE_PHASES];
} seam[SEAM_MAX];
static int nseam;
static double vclock;

static double seam_now(void)
{
	return vclock;
}

static double seam_rate(const struct rc4k_info *k, int cell, int phase,
			double slice)
{
	(void)cell;
	vclock += slice;
	for (int i = 0; i < nseam; i++)
		if (strcmp(seam[i].name, k->name) == 0)
			return seam[i].rate[phase];
	return 1;
}

__attribute__((constructor)) static void seam_init(void)
{
	const char *s = getenv("RC4TUNE_SEAM_RATES");
	struct timespec ts;
	int used;

	if (s == NULL)
		return;
	while (nseam < SEAM_MAX &&
	       sscanf(s, " %47[^= ]=%lf,%lf,%lf%n", seam[nseam].name,
		      &seam[nseam].rate[0], &seam[nseam].rate[1],
		      &seam[nseam].rate[2], &used) == 4) {
		nseam++;
		s += used;
	}
	if (*s != '\0' && strspn(s, " ") != strlen(s)) {
		fprintf(stderr, "seam: cannot read RC4TUNE_SEAM_RATES at '%s'\n",
			s);
		exit(99);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	vclock = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
	timing_seam_now = seam_now;
	measure_seam = seam_rate;
}
