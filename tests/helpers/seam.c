/* SPDX-License-Identifier: MIT */
/* seam.c - linked into tests/helpers/rc4tune_seam only: the tuner on a virtual
 * clock with made-up rates (measure_seam, timing_seam_now), so that a test
 * can give a kernel its speed in each phase of a run, on any machine,
 * under valgrind or an emulator alike.
 *
 * RC4TUNE_SEAM_RATES="NAME=R1,R2,R3 ...": NAME's rate in phases 1, 2 and
 * 3 (any unit); "NAME@P=R1,R2,R3" its rates at placement P alone (0 ..
 * SPEED_PLACES - 1), over NAME='s; "NAME/CALL=R1,R2,R3" a batch
 * kernel's rates for one call (set_keys or crypt_many) alone, over
 * NAME='s (not combined with @P); "NAME:BYTES=R1,R2,R3" a single-stream
 * kernel's rates in the cell of BYTES-byte calls alone (16 .. 8192), over
 * NAME='s (not combined with @P or /CALL).  Every kernel not named runs at rate
 * 1, but serial, which runs at the rates of the single-stream kernel it
 * runs (the single kind's winner) in the cell of its work (bench's
 * serial_cell: NAME:1024's for crypt_many).  Unset: the real clock and the real
 * kernels, as rc4tune.
 *
 * RC4TUNE_SEAM_NOISE=F: every rate times 1 + F u, u spread evenly over
 * [-1, 1) by a fixed sequence, the same every run.
 *
 * Linked into the benchmarks' seam builds too (tests/helpers/bench_seam,
 * tests/helpers/placement_seam): there the timing core's speed_seam gives a row
 * NAME its first rate at the placement, from the same RC4TUNE_SEAM_RATES,
 * so that a test can hold that the tuner and the benchmarks make the same
 * figures of the same samples. */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tuner/measure.h"
#include "tuner/speed.h"
#include "tuner/timing.h"

#define SEAM_MAX 40
_Static_assert(MEASURE_PHASES == 3, "RC4TUNE_SEAM_RATES gives three rates");

static struct {
	char name[48];
	int place; /* -1: every placement */
	int kind;  /* -1: every call */
	size_t bytes; /* 0: every cell */
	double rate[MEASURE_PHASES];
} seam[SEAM_MAX];
static int nseam;
static double vclock, noise;

/* The next of a fixed sequence spread over [-1, 1). */
static double jitter(void)
{
	static uint32_t x = 12345;

	x = x * 1664525u + 1013904223u;
	return (double)(x >> 8) / (double)(1u << 23) - 1;
}

static double seam_now(void)
{
	return vclock;
}

/* NAME's rates at PLACE for KIND in a cell of BYTES-byte calls (0: a
 * cell of keys, or a batch call's), or NULL when NAME is not named. */
static const double *rates_of(const char *name, int place, int kind,
			      size_t bytes)
{
	const double *any = NULL;

	for (int i = 0; i < nseam; i++)
		if (strcmp(seam[i].name, name) == 0) {
			if (seam[i].place == place || seam[i].kind == kind ||
			    (seam[i].bytes > 0 && seam[i].bytes == bytes))
				return seam[i].rate;
			if (seam[i].place < 0 && seam[i].kind < 0 &&
			    seam[i].bytes == 0)
				any = seam[i].rate;
		}
	return any;
}

static double seam_rate(const struct trial *t, int phase, double slice)
{
	size_t bytes = t->kind == RC4K_SINGLE
			       ? measure_benches[RC4K_SINGLE].cells[t->cell].bytes
			       : 0;
	const double *r = rates_of(t->k->name, t->place, t->kind, bytes);

	vclock += slice;
	if (r == NULL && t->k->kind == RC4K_BATCH && t->k->width == 0)
		r = rates_of(t->single->info.name, t->place, RC4K_SINGLE,
			     measure_benches[RC4K_SINGLE]
				     .cells[measure_benches[t->kind].serial_cell]
				     .bytes);
	return (r ? r[phase] : 1) * (1 + noise * jitter());
}

/* The benchmarks' rows: NAME's first rate at PLACE, as a single-stream
 * kernel's. */
static double seam_speed(const char *name, int place)
{
	const double *r = rates_of(name, place, RC4K_SINGLE, 0);

	return (r ? r[0] : 1) * (1 + noise * jitter());
}

/* One NAME[@P]=R1,R2,R3 from S into seam[nseam]: the bytes it took, or 0. */
static int parse_one(const char *s)
{
	const char *p = s;
	double *r = seam[nseam].rate;
	int n = 0, place = -1, kind = -1;
	unsigned long bytes = 0;
	char call[16];

	if (sscanf(p, " %47[^=@/: ]%n", seam[nseam].name, &n) != 1)
		return 0;
	p += n;
	if (*p == ':') {
		if (sscanf(p, ":%lu%n", &bytes, &n) != 1 || bytes == 0)
			return 0;
		p += n;
	}
	if (*p == '/') {
		if (sscanf(p, "/%15[^=]%n", call, &n) != 1)
			return 0;
		for (int k = 0; k < RC4K_KINDS; k++)
			if (measure_benches[k].json &&
			    strcmp(call, measure_benches[k].json) == 0)
				kind = k;
		if (kind < 0)
			return 0;
		p += n;
	}
	if (*p == '@') {
		if (sscanf(p, "@%d%n", &place, &n) != 1 || place < 0 ||
		    place >= SPEED_PLACES)
			return 0;
		p += n;
	}
	if (sscanf(p, "=%lf,%lf,%lf%n", &r[0], &r[1], &r[2], &n) != 3)
		return 0;
	seam[nseam].place = place;
	seam[nseam].kind = kind;
	seam[nseam].bytes = bytes;
	return (int)(p + n - s);
}

__attribute__((constructor)) static void seam_init(void)
{
	const char *s = getenv("RC4TUNE_SEAM_RATES");
	const char *f = getenv("RC4TUNE_SEAM_NOISE");
	int used;

	if (s == NULL)
		return;
	noise = f ? atof(f) : 0;
	while (nseam < SEAM_MAX && (used = parse_one(s)) > 0) {
		nseam++;
		s += used;
	}
	if (*s != '\0' && strspn(s, " ") != strlen(s)) {
		fprintf(stderr, "seam: cannot read RC4TUNE_SEAM_RATES at '%s'\n",
			s);
		exit(99);
	}
	vclock = timing_clock();
	timing_seam_now = seam_now;
	measure_seam = seam_rate;
	speed_seam = seam_speed;
}
