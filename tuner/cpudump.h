/* SPDX-License-Identifier: MIT */
/* cpudump.h - a CPU's identity from a raw CPUID dump in libcpuid's format
 * (rc4tune --heuristic --cpuid-dump), decoded as the library decodes the
 * live CPU's. */
#ifndef RC4_CPUDUMP_H
#define RC4_CPUDUMP_H

#include "cpu.h"

/* Returns 0, or -1 with *WHY set (a static buffer: not thread-safe, as
 * libcpuid's warning function is process-wide).  FEATS (may be NULL):
 * that CPU's features, as the kernels' usable() checks ask for them
 * (RC4K_FEAT_* of kernels/cpufeat.h), from its leaves 1 and 7. */
int cpuid_from_dump(struct rc4_cpu *cpu, unsigned *feats, const char *path,
		    const char **why);

#endif
