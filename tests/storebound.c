/* SPDX-License-Identifier: MIT */
/* storebound.c - this CPU's sustained store rate by cell width, the bound
 * of every RC4 loop (storebound.h).
 *
 * The loop is RC4's swap with no output: per step i counts up, j = P[i],
 * T[i] and T[j] are loaded and stored back swapped.  That is 3 loads (P,
 * T[i], T[j]) to 2 stores of the cell width into a 256-cell table the loop
 * also reads, with j known only once a load returns, as RC4's y is; but j
 * comes from a fixed permutation, not from the last step, so no chain
 * limits the loop, only the rate the core retires the stores at.  T is
 * volatile so each access is issued at its width, neither merged nor
 * vectorised (objdump -d tests/storebound.o: movb/movl/movq stores). */
#include <config.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "benchutil.h"
#include "storebound.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#define STEPS 8192 /* a call's steps: 32 passes over the table */
#define REPS 128   /* calls a run: about a millisecond */
#define RUNS 9

const unsigned sb_widths[SB_NWIDTHS] = { 1, 4, 8 };

/* T below 2 KiB of a page and P above, so that no load of P shares its
 * address bits below 4 KiB with a store to T (the core may make such a
 * load wait for the store). */
static _Alignas(4096) struct {
	union {
		uint8_t c[256];
		uint32_t i[256];
		uint64_t l[256];
	} t;
	uint8_t p[256];
} mem;

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
		return (double)__rdtsc();
#endif
	(void)tsc;
	return now() * 1e9;
}

/* One swap; TB and PB point at the pass's base, so the compiler addresses
 * T[i] and P[i] by constant displacements and the loop's overhead stays
 * small beside its 5 memory operations. */
#define SB_SWAP(I)                              \
	{                                       \
		size_t j = pb[I];               \
		TYPE u = tb[I], v = t[j];       \
		tb[I] = v;                      \
		t[j] = u;                       \
	}
#define SB_LOOP(name, member)                                       \
	static void name(void)                                      \
	{                                                           \
		volatile TYPE *t = mem.t.member;                    \
		for (size_t n = 0; n < STEPS; n += 8) {             \
			volatile TYPE *tb = t + (n & 255);          \
			const uint8_t *pb = mem.p + (n & 255);      \
			SB_SWAP(0) SB_SWAP(1) SB_SWAP(2) SB_SWAP(3) \
			SB_SWAP(4) SB_SWAP(5) SB_SWAP(6) SB_SWAP(7) \
		}                                                   \
	}
#define TYPE uint8_t
SB_LOOP(swaps8, c)
#undef TYPE
#define TYPE uint32_t
SB_LOOP(swaps32, i)
#undef TYPE
#define TYPE uint64_t
SB_LOOP(swaps64, l)
#undef TYPE

/* P: a permutation from a fixed LCG, so every run stores alike. */
static void setup(void)
{
	static int done;
	uint32_t seed = 0x9e3779b9u;

	if (done)
		return;
	for (unsigned i = 0; i < 256; i++)
		mem.p[i] = (uint8_t)i;
	for (unsigned i = 255; i > 0; i--) {
		seed = seed * 1664525u + 1013904223u;
		unsigned k = (seed >> 8) % (i + 1);
		uint8_t s = mem.p[i];
		mem.p[i] = mem.p[k];
		mem.p[k] = s;
	}
	memset(&mem.t, 0x5a, sizeof mem.t);
	done = 1;
}

double sb_store_rate(unsigned width, int tsc)
{
	void (*run)(void) = width == 1 ? swaps8 : width == 4 ? swaps32
							     : swaps64;
	double best = 0;

	setup();
	run(); /* warm: caches and predictors */
	for (int r = 0; r < RUNS; r++) {
		double t0 = sb_ticks(tsc);
		for (int k = 0; k < REPS; k++)
			run();
		double per = (sb_ticks(tsc) - t0) / (2.0 * REPS * STEPS);
		if (r == 0 || per < best)
			best = per;
	}
	return 1 / best;
}

void sb_round(struct sb_rounds *b, int round, int tsc)
{
	for (int w = 0; w < SB_NWIDTHS; w++)
		b->rate[w][round] = sb_store_rate(sb_widths[w], tsc);
}

void sb_medians(struct sb_rounds *b, int rounds)
{
	for (int w = 0; w < SB_NWIDTHS; w++) {
		qsort(b->rate[w], rounds, sizeof(double), cmp_double);
		b->med[w] = b->rate[w][rounds / 2];
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

int sb_width_index(size_t bytes)
{
	for (int w = 0; w < SB_NWIDTHS; w++)
		if (sb_widths[w] == bytes)
			return w;
	return -1;
}
