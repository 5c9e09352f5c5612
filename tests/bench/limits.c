/* SPDX-License-Identifier: MIT */
/* limits.c - the bound loops that show what limits the RC4 loops on a CPU
 * (`make limits`; doc/cpus/README.md, "The store bound"): RC4's byte
 * loop, then the same loop with parts taken out (wrong output, timing
 * only), and loops that time one resource alone.  Portable C on every
 * CPU; on x86-64 the ports and the 16-byte gather in assembly
 * (limits-x86_64.S), as the kernels issue them.
 *
 * Each figure is the best of several runs of a few milliseconds (another
 * process only slows a run down), per byte, load, step or pair, in ticks
 * of the x86 TSC where it ticks at a constant rate, else in nanoseconds.
 * Printed as "NAME VALUE UNIT" lines, or with --json as one object of
 * {"value": V, "unit": U} members, for a CPU's profile:
 *
 *  rc4              RC4's byte loop (char state), correct output
 *  rc4_no_sy_store  without the S[y] store: what its data-dependent
 *                   address costs the next bytes' S[x] loads
 *  rc4_loads        without either store: the loads and the y chain alone
 *  load_chain       a load whose address is the last load's value: the
 *                   load-to-use latency of y's chain
 *  store_load       a byte stored, then loaded back and stored again: the
 *                   store-to-load forwarding chain a swap can fall into
 *  alias_4k         a store, then a load 4 KiB away (the same address bits
 *                   below 4 KiB: the core may make it wait for the store)
 *  alias_none       the same, the load 4 KiB + 128 bytes away
 *  gather8          8 keystream bytes from constant offsets of S into a
 *                   word by shifts, one 8-byte XOR (the chunk kernels)
 *  gather16         16 by pinsrb into xmm, one 16-byte XOR (x86-64 with
 *                   SSE4.1: the 16x kernels)
 *  mem_ops          independent byte loads and stores in RC4's 3:2 mix:
 *                   memory operations per tick the ports sustain
 *  stores_W_SHAPE   stores per tick with W-bit stores (8, 32, 64) in
 *                   each store-bound loop shape (storebound.c: far, copy,
 *                   copy_x2/x4/x8), 3 loads to 2 stores, no load waiting
 *                   on a store
 *  stores_W         the best of the one-lane shapes
 *  bound_W          2 stores a byte at that rate: ticks per byte no RC4
 *                   loop of W-bit cells beats on this CPU
 *  stores_W_xL      the same over the shapes of at most L (2, 4, 8)
 *  bound_W_xL       lanes: the bound of L streams stepped together
 *  tsc_ghz          the TSC's rate (x86), to turn ticks into time */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "storebound.h"
#include "tuner/speed.h"
#include "tuner/timing.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define BLOCK 8192
#define STEPS 8192
#define RUNS 9
#define SB_RUNS 32 /* runs of each store-bound shape, round-robin */

static _Alignas(4096) uint8_t S[256], perm[256], buf[BLOCK];
static _Alignas(4096) uint8_t area[3 * 4096];
static volatile uint8_t sink;

/* Where RC4's loops carry x and y from call to call. */
static unsigned rx, ry;

#define RC4_STEP(stores)                                     \
	{                                                    \
		x = (x + 1) & 255;                           \
		uint8_t tx = S[x];                           \
		y = (y + tx) & 255;                          \
		uint8_t ty = S[y];                           \
		stores;                                      \
		buf[n] ^= S[(tx + ty) & 255];                \
	}

static void rc4(void)
{
	unsigned x = rx, y = ry;

	for (size_t n = 0; n < BLOCK; n++)
		RC4_STEP(S[x] = ty; S[y] = tx)
	rx = x;
	ry = y;
}

static void rc4_no_sy_store(void)
{
	unsigned x = rx, y = ry;

	for (size_t n = 0; n < BLOCK; n++)
		RC4_STEP(S[x] = ty)
	rx = x;
	ry = y;
}

static void rc4_loads(void)
{
	unsigned x = rx, y = ry;

	for (size_t n = 0; n < BLOCK; n++)
		RC4_STEP((void)0)
	rx = x;
	ry = y;
}

static void load_chain(void)
{
	unsigned j = rx & 255;

	for (size_t n = 0; n < STEPS; n++)
		j = perm[j];
	rx = j;
}

