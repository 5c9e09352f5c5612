/* SPDX-License-Identifier: MIT */
/* section.h - the sections of rc4tune.conf, in one place: which section is
 * a CPU's (the one identity) and what kind a section is, sections found in
 * a file's bytes and read into their keys and their record (record.h),
 * and a section put back: old bytes in, new bytes out.  The library's
 * reader, the tuner's writer and merges, --explain and --check-conf all go
 * through it.  Implemented by section.c; record.c implements record.h. */
#ifndef RC4_SECTION_H
#define RC4_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include "cpu.h"
#include "inibuild.h"
#include "kernels/kernel.h"
#include "record.h"

/* --- The identity: which section is a CPU's. */

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

/* --- What a section is. */

/* The kinds of section the format has (rc4tune.conf(5)). */
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

/* Whether the header name RAW (N bytes) names the section NAME: its key is
 * NAME byte for byte ("[cpu  X 6 15]", two blanks, is another section). */
bool rc4_section_is(const char *raw, size_t n, const char *name);

/* --- Sections in a file's bytes. */

/* One section of a file: from its header line up to the next header. */
struct rc4_section {
	const char *text; /* in the file's bytes */
	size_t len;
	int line;         /* its header's line, from 1 */
	const char *path; /* its file, as rc4_sections_collect was told */
	char name[RC4_CONF_MAX_SECTION + 1]; /* rc4_section_key's */
	/* The last line of each kind's key (rc4k_kinds[].key) in it, and its
	 * value as inih reads it; "" and 0 when there is none. */
	struct rc4_section_value {
		char value[RC4_CONF_MAX_LINE + 1];
		int line;
	} key[RC4K_KINDS];
	struct rc4_record record;
};

/* Read the section whose LEN bytes at TEXT start with its header line (as
 * rc4_section_walk gives them), LINE the header's line in its file. */
void rc4_section_parse(const char *text, size_t len, int line,
		       struct rc4_section *s);

/* Call FN with each section of the file BUF (LEN bytes), in order. */
typedef void rc4_section_fn(void *arg, const struct rc4_section *s);
void rc4_section_walk(const char *buf, size_t len, rc4_section_fn *fn,
		      void *arg);

/* Sections kept from files' bytes, in order, in an array that doubles:
 * S[0..N).  Their text points into the bytes they came from. */
struct rc4_sections {
	struct rc4_section *s;
	size_t n, cap;
	bool failed; /* out of memory: some were not kept */
};

/* Keep in SS each section of the file PATH, whose bytes are BUF (LEN
 * bytes), that KEEP (may be NULL: all) says to keep.  Returns 0, or -1
 * when out of memory (SS->failed). */
typedef bool rc4_section_keep_fn(void *arg, const struct rc4_section *s);
int rc4_sections_collect(struct rc4_sections *ss, const char *buf,
			 size_t len, const char *path,
			 rc4_section_keep_fn *keep, void *arg);

void rc4_sections_free(struct rc4_sections *ss);

/* The sections of BUF (LEN bytes) named NAME: how many there are; FIRST
 * (may be NULL) gets the first, THEIRS (may be NULL) the first that is
 * not the tuner's (theirs->line 0 when none is): a later duplicate speaks
 * too, since the library reads its keys last. */
int rc4_section_find(const char *buf, size_t len, const char *name,
		     struct rc4_section *first, struct rc4_section *theirs);

/* OLD (LEN bytes, any bytes) with the section named NAME replaced by TEXT
 * (a whole section: header line first, '\n' line ends, which it keeps in
 * a file with "\r\n" ones too: the library counts a '\r' in a line's
 * length, and reads either), or TEXT appended when there is none.  Later sections of that name are removed, with a warning on
 * stderr naming PATH.  A section header indented right after a removed
 * section loses its indent (after a key line inih would read it as part
 * of that value).  Returns a malloc'ed buffer of *OUTLEN bytes, or NULL
 * (out of memory). */
char *rc4_section_replace(const char *old, size_t len, const char *name,
			  const char *text, const char *path, size_t *outlen);

#endif
