/* cpu.c - CPU identification through libcpuid (x86 only).  Only vendor,
 * display family/model and a few flags are kept: codename strings are stale
 * for new CPUs, and the 4-bit base model is ambiguous. */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "cpu.h"

#ifdef HAVE_LIBCPUID
#include <libcpuid.h>

static int decode(struct rc4_cpu *cpu, struct cpu_raw_data_t *raw,
		  const char **why)
{
	struct cpu_id_t id;

	if (cpu_identify(raw, &id) != 0) {
		*why = cpuid_error();
		return -1;
	}
	memset(cpu, 0, sizeof *cpu);
	snprintf(cpu->vendor, sizeof cpu->vendor, "%s", id.vendor_str);
	cpu->family = id.ext_family;
	cpu->model = id.ext_model;
	cpu->cores = id.num_cores;
	cpu->ht = id.flags[CPU_FEATURE_HT];
	cpu->sse2 = id.flags[CPU_FEATURE_SSE2];
	cpu->avx2 = id.flags[CPU_FEATURE_AVX2];
	cpu->bmi2 = id.flags[CPU_FEATURE_BMI2];
	return 0;
}

int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why)
{
	struct cpu_raw_data_t raw;

	if (!cpuid_present()) {
		*why = "no CPUID instruction";
		return -1;
	}
	if (cpuid_get_raw_data(&raw) != 0) {
		*why = cpuid_error();
		return -1;
	}
	return decode(cpu, &raw, why);
}

/* libcpuid prints a warning on stderr for every line of a dump it does
 * not understand (one per line of /etc/passwd): keep the first only, to
 * say why a file is not a dump. */
static char first_warning[160];

static void keep_first_warning(const char *msg)
{
	/* "Warning: file 'F', line N: 'TEXT' not understood!\n": from
	 * "line", as the caller names the file */
	const char *from = strstr(msg, "line ");

	if (first_warning[0] != '\0')
		return;
	snprintf(first_warning, sizeof first_warning, "%.*s",
		 (int)strcspn(from ? from : msg, "\n"), from ? from : msg);
	/* the line quoted may be any bytes: only printable ASCII reaches
	 * the terminal */
	for (char *c = first_warning; *c != '\0'; c++)
		if ((unsigned char)*c < ' ' || (unsigned char)*c > '~')
			*c = '?';
}

int rc4_cpu_from_dump(struct rc4_cpu *cpu, const char *path, const char **why)
{
	static char reason[sizeof first_warning + 64];
	struct cpu_raw_data_t raw;

	first_warning[0] = '\0';
	libcpuid_warn_fn_t old = cpuid_set_warn_function(keep_first_warning);
	int rc = cpuid_deserialize_raw_data(&raw, path);
	cpuid_set_warn_function(old);
	if (rc != 0) {
		*why = cpuid_error();
		return -1;
	}
	/* leaf 0 (the highest leaf, the vendor) is in every dump libcpuid
	 * writes; the reader leaves what it did not find zero */
	static const uint32_t absent[4];
	if (memcmp(raw.basic_cpuid[0], absent, sizeof absent) == 0) {
		snprintf(reason, sizeof reason,
			 "not a libcpuid raw CPUID dump (%s)",
			 first_warning[0] ? first_warning
					  : "no basic_cpuid[0] line");
		*why = reason;
		return -1;
	}
	if (decode(cpu, &raw, why) != 0) {
		snprintf(reason, sizeof reason,
			 "libcpuid cannot identify the CPU of this dump: %s",
			 *why);
		*why = reason;
		return -1;
	}
	return 0;
}

#else

int rc4_cpu_identify(struct rc4_cpu *cpu, const char **why)
{
	memset(cpu, 0, sizeof *cpu);
	*why = "built without libcpuid (not an x86 build)";
	return -1;
}

int rc4_cpu_from_dump(struct rc4_cpu *cpu, const char *path, const char **why)
{
	(void)path;
	return rc4_cpu_identify(cpu, why);
}

#endif

/* Intel SDM vol. 2A (CPUID, "Version Information") and AMD APM vol. 3
 * agree: the extended family is added only to base family 15, the extended
 * model is prefixed only for base family 6 or 15.  libcpuid computes the
 * same for every dump tried (tests compare the two). */
void rc4_cpu_decode(struct rc4_cpu *cpu, const uint32_t vendor[3],
		    uint32_t leaf1_eax)
{
	int base_family = (leaf1_eax >> 8) & 0xf;
	int model = (leaf1_eax >> 4) & 0xf;

	memset(cpu, 0, sizeof *cpu);
	memcpy(cpu->vendor, vendor, 12);
	cpu->family = base_family;
	if (base_family == 15)
		cpu->family += (leaf1_eax >> 20) & 0xff;
	if (base_family == 6 || base_family == 15)
		model |= ((leaf1_eax >> 16) & 0xf) << 4;
	cpu->model = model;
}

#if defined(__i386__) || defined(__x86_64__)
#include <cpuid.h>

int rc4_cpu_signature(struct rc4_cpu *cpu, const char **why)
{
	unsigned max, eax, ebx, ecx, edx;

	if (__get_cpuid(0, &max, &ebx, &ecx, &edx) == 0 || max < 1) {
		*why = "CPUID leaf 1 not available";
		return -1;
	}
	uint32_t vendor[3] = { ebx, edx, ecx };
	__cpuid(1, eax, ebx, ecx, edx);
	rc4_cpu_decode(cpu, vendor, eax);
	return 0;
}
#else
int rc4_cpu_signature(struct rc4_cpu *cpu, const char **why)
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
void rc4_cpu_section(const struct rc4_cpu *cpu, char *buf, unsigned size)
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
	snprintf(buf, size, "cpu %s %d %d", vendor, cpu->family, cpu->model);
}
