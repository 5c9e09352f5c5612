/* SPDX-License-Identifier: MIT */
/* cpu.c - the CPU's identity (rc4tune.conf(5), CPU IDENTITY).  x86: two
 * CPUID instructions (each a VM exit under a hypervisor, so not libcpuid's
 * hundred); elsewhere one read of a small file, at most two. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cpu.h"
#include "readfile.h"

/* Linux's x86_family() and x86_model(), which /proc/cpuinfo shows: the
 * extended family is added to base family 15 only, and the extended model
 * is prefixed from display family 6 on (not only for 6 and 15, as the
 * Intel SDM has it: Zhaoxin's family 7 reads so). */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax)
{
	int family = (leaf1_eax >> 8) & 0xf;
	int model = (leaf1_eax >> 4) & 0xf;

	if (family == 15)
		family += (leaf1_eax >> 20) & 0xff;
	if (family >= 6)
		model += ((leaf1_eax >> 16) & 0xf) << 4;
	memset(cpu, 0, sizeof *cpu);
	memcpy(cpu->vendor, vendor, 12);
	cpu->family = family;
	cpu->model = model;
}

/* ARM: "ARCH-0xII", as /proc/cpuinfo prints the implementer, and the
 * part as 0x and three digits. */
static void arm_identity(struct rc4_cpu *cpu, const char *arch,
			 unsigned implementer, int architecture,
			 unsigned part)
{
	memset(cpu, 0, sizeof *cpu);
	snprintf(cpu->vendor, sizeof cpu->vendor, "%s-0x%02x", arch,
		 implementer & 0xff);
	cpu->family = architecture;
	cpu->model = (int)(part & 0xfff);
	cpu->model_hex = 3;
}

/* arm64 Linux prints "CPU architecture: 8" for every CPU (ARMv9 too). */
void rc4_cpu_from_midr(struct rc4_cpu *cpu, uint64_t midr)
{
	arm_identity(cpu, "arm64", (unsigned)(midr >> 24) & 0xff, 8,
		     (unsigned)(midr >> 4) & 0xfff);
}

/* --- /proc/cpuinfo's text ------------------------------------------- */

/* The value of the first line "KEY<blanks>: VALUE" in TEXT, trimmed, in
 * *LEN bytes; NULL when there is none. */
static const char *field(const char *text, const char *key, size_t *len)
{
	size_t klen = strlen(key);

	for (const char *line = text; *line != '\0';) {
		size_t n = strcspn(line, "\n");
		const char *colon = memchr(line, ':', n);
		if (colon != NULL && (size_t)(colon - line) >= klen &&
		    strncmp(line, key, klen) == 0 &&
		    strspn(line + klen, " \t") == (size_t)(colon - line) - klen) {
			const char *v = colon + 1, *end = line + n;
			while (v < end && (*v == ' ' || *v == '\t'))
				v++;
			while (end > v && isspace((unsigned char)end[-1]))
				end--;
			*len = (size_t)(end - v);
			return v;
		}
		line += n + (line[n] == '\n');
	}
	return NULL;
}

/* The hexadecimal number (0x optional) that is all of V's LEN bytes, at
 * most MAX; -1 when V is not one. */
static long hex(const char *v, size_t len, unsigned long max)
{
	char buf[24], *end;

	if (v == NULL || len == 0 || len >= sizeof buf ||
	    !isxdigit((unsigned char)v[0]))
		return -1;
	memcpy(buf, v, len);
	buf[len] = '\0';
	errno = 0;
	unsigned long n = strtoul(buf, &end, 16);
	if (errno != 0 || *end != '\0' || n > max)
		return -1;
	return (long)n;
}

/* ARM: the first processor's implementer and part (each processor has
 * them, and old kernels print them once after the processors), and the
 * architecture's leading digits (arm Linux prints "7", or "5TEJ" on old
 * CPUs). */
static int arm_from_cpuinfo(struct rc4_cpu *cpu, const char *arch,
			    const char *text)
{
	size_t ilen = 0, plen = 0, alen = 0;
	const char *i = field(text, "CPU implementer", &ilen);
	const char *p = field(text, "CPU part", &plen);
	const char *a = field(text, "CPU architecture", &alen);
	long implementer = hex(i, ilen, 0xff), part = hex(p, plen, 0xfff);
	int architecture = 0;

	if (implementer < 0 || part < 0)
		return -1;
	if (strcmp(arch, "arm64") == 0)
		architecture = 8;
	else
		for (size_t k = 0; a != NULL && k < alen && k < 4 &&
				   isdigit((unsigned char)a[k]);
		     k++)
			architecture = architecture * 10 + (a[k] - '0');
	arm_identity(cpu, arch, (unsigned)implementer, architecture,
		     (unsigned)part);
	return 0;
}

/* s390x: vendor_id ("IBM/S390") and the machine type of the first
 * "processor N: version = ..,  identification = ..,  machine = NNNN"
 * line (hex digits, "%04X" in the kernel). */
