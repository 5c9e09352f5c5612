/* SPDX-License-Identifier: MIT */
/* cpufeat.h - what this CPU can do beyond its architecture's baseline: the
 * kernels' usable() checks and the tuner's cycle counter ask here. */
#ifndef RC4K_CPUFEAT_H
#define RC4K_CPUFEAT_H

/* SSE4.1 (pinsrb): 1 or 0; 0 off x86. */
int rc4k_have_sse41(void);

/* AVX-512BW and VL (byte-masked 16-byte loads and stores), with the OS
 * saving their registers: 1 or 0; 0 off x86. */
int rc4k_have_avx512bw_vl(void);

/* An x86 TSC that ticks at a constant rate whatever the core's clock
 * (CPUID 0x80000007 EDX bit 8): 1 or 0; 0 off x86. */
int rc4k_have_invariant_tsc(void);

/* --- Another CPU's features (rc4tune --heuristic --cpuid-dump). */

#define RC4K_FEAT_SSE41 1u
#define RC4K_FEAT_AVX512BW_VL 2u

/* The features, as RC4K_FEAT_* bits, of the x86 CPU whose CPUID leaf 1
 * gives ECX LEAF1_ECX and leaf 7 (subleaf 0) EBX LEAF7_EBX (0 where it has
 * no leaf 7).  AVX-512 needs F, BW and VL, and XSAVE enabled (OSXSAVE);
 * whether the OS saves the ZMM state is not in CPUID, and is taken as
 * given. */
unsigned rc4k_feats_from_cpuid(unsigned leaf1_ecx, unsigned leaf7_ebx);

/* From now on the checks above (rc4k_have_sse41, rc4k_have_avx512bw_vl,
 * so every kernel's usable()) answer for the CPU whose features are
 * *FEATS, not this one; NULL: this one again.  For the tuner's look at a
 * CPUID dump, single-threaded; nothing may run a kernel meanwhile (it
 * could lack what the other CPU has).  The library never calls it. */
void rc4k_feats_assume(const unsigned *feats);

/* Whether the checks answer for another CPU now (rc4k_feats_assume). */
int rc4k_feats_assumed(void);

/* The usable() check of what a registry.def line NEEDS: SSE2 and all else
 * the x86-64 loops use is baseline x86-64. */
#define RC4K_NEEDS_ANY NULL
#define RC4K_NEEDS_SSE41 rc4k_have_sse41
#define RC4K_NEEDS_AVX512BWVL rc4k_have_avx512bw_vl

#endif