static void store_load(void)
{
	volatile uint8_t *p = area;
	uint8_t v = p[0];

	for (size_t n = 0; n < STEPS; n++) {
		p[n & 63] = (uint8_t)(v + 1);
		v = p[n & 63];
	}
	sink = v;
}

/* A store, then a load D bytes past it; the loads do not depend on the
 * stores' data. */
static void store_then_load(size_t d)
{
	volatile uint8_t *p = area;
	unsigned acc = 0;

	for (size_t n = 0; n < STEPS; n++) {
		p[(n * 64) & 4095] = (uint8_t)n;
		acc += p[((n * 64) & 4095) + d];
	}
	sink = (uint8_t)acc;
}

static void alias_4k(void)
{
	store_then_load(4096);
}

static void alias_none(void)
{
	store_then_load(4096 + 128);
}

static void gather8(void)
{
	for (size_t n = 0; n < BLOCK; n += 8) {
		uint64_t k = 0, v;
		for (unsigned b = 0; b < 8; b++)
			k |= (uint64_t)S[(n + b * 37) & 255] << (8 * b);
		memcpy(&v, buf + n, 8);
		v ^= k;
		memcpy(buf + n, &v, 8);
	}
}

#ifdef RC4TUNE_X86_64
void lim_ports(const uint8_t *src, uint8_t *dst, size_t trips);
void lim_gather16(const uint8_t *s, uint8_t *buf, size_t blocks);

enum { PORT_TRIPS = STEPS / 20 }; /* 20 memory operations a trip */

static void mem_ops(void)
{
	lim_ports(area, area + 4096 + 32, PORT_TRIPS);
}

static void gather16(void)
{
	lim_gather16(S, buf, BLOCK / 16);
}

static int have_sse41(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1);
}
#else
/* The same mix in C: volatile makes the compiler issue every access. */
enum { PORT_TRIPS = STEPS / 5 };

static void mem_ops(void)
{
	volatile const uint8_t *src = area;
	volatile uint8_t *dst = area + 4096 + 32;

	for (size_t n = 0; n < PORT_TRIPS; n++) {
		uint8_t a = src[0], b = src[64], c = src[128];
		dst[0] = a;
		dst[64] = (uint8_t)(b + c);
	}
}
#endif

/* One bound loop: RUN does UNITS of PER; RATE: print units per tick. */
struct limit {
	const char *name;
	void (*run)(void);
	double units;
	const char *per;
	int rate;
	int (*usable)(void);
};

static const struct limit limits[] = {
	{ "rc4", rc4, BLOCK, "B", 0, NULL },
	{ "rc4_no_sy_store", rc4_no_sy_store, BLOCK, "B", 0, NULL },
	{ "rc4_loads", rc4_loads, BLOCK, "B", 0, NULL },
	{ "load_chain", load_chain, STEPS, "load", 0, NULL },
	{ "store_load", store_load, STEPS, "step", 0, NULL },
	{ "alias_4k", alias_4k, STEPS, "pair", 0, NULL },
	{ "alias_none", alias_none, STEPS, "pair", 0, NULL },
	{ "gather8", gather8, BLOCK, "B", 0, NULL },
#ifdef RC4TUNE_X86_64
	{ "gather16", gather16, BLOCK, "B", 0, have_sse41 },
	{ "mem_ops", mem_ops, PORT_TRIPS * 20, "op", 1, NULL },
#else
	{ "mem_ops", mem_ops, PORT_TRIPS * 5, "op", 1, NULL },
#endif
};
#define NLIMITS (sizeof limits / sizeof limits[0])

/* The TSC's ticks per nanosecond, over about 50 ms. */
static double tsc_ghz(void)
{
	double t0 = timing_clock(), c0 = sb_ticks(1), t;

	while ((t = timing_clock()) - t0 < 0.05)
		;
	return (sb_ticks(1) - c0) / ((t - t0) * 1e9);
}

/* L's ticks per unit: the best of RUNS runs of about REPS calls, run R
 * on the CPU of the timing core's round R, so the best CPU's. */
