/* SPDX-License-Identifier: MIT */
/* cpudump.h - a CPU's identity from a libcpuid raw CPUID dump
 * (--cpuid-dump), decoded as the library decodes the live CPU's. */
#ifndef RC4_CPUDUMP_H
#define RC4_CPUDUMP_H

#include "cpu.h"

/* 0, or -1 with *WHY set (a static buffer: not thread-safe, as
 * libcpuid's warning function is process-wide).  FEATS (may be NULL):
 * that CPU's RC4K_FEAT_* (kernels/cpufeat.h). */
int cpuid_from_dump(struct rc4_cpu *cpu, unsigned *feats, const char *path,
		    const char **why);

#endif
