/* SPDX-License-Identifier: MIT */
/* sectionname.c - the names of rc4tune.conf's sections (sectionname.h). */
#include <config.h>

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "sectionname.h"

/* A vendor's blanks ("  Shanghai  ", "VIA VIA VIA "): the ends dropped,
 * inner runs one '_', so the name stays three words after "cpu".  A
 * hypervisor may put anything there: a byte not printable or special to
 * INI becomes '_' too. */
void rc4_section_name(const struct rc4_cpu *cpu, char buf[RC4_SECTION_MAX])
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
	if (n == 0) /* all blanks or NULs: still a word */
		vendor[n++] = '_';
	vendor[n] = '\0';
	if (cpu->model_hex != 0)
		snprintf(buf, RC4_SECTION_MAX, "cpu %s %d 0x%0*x", vendor,
			 cpu->family, (int)cpu->model_hex,
			 (unsigned)cpu->model);
	else
		snprintf(buf, RC4_SECTION_MAX, "cpu %s %d %d", vendor,
			 cpu->family, cpu->model);
}

int rc4_section_here(struct rc4_cpu *cpu, char name[RC4_SECTION_MAX],
		     const char **why)
{
	name[0] = '\0';
	if (rc4_cpu_identify(cpu, why) != 0)
		return -1;
	rc4_section_name(cpu, name);
	return 0;
}

/* The number at S in rc4_section_name's spelling: its length, or 0. */
static size_t number_ok(const char *s)
{
	size_t n;

	if (s[0] == '0' && s[1] == 'x') {
		n = strspn(s + 2, "0123456789abcdef");
		return n == 0 || n > 8 ? 0 : n + 2;
	}
	n = strspn(s, "0123456789");
	return n == 0 || n > 9 || (n > 1 && s[0] == '0') ? 0 : n;
}

bool rc4_section_cpu_ok(const char *s)
{
	if (strncmp(s, "cpu ", 4) != 0)
		return false;
	s += 4;
	size_t n = strcspn(s, " ");
	if (n == 0 || s[n] != ' ')
		return false;
	s += n + 1;
	if ((n = number_ok(s)) == 0 || s[n] != ' ')
		return false;
	s += n + 1;
	return (n = number_ok(s)) != 0 && s[n] == '\0';
}

enum rc4_section_kind rc4_section_kind(const char *name)
{
	if (strcmp(name, "pin") == 0)
		return RC4_SECTION_PIN;
	if (strcmp(name, "default") == 0)
		return RC4_SECTION_DEFAULT;
	if (strncmp(name, "cpu ", 4) == 0)
		return RC4_SECTION_CPU;
	if (strncasecmp(name, "cpu", 3) == 0 &&
	    (name[3] == '\0' || isspace((unsigned char)name[3])))
		return RC4_SECTION_CPU_LIKE;
	return RC4_SECTION_OTHER;
}

void rc4_section_key(const char *raw, size_t n,
		     char out[RC4_CONF_MAX_SECTION + 1])
{
	while (n > 0 && isspace((unsigned char)*raw)) {
		raw++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)raw[n - 1]))
		n--;
	snprintf(out, RC4_CONF_MAX_SECTION + 1, "%.*s", (int)n, raw);
}
