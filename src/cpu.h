/* SPDX-License-Identifier: MIT */
/* cpu.h - who this CPU is, in the terms the config and the heuristic use:
 * sectionname.h's rc4_section_name makes a CPU's section name of it.
 * rc4tune.conf(5) documents each architecture's identity. */
#ifndef RC4_CPU_H
#define RC4_CPU_H

#include <stdint.h>

/* "cpu VENDOR FAMILY MODEL" and its NUL: a 15-byte vendor, two numbers. */
#define RC4_SECTION_MAX 64

struct rc4_cpu {
	/* x86: the CPUID vendor string, e.g. "GenuineIntel"; arm64, arm:
	 * "arm64-0x41", "arm-0x41" (the implementer); s390x: vendor_id;
	 * elsewhere: uname's machine */
	char vendor[16];
	int family; /* x86: display family, as /proc/cpuinfo; arm: the */
	int model;  /* architecture and the part; s390x: 0, the machine */
	/* 0: MODEL is written in decimal; N: as "0x" and N or more
	 * lowercase hex digits, as /proc/cpuinfo prints an ARM part */
	unsigned char model_hex;
	/* where the identity was read, for the selection trail (static
	 * text), or NULL */
	const char *source;
};

/* Identify the running CPU.  Returns 0, or -1 with *WHY set to a short
 * reason (an x86 CPU without CPUID leaf 1).  Off x86 it always succeeds:
 * at worst the identity is the architecture's name alone. */
int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why);

/* x86: vendor, family and model from CPUID leaf 0's EBX, EDX, ECX (the
 * vendor string, in that order) and leaf 1's EAX, as Linux computes them
 * for /proc/cpuinfo. */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax);

/* arm64: from MIDR_EL1, as arm64 Linux's /proc/cpuinfo shows it: vendor
 * "arm64-0xII" (the implementer, bits 31-24), family 8 (arm64's "CPU
 * architecture"), model the part (bits 15-4) as 0x and three digits. */
void rc4_cpu_from_midr(struct rc4_cpu *cpu, uint64_t midr);

/* From TEXT, /proc/cpuinfo's contents, as architecture ARCH's Linux
 * prints them: "arm64" and "arm" (the first "CPU implementer", "CPU
 * architecture" and "CPU part"), "s390x" ("vendor_id" and the first
 * "machine = "); 0, or -1 when TEXT lacks them (e.g. the host's x86 file
 * that qemu-user shows). */
int rc4_cpu_from_cpuinfo(struct rc4_cpu *cpu, const char *arch,
			 const char *text);

/* The identity of last resort: MACHINE (uname's), family 0, model 0. */
void rc4_cpu_from_machine(struct rc4_cpu *cpu, const char *machine);

#endif
