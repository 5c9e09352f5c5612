/* SPDX-License-Identifier: MIT */
/* storebound.c - this CPU's sustained store rate by cell width, the bound
 * of every RC4 loop (storebound.h).
 *
 * Each shape does RC4's 3 loads to 2 stores of the cell width per step,
 * one store's index counting up and the other's from a load, as S[x] and
 * S[y]; but no load can wait on a store, so that the rate is the core's
 * and not the chance of a load meeting a store in flight (RC4's swap in
 * one table meets them by chance: a rate measured so is noise):
 *
 *  far      RC4's swap in place: j = P[i], T[i] and T[j] loaded and
 *           stored back swapped, P pairing each cell with one 65 to 191
 *           cells away, so a cell is loaded 65 steps or more after its
 *           last store, past any store buffer.
 *  copy     the swap's loads from table A, its stores into table B:
 *           j = P[i], B[i] = A[j], B[j] = A[i].  P is a shuffle, so j
 *           spreads as RC4's y does (how often S[x] and S[y] share a line
 *           sets the rate where the core pairs stores to one line).
 *  copy_xL  L copies stepped together, eight steps of each lane in turn,
 *           each lane its own P, A and B, as the lane kernels step
 *           independent states.
 *  lock_xL  the same L copies a step of each lane in turn, as the lane
 *           kernels step theirs in lockstep: on Zen 1 (AMD 23/1) byte
 *           stores ran 0.62 a TSC tick eight steps to a lane (which
 *           char-8lane-asm passed by 1.4 %) and 0.90 a step to a lane.
 *
 * No load shares its address bits below 4 KiB with a store (the core may
 * make it wait for the store): the loads' tables lie in the first halves
 * of pages, the stores' in the second. */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "benchutil.h"
#include "storebound.h"
#include "tuner/speed.h"
#include "tuner/timing.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_TSC 1
#endif

#define STEPS 8192 /* a call's steps, over all its lanes */
#define REPS 32    /* calls a run: about a tenth of a millisecond */

const unsigned sb_widths[SB_NWIDTHS] = { 1, 4, 8 };

/* far: T in the first 2 KiB of a page, P (only loaded) after it. */
static _Alignas(4096) struct {
	union {
		uint8_t c[256];
		uint32_t i[256];
		uint64_t l[256];
	} t;
	uint8_t p[256];
} far;

/* The copy lanes: lane K's A (256 cells of W bytes) packed into the first
 * halves of the arena's pages, so the lanes spread over the cache's sets,
 * its B 2 KiB on, in the second half; the lanes' P after the A of 8 long
 * lanes, the most. */
#define ARENA (9 * 4096)
static _Alignas(4096) union {
	uint8_t c[ARENA];
	uint32_t i[ARENA / 4];
	uint64_t l[ARENA / 8];
} arena;

/* The byte offset of byte AT of the first halves, laid end to end. */
static inline size_t half_page(size_t at)
{
	return at / 2048 * 4096 + at % 2048;
}

static inline size_t lane_a(unsigned k, size_t w)
{
	return half_page(k * 256 * w);
}

static inline size_t lane_p(unsigned k)
{
	return half_page(8 * 256 * 8 + k * 256);
}

int sb_use_tsc(void)
{
#ifdef HAVE_TSC
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
#else
	return 0;
#endif
}

double sb_ticks(int tsc)
{
#ifdef HAVE_TSC
	if (tsc)
		return (double)timing_tsc();
#endif
	(void)tsc;
	return timing_clock() * 1e9;
}

/* Eight steps from base N; TB (T + N) and PB (P + N) let the compiler
 * address T[i] and P[i] by constant displacements, so the loop's overhead
 * stays small beside its 5 memory operations a step.  The tables are not
 * volatile, which would keep the compiler from folding the addresses into
 * the accesses; a compiler barrier after each step keeps every access,
 * at its width and in its step. */
#define SB_STEP_END __asm__ volatile("" ::: "memory");
#define SB_FAR(I)                         \
	{                                 \
		size_t j = pb[I];         \
		TYPE u = tb[I], v = t[j]; \
		tb[I] = v;                \
		t[j] = u;                 \
		SB_STEP_END               \
	}
/* B: the offset of the stores' table from the loads', in cells. */
#define SB_COPY(I)                                \
	{                                         \
		size_t j = pb[I];                 \
		TYPE u = tb[I], v = t[j];         \
		tb[I + B] = v;                    \
		t[j + B] = u;                     \
		SB_STEP_END                       \
	}
#define SB_EIGHT(S) S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7)

