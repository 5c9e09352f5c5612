/* SPDX-License-Identifier: MIT */
/* cpufeat.c - what this CPU can do beyond its architecture's baseline. */
#include "cpufeat.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

int rc4k_have_sse41(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("sse4.1");
}

/* libgcc's feature bits for AVX-512 are set only when XGETBV says the OS
 * saves the opmask and ZMM state. */
int rc4k_have_avx512bw_vl(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl");
}

int rc4k_have_invariant_tsc(void)
{
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
}
#else
int rc4k_have_sse41(void)
{
	return 0;
}

int rc4k_have_avx512bw_vl(void)
{
	return 0;
}

int rc4k_have_invariant_tsc(void)
{
	return 0;
}
#endif
