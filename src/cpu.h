/* cpu.h - who this CPU is, in the terms the config and the heuristic use. */
#ifndef RC4_CPU_H
#define RC4_CPU_H

#include <stdbool.h>
#include <stdint.h>

struct rc4_cpu {
	char vendor[16]; /* CPUID vendor string, e.g. "GenuineIntel" */
	int family;      /* display family and model, as /proc/cpuinfo */
	int model;
	int cores;       /* physical cores on the package */
	bool ht;         /* CPUID's hyper-threading bit: shown, never trusted */
	bool sse2, avx2, bmi2;
};

/* Identify the running CPU.  Returns 0, or -1 (CPU not identifiable: a
 * non-x86 build or CPUID failed) with *why set to a short reason. */
int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why);

/* Vendor, display family and model only (other fields zero), from CPUID
 * leaves 0 and 1: the library's first use.  libcpuid's full read issues
 * about a hundred CPUID instructions, each a VM exit under a hypervisor
 * (0.5 ms measured in a KVM guest).  Gives the same numbers as
 * rc4_cpu_identify.  Returns 0, or -1 with *why set (not x86). */
int rc4_cpu_signature(struct rc4_cpu *cpu, const char **why);

/* Fill vendor, family and model from the raw leaves: leaf 0's EBX, EDX,
 * ECX (the vendor string, in that order) and leaf 1's EAX. */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax);

/* The same from a raw CPUID dump written by libcpuid's
 * cpuid_serialize_raw_data().  Not thread-safe: it swaps libcpuid's
 * process-wide warning function, and WHY may be a static buffer. */
int rc4_cpu_from_dump(struct rc4_cpu *cpu, const char *path, const char **why);

/* The config section name for CPU: "cpu VENDOR FAMILY MODEL". */
void rc4_cpu_section(const struct rc4_cpu *cpu, char *buf, unsigned size);

#endif