#define SB_FAR_LOOP(name, member)                              \
	static void name(void)                                 \
	{                                                      \
		TYPE *t = far.t.member;                        \
		for (size_t n = 0; n < STEPS; n += 8) {        \
			TYPE *tb = t + (n & 255);              \
			const uint8_t *pb = far.p + (n & 255); \
			SB_EIGHT(SB_FAR)                       \
		}                                              \
	}
/* LANES lanes, eight steps of each in turn. */
#define SB_COPY_LOOP(name, member, LANES)                                \
	static void name(void)                                           \
	{                                                                \
		const size_t w = sizeof(TYPE), B = 2048 / w;             \
		for (size_t n = 0; n < STEPS / (LANES); n += 8)          \
			for (unsigned k = 0; k < (LANES); k++) {         \
				TYPE *t = arena.member + lane_a(k, w) / w; \
				TYPE *tb = t + (n & 255);                \
				const uint8_t *pb =                      \
					arena.c + lane_p(k) + (n & 255); \
				SB_EIGHT(SB_COPY)                        \
			}                                                \
	}
/* Lane K's step at I, K a constant: its tables at fixed offsets, as
 * the lane kernels address theirs. */
#define SB_LOCK(K)                                                   \
	{                                                            \
		TYPE *t = base + lane_a(K, w) / w;                   \
		size_t j = arena.c[lane_p(K) + i];                   \
		TYPE u = t[i], v = t[j];                             \
		t[i + B] = v;                                        \
		t[j + B] = u;                                        \
		SB_STEP_END                                          \
	}
#define SB_LANES2(S) S(0) S(1)
#define SB_LANES4(S) SB_LANES2(S) S(2) S(3)
#define SB_LANES8(S) SB_LANES4(S) S(4) S(5) S(6) S(7)
/* LANES lanes a step each in turn. */
#define SB_LOCK_LOOP(name, member, LANES)                            \
	static void name(void)                                       \
	{                                                            \
		const size_t w = sizeof(TYPE), B = 2048 / w;         \
		TYPE *base = arena.member;                           \
		for (size_t n = 0; n < STEPS / (LANES); n++) {       \
			size_t i = n & 255;                          \
			SB_LANES##LANES(SB_LOCK)                     \
		}                                                    \
	}
#define TYPE uint8_t
SB_FAR_LOOP(far8, c)
SB_COPY_LOOP(copy8, c, 1)
SB_COPY_LOOP(copy8x2, c, 2)
SB_COPY_LOOP(copy8x4, c, 4)
SB_COPY_LOOP(copy8x8, c, 8)
SB_LOCK_LOOP(lock8x2, c, 2)
SB_LOCK_LOOP(lock8x4, c, 4)
SB_LOCK_LOOP(lock8x8, c, 8)
#undef TYPE
#define TYPE uint32_t
SB_FAR_LOOP(far32, i)
SB_COPY_LOOP(copy32, i, 1)
SB_COPY_LOOP(copy32x2, i, 2)
SB_COPY_LOOP(copy32x4, i, 4)
SB_COPY_LOOP(copy32x8, i, 8)
SB_LOCK_LOOP(lock32x2, i, 2)
SB_LOCK_LOOP(lock32x4, i, 4)
SB_LOCK_LOOP(lock32x8, i, 8)
#undef TYPE
#define TYPE uint64_t
SB_FAR_LOOP(far64, l)
SB_COPY_LOOP(copy64, l, 1)
SB_COPY_LOOP(copy64x2, l, 2)
SB_COPY_LOOP(copy64x4, l, 4)
SB_COPY_LOOP(copy64x8, l, 8)
SB_LOCK_LOOP(lock64x2, l, 2)
SB_LOCK_LOOP(lock64x4, l, 4)
SB_LOCK_LOOP(lock64x8, l, 8)
#undef TYPE

/* P[0..N) as BASE + a shuffle of 0..N-1 by a fixed LCG, so every run
 * stores alike. */
static void shuffle(uint8_t *p, unsigned n, unsigned base)
{
	uint32_t seed = 0x9e3779b9u + base;

	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(base + i);
	for (unsigned i = n - 1; i > 0; i--) {
		seed = seed * 1664525u + 1013904223u;
		unsigned k = (seed >> 8) % (i + 1);
		uint8_t v = p[i];
		p[i] = p[k];
		p[k] = v;
	}
}

/* far's P: cell c < 128 paired with 128 + a shuffle of c's 64-cell block,
 * so each pair lies 65 to 191 cells apart. */
static void far_setup(void)
{
	uint8_t s[128];

	shuffle(s, 64, 0);
	shuffle(s + 64, 64, 64);
	for (unsigned c = 0; c < 128; c++) {
		far.p[c] = (uint8_t)(128 + s[c]);
		far.p[128 + s[c]] = (uint8_t)c;
	}
}

