/* cpu.h - who this CPU is, in the terms the config and the heuristic use:
 * the library and the tuner name a CPU's section with these functions. */
#ifndef RC4_CPU_H
#define RC4_CPU_H

#include <stdint.h>

/* "cpu VENDOR FAMILY MODEL" and its NUL: a 12-byte vendor, two numbers. */
#define RC4_SECTION_MAX 64

struct rc4_cpu {
	char vendor[16]; /* x86: the CPUID vendor string, e.g. "GenuineIntel" */
	int family;      /* x86: display family and model, as /proc/cpuinfo */
	int model;
};

/* Identify the running CPU.  Returns 0, or -1 with *WHY set to a short
 * reason (an architecture without an identity this build knows). */
int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why);

/* x86: vendor, family and model from CPUID leaf 0's EBX, EDX, ECX (the
 * vendor string, in that order) and leaf 1's EAX, as Linux computes them
 * for /proc/cpuinfo. */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax);

/* The config section name for CPU: "cpu VENDOR FAMILY MODEL". */
void rc4_cpu_section(const struct rc4_cpu *cpu, char buf[RC4_SECTION_MAX]);

#endif
