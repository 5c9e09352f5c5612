/* SPDX-License-Identifier: MIT */
/* cpu.h - who this CPU is, in the terms the config (rc4_section_name) and
 * the rules use: rc4tune.conf(5), CPU IDENTITY, gives each architecture's. */
#ifndef RC4_CPU_H
#define RC4_CPU_H

#include <stdint.h>

/* "cpu VENDOR FAMILY MODEL" and its NUL: a 15-byte vendor, two numbers. */
#define RC4_SECTION_MAX 64

struct rc4_cpu {
	char vendor[16];
	int family;
	int model;
	/* 0: MODEL is written in decimal; N: as "0x" and N or more
	 * lowercase hex digits, as /proc/cpuinfo prints an ARM part */
	unsigned char model_hex;
	/* where the identity was read, for the selection trail (static
	 * text), or NULL */
	const char *source;
};

/* Identify the running CPU: 0, or -1 with *WHY set (an x86 CPU without
 * CPUID leaf 1; off x86 it always succeeds). */
int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why);

/* x86: the identity from CPUID leaf 0's EBX, EDX, ECX (the vendor string,
 * in that order) and leaf 1's EAX. */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax);

/* arm64: the identity from MIDR_EL1. */
void rc4_cpu_from_midr(struct rc4_cpu *cpu, uint64_t midr);

/* From TEXT, /proc/cpuinfo's contents on ARCH ("arm64", "arm", "s390x"):
 * 0, or -1 when TEXT lacks the fields (e.g. the host's x86 file that
 * qemu-user shows). */
int rc4_cpu_from_cpuinfo(struct rc4_cpu *cpu, const char *arch,
			 const char *text);

/* The identity of last resort: MACHINE (uname's), family 0, model 0. */
void rc4_cpu_from_machine(struct rc4_cpu *cpu, const char *machine);

#endif