static int s390_from_cpuinfo(struct rc4_cpu *cpu, const char *text)
{
	size_t vlen = 0;
	const char *vendor = field(text, "vendor_id", &vlen);
	const char *m = NULL;

	for (const char *line = text; *line != '\0' && m == NULL;) {
		size_t n = strcspn(line, "\n");
		if (strncmp(line, "processor ", 10) == 0) {
			const char *at = strstr(line, "machine = ");
			if (at != NULL && at < line + n)
				m = at + 10;
		}
		line += n + (line[n] == '\n');
	}
	if (vendor == NULL || vlen == 0 || m == NULL)
		return -1;
	long machine = hex(m, strspn(m, "0123456789abcdefABCDEF"), 0xffff);
	if (machine < 0)
		return -1;
	memset(cpu, 0, sizeof *cpu);
	snprintf(cpu->vendor, sizeof cpu->vendor, "%.*s", (int)vlen, vendor);
	cpu->model = (int)machine;
	cpu->model_hex = 4;
	return 0;
}

int rc4_cpu_from_cpuinfo(struct rc4_cpu *cpu, const char *arch,
			 const char *text)
{
	if (strcmp(arch, "arm64") == 0 || strcmp(arch, "arm") == 0)
		return arm_from_cpuinfo(cpu, arch, text);
	if (strcmp(arch, "s390x") == 0)
		return s390_from_cpuinfo(cpu, text);
	return -1;
}

void rc4_cpu_from_machine(struct rc4_cpu *cpu, const char *machine)
{
	memset(cpu, 0, sizeof *cpu);
	snprintf(cpu->vendor, sizeof cpu->vendor, "%.*s",
		 (int)sizeof cpu->vendor - 1,
		 machine != NULL && *machine != '\0' ? machine : "unknown");
}

/* --- the live CPU ---------------------------------------------------- */

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>

int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why)
{
	unsigned max, eax, ebx, ecx, edx;

	if (__get_cpuid(0, &max, &ebx, &ecx, &edx) == 0 || max < 1) {
		memset(cpu, 0, sizeof *cpu);
		*why = "CPUID leaf 1 not available";
		return -1;
	}
	uint32_t vendor[3] = { ebx, edx, ecx };
	__cpuid(1, eax, ebx, ecx, edx);
	rc4_cpu_decode(cpu, vendor, eax);
	cpu->source = "CPUID";
	return 0;
}

#else

/* The architecture whose /proc/cpuinfo fields this build reads. */
#if defined(__aarch64__)
#define CPUINFO_ARCH "arm64"
#elif defined(__arm__)
#define CPUINFO_ARCH "arm"
#elif defined(__s390x__)
#define CPUINFO_ARCH "s390x"
#endif

/* Up to MAX bytes of PATH, cut after its last whole line when longer,
 * malloc'ed; NULL when it cannot be read or holds no whole line. */
static char *lines_of(const char *path, size_t max)
{
	size_t len = 0;
	bool more = false;
	char *text = rc4_read_file(path, max, &len, &more);

	if (text != NULL && more) {
		char *nl = memrchr(text, '\n', len);
		len = nl != NULL ? (size_t)(nl - text) + 1 : 0;
		text[len] = '\0';
	}
	if (text != NULL && len == 0) {
		free(text);
		text = NULL;
	}
	return text;
}

#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP_CPUID
#define HWCAP_CPUID (1UL << 11)
#endif

/* cpu0's MIDR_EL1 as the kernel shows it (Linux 4.11 on).  Before the
 * mrs instruction: on a big.LITTLE system mrs reads the MIDR of whichever
 * core the thread runs on, so the library and the tuner could disagree. */
static int midr_sysfs(uint64_t *midr)
{
	char *end, *text = lines_of(
		"/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", 63);

	if (text == NULL)
		return -1;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 16);
	int ok = errno == 0 && end != text && (*end == '\n' || *end == '\0');
	free(text);
	if (!ok)
		return -1;
	*midr = v;
	return 0;
}
#endif

/* The first processor's lines are in the first few hundred bytes (s390x:
 * after the summary, a line per processor). */
#define CPUINFO_MAX 16384

int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why)
{
	struct utsname u;

	(void)why;
#if defined(__aarch64__)
	uint64_t midr;
	if (midr_sysfs(&midr) == 0) {
		rc4_cpu_from_midr(cpu, midr);
		cpu->source = "cpu0's midr_el1 in sysfs";
		return 0;
	}
#endif
#ifdef CPUINFO_ARCH
	char *text = lines_of("/proc/cpuinfo", CPUINFO_MAX);
	int found = text != NULL &&
		    rc4_cpu_from_cpuinfo(cpu, CPUINFO_ARCH, text) == 0;
	free(text);
	if (found) {
		cpu->source = "/proc/cpuinfo";
		return 0;
	}
#endif
#if defined(__aarch64__)
	/* HWCAP_CPUID: the kernel emulates reads of the ID registers (and
	 * qemu-user has them) */
	if (getauxval(AT_HWCAP) & HWCAP_CPUID) {
		__asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
		rc4_cpu_from_midr(cpu, midr);
		cpu->source = "MIDR_EL1, read by mrs";
		return 0;
	}
#endif
	rc4_cpu_from_machine(cpu, uname(&u) == 0 ? u.machine : NULL);
	cpu->source = "the kernel shows no CPU identity: uname's machine";
	return 0;
}

#endif