/* Each lane's P one shuffle of 0..255, so j spreads as RC4's y does. */
static void copy_setup(void)
{
	uint8_t p[256];

	shuffle(p, 256, 0);
	for (unsigned k = 0; k < 8; k++)
		memcpy(arena.c + lane_p(k), p, sizeof p);
}

/* A width's shapes. */
#define SB_SHAPES_OF(w, bits)                                    \
	{ "far", w, 1, far##bits, far_setup },                   \
	{ "copy", w, 1, copy##bits, copy_setup },                \
	{ "copy_x2", w, 2, copy##bits##x2, copy_setup },         \
	{ "copy_x4", w, 4, copy##bits##x4, copy_setup },         \
	{ "copy_x8", w, 8, copy##bits##x8, copy_setup },         \
	{ "lock_x2", w, 2, lock##bits##x2, copy_setup },         \
	{ "lock_x4", w, 4, lock##bits##x4, copy_setup },         \
	{ "lock_x8", w, 8, lock##bits##x8, copy_setup }
const struct sb_shape sb_shapes[SB_NSHAPES] = { SB_SHAPES_OF(0, 8),
						SB_SHAPES_OF(1, 32),
						SB_SHAPES_OF(2, 64) };

/* One run of SHAPE: ticks per store over REPS calls. */
static double shape_run(const struct sb_shape *shape, int tsc)
{
	shape->setup();
	shape->run(); /* warm: caches and predictors */
	double t0 = sb_ticks(tsc);
	for (int k = 0; k < REPS; k++)
		shape->run();
	return (sb_ticks(tsc) - t0) / (2.0 * REPS * STEPS);
}

void sb_rates(double rates[SB_NSHAPES], int runs, int tsc)
{
	double best[SB_NSHAPES];

	for (int r = 0; r < runs; r++) {
		struct speed_cpu cpu;
		speed_pin(&cpu, r);
		for (int s = 0; s < SB_NSHAPES; s++) {
			double per = shape_run(&sb_shapes[s], tsc);
			if (r == 0 || per < best[s])
				best[s] = per;
		}
		speed_unpin(&cpu);
	}
	for (int s = 0; s < SB_NSHAPES; s++)
		rates[s] = 1 / best[s];
}

void sb_lane_rates(int w, const double rates[SB_NSHAPES],
		   double out[SB_NLANES])
{
	for (int l = 0; l < SB_NLANES; l++) {
		out[l] = l > 0 ? out[l - 1] : 0;
		for (int s = 0; s < SB_NSHAPES; s++)
			if (sb_shapes[s].width == w &&
			    sb_shapes[s].lanes <= SB_LANES(l) &&
			    rates[s] > out[l])
				out[l] = rates[s];
	}
}

void sb_round(struct sb_rounds *b, int round, int tsc)
{
	enum { RUNS = 5 };
	double rates[SB_NSHAPES], out[SB_NLANES];
	struct speed_cpu cpu;

	speed_pin(&cpu, round); /* its runs stay there */
	sb_rates(rates, RUNS, tsc);
	speed_unpin(&cpu);
	for (int w = 0; w < SB_NWIDTHS; w++) {
		sb_lane_rates(w, rates, out);
		for (int l = 0; l < SB_NLANES; l++)
			b->rate[w][l][round] = out[l];
	}
}

void sb_medians(struct sb_rounds *b, int rounds)
{
	for (int w = 0; w < SB_NWIDTHS; w++) {
		for (int l = 0; l < SB_NLANES; l++) {
			qsort(b->rate[w][l], rounds, sizeof(double),
			      cmp_double);
			b->lanes_med[w][l] = b->rate[w][l][rounds / 2];
		}
		b->med[w] = b->lanes_med[w][0];
	}
}

int sb_width_of(const char *name)
{
	static const char *const prefix[SB_NWIDTHS] = { "char-", "int-",
							 "long-" };

	for (int w = 0; w < SB_NWIDTHS; w++)
		if (strncmp(name, prefix[w], strlen(prefix[w])) == 0)
			return w;
	return -1;
}

int sb_lanes_of(const char *name)
{
	const char *dash = strchr(name, '-');
	char *end;

	if (dash == NULL)
		return 0;
	unsigned long n = strtoul(dash + 1, &end, 10);
	if (strncmp(end, "lane", 4) != 0)
		return 0;
	for (int l = SB_NLANES - 1; l > 0; l--)
		if (n >= SB_LANES(l))
			return l;
	return 0;
}

int sb_width_index(size_t bytes)
{
	for (int w = 0; w < SB_NWIDTHS; w++)
		if (sb_widths[w] == bytes)
			return w;
	return -1;
}
