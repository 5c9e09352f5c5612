/* SPDX-License-Identifier: MIT */
/* sectionname.h - the names of rc4tune.conf's sections, which the library
 * and the tuner share: which section is a CPU's (the one identity) and
 * what kind a section is.  Whole sections are the tuner's (section.h). */
#ifndef RC4_SECTIONNAME_H
#define RC4_SECTIONNAME_H

#include <stdbool.h>
#include <stddef.h>
#include "cpu.h"
#include "inibuild.h"

/* The section name of CPU: "cpu VENDOR FAMILY MODEL" (cpu.h's identity,
 * blanks in the vendor string made '_'). */
void rc4_section_name(const struct rc4_cpu *cpu, char buf[RC4_SECTION_MAX]);

/* A header's name, the N bytes at RAW between '[' and ']' as inih keeps
 * them, as every reader takes it: without blanks at either end, into OUT
 * (cut to RC4_CONF_MAX_SECTION bytes, which the reader refuses anyway). */
void rc4_section_key(const char *raw, size_t n,
		     char out[RC4_CONF_MAX_SECTION + 1]);

/* This CPU identified (cpu.h) into CPU, and its section's name into
 * NAME: 0, or -1 with *WHY saying why it is not known (NAME is then ""). */
int rc4_section_here(struct rc4_cpu *cpu, char name[RC4_SECTION_MAX],
		     const char **why);

/* Whether NAME is a CPU's section name as rc4_section_name writes them on
 * any architecture: "cpu VENDOR FAMILY MODEL", single spaces, numbers in
 * decimal without leading zeros or as 0x and lowercase hex digits. */
bool rc4_section_cpu_ok(const char *name);

/* The kinds of section (rc4tune.conf(5)). */
enum rc4_section_kind {
	RC4_SECTION_OTHER,   /* none of these: the library ignores it */
	RC4_SECTION_PIN,     /* [pin]: the sysadmin's, outranks the rest */
	RC4_SECTION_DEFAULT, /* [default]: for CPUs with no section */
	RC4_SECTION_CPU,     /* [cpu ...]: some CPU's, matched by its name */
	/* Not a CPU's to the library, but meant as one: its first word is
	 * "cpu" in another case, or without a blank after it. */
	RC4_SECTION_CPU_LIKE,
};

/* The kind of the section NAME (a key as rc4_section_key makes it). */
enum rc4_section_kind rc4_section_kind(const char *name);

#endif