static double measure(const struct limit *l, int tsc)
{
	enum { REPS = 64 };
	double best = 0;

	for (int r = 0; r < RUNS; r++) {
		struct speed_cpu cpu;
		speed_pin(&cpu, r);
		l->run(); /* warm: caches and predictors */
		double t0 = sb_ticks(tsc);
		for (int k = 0; k < REPS; k++)
			l->run();
		double per = (sb_ticks(tsc) - t0) / (REPS * l->units);
		if (r == 0 || per < best)
			best = per;
		speed_unpin(&cpu);
	}
	return best;
}

/* A 256-byte cycle for load_chain (each entry the next one's index) and
 * a permutation for RC4, from a fixed LCG so every run reads the same. */
static void setup(void)
{
	uint8_t order[256];
	uint32_t seed = 0x2545f491u;

	for (unsigned i = 0; i < 256; i++)
		order[i] = S[i] = (uint8_t)i;
	for (unsigned i = 255; i > 0; i--) {
		seed = seed * 1664525u + 1013904223u;
		unsigned j = (seed >> 8) % (i + 1);
		uint8_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < 256; i++)
		perm[order[i]] = order[(i + 1) & 255];
	memcpy(S, order, sizeof S);
	memset(buf, 0x5a, sizeof buf);
}

/* One figure as a "NAME VALUE UNIT" line, or as a member of --json's
 * object (FIRST: none printed yet). */
static void emit(int json, int *first, const char *name, double v,
		 const char *unit)
{
	printf(json ? "%s\n  \"%s\": { \"value\": %.4g, \"unit\": \"%s\" }"
		    : "%s%s %.4g %s\n",
	       json ? (*first ? "" : ",") : "", name, v, unit);
	*first = 0;
}

/* Each shape's store rate, then per cell width and lane count the best
 * and the bound it sets (storebound.h). */
static void store_bounds(int json, int *first, int tsc, const char *tick)
{
	double rates[SB_NSHAPES], out[SB_NLANES];
	char name[48], unit[32];

	snprintf(unit, sizeof unit, "stores/%s", tick);
	sb_rates(rates, SB_RUNS, tsc);
	for (int s = 0; s < SB_NSHAPES; s++) {
		const struct sb_shape *sh = &sb_shapes[s];
		snprintf(name, sizeof name, "stores_%u_%s",
			 8 * sb_widths[sh->width], sh->name);
		emit(json, first, name, rates[s], unit);
	}
	for (int w = 0; w < SB_NWIDTHS; w++) {
		sb_lane_rates(w, rates, out);
		for (int l = 0; l < SB_NLANES; l++) {
			char lanes[8] = "";
			if (l > 0)
				snprintf(lanes, sizeof lanes, "_x%u",
					 SB_LANES(l));
			snprintf(name, sizeof name, "stores_%u%s",
				 8 * sb_widths[w], lanes);
			emit(json, first, name, out[l], unit);
			snprintf(name, sizeof name, "bound_%u%s",
				 8 * sb_widths[w], lanes);
			snprintf(unit, sizeof unit, "%s/B", tick);
			emit(json, first, name, sb_bound_cpb(out[l]), unit);
			snprintf(unit, sizeof unit, "stores/%s", tick);
		}
	}
}

int main(int argc, char **argv)
{
	int json = argc == 2 && strcmp(argv[1], "--json") == 0;
	int tsc = sb_use_tsc(), first = 1;
	const char *tick = tsc ? "tsc" : "ns";

	if (argc > 2 || (argc == 2 && !json)) {
		fprintf(stderr, "usage: limits [--json]\n");
		return 2;
	}
	setup();
	if (json)
		printf("{");
	for (size_t i = 0; i < NLIMITS; i++) {
		const struct limit *l = &limits[i];
		char unit[32];
		if (l->usable && !l->usable())
			continue;
		double v = measure(l, tsc);
		if (l->rate) {
			v = 1 / v;
			snprintf(unit, sizeof unit, "%ss/%s", l->per, tick);
		} else {
			snprintf(unit, sizeof unit, "%s/%s", tick, l->per);
		}
		emit(json, &first, l->name, v, unit);
	}
	store_bounds(json, &first, tsc, tick);
	if (tsc)
		emit(json, &first, "tsc_ghz", tsc_ghz(), "GHz");
	if (json)
		printf("\n}\n");
	return 0;
}
