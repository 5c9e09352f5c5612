/* SPDX-License-Identifier: MIT */
/* cpufeat.c - what this CPU can do beyond its architecture's baseline. */
#include <stddef.h>
#include "cpufeat.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

/* Whether this CPU has FEAT (RC4K_FEAT_*).  libgcc's feature bits for
 * AVX-512 are set only when XGETBV says the OS saves the opmask and ZMM
 * state. */
static int live(unsigned feat)
{
	__builtin_cpu_init();
	if (feat == RC4K_FEAT_SSE41)
		return __builtin_cpu_supports("sse4.1");
	return __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl");
}

int rc4k_have_invariant_tsc(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}
#else
static int live(unsigned feat)
{
	(void)feat;
	return 0;
}

int rc4k_have_invariant_tsc(void)
{
	return 0;
}
#endif

/* Another CPU's features while the tuner looks at its dump, or NULL. */
static const unsigned *assumed;

void rc4k_feats_assume(const unsigned *feats)
{
	assumed = feats;
}

int rc4k_feats_assumed(void)
{
	return assumed != NULL;
}

static int have(unsigned feat)
{
	return assumed ? (*assumed & feat) != 0 : live(feat);
}

int rc4k_have_sse41(void)
{
	return have(RC4K_FEAT_SSE41);
}

int rc4k_have_avx512bw_vl(void)
{
	return have(RC4K_FEAT_AVX512BW_VL);
}

unsigned rc4k_feats_from_cpuid(unsigned leaf1_ecx, unsigned leaf7_ebx)
{
	const unsigned f_bw_vl = 1u << 16 | 1u << 30 | 1u << 31;
	unsigned feats = 0;

	if (leaf1_ecx & 1u << 19)
		feats |= RC4K_FEAT_SSE41;
	if ((leaf1_ecx & 1u << 27) && (leaf7_ebx & f_bw_vl) == f_bw_vl)
		feats |= RC4K_FEAT_AVX512BW_VL;
	return feats;
}
