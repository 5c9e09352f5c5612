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

/* The usable() check of what a registry.def line NEEDS: SSE2 and all else
 * the x86-64 loops use is baseline x86-64. */
#define RC4K_NEEDS_ANY NULL
#define RC4K_NEEDS_SSE41 rc4k_have_sse41
#define RC4K_NEEDS_AVX512BWVL rc4k_have_avx512bw_vl

#endif
