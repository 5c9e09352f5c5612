/* cpu.c - the CPU's identity: vendor and display family and model, read
 * with two CPUID instructions (each a VM exit under a hypervisor, so not
 * libcpuid's hundred), and the section name the config keys it by. */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cpu.h"

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
	return 0;
}
#else
int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why)
{
	memset(cpu, 0, sizeof *cpu);
	*why = "not an x86 CPU";
	return -1;
}
#endif

/* Some vendor strings have blanks ("  Shanghai  ", "VIA VIA VIA "): the
 * ends are dropped and inner runs become one '_', so the section name
 * stays three words after "cpu".  A hypervisor may put anything there: a
 * byte that is not printable or that INI reads specially becomes '_'. */
void rc4_cpu_section(const struct rc4_cpu *cpu, char buf[RC4_SECTION_MAX])
{
	size_t len = strnlen(cpu->vendor, sizeof cpu->vendor);
	char vendor[sizeof cpu->vendor + 1];
	size_t n = 0;

	while (len > 0 && cpu->vendor[len - 1] == ' ')
		len--;
	for (size_t i = 0; i < len; i++) {
		char c = cpu->vendor[i];
		if (c != ' ')
			vendor[n++] = isgraph((unsigned char)c) &&
					      !strchr("[];#=", c)
					      ? c
					      : '_';
		else if (n > 0 && vendor[n - 1] != '_')
			vendor[n++] = '_';
	}
	vendor[n] = '\0';
	snprintf(buf, RC4_SECTION_MAX, "cpu %s %d %d", vendor, cpu->family,
		 cpu->model);
}
