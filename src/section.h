/* SPDX-License-Identifier: MIT */
/* section.h - a CPU's section of rc4tune.conf, in one place: which
 * section is whose (the one identity), found in a file's bytes, read into
 * its keys and its record, built and sealed, and put back: old bytes in,
 * new bytes out.  The library's reader, the tuner's writer and merges,
 * --explain and --check-conf all go through it (rc4tune.conf(5), THE
 * RECORD, documents the record's format):
 *
 *   [cpu AuthenticAMD 25 17]
 *   ;@ rc4tune v=1 at=2026-12-01T00:23:05Z by=0.1.0 sum=0123456789abcdef
 *   ;@ result key=kernel value=char-16x-sse41 confidence=high why=-
 *   ;@ history key=kernel at=2026-12-01T00:23:05Z confidence=high scores=char-16x-sse41:1.000,...
 *   kernel = char-16x-sse41
 *
 * Record lines are comments to inih.  Each is a type word, then NAME=VALUE
 * fields; fields a reader does not know are skipped, so later versions
 * can add some. */
#ifndef RC4_SECTION_H
#define RC4_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include "cpu.h"
#include "inibuild.h"
#include "kernels/kernel.h"

/* --- The identity: which section is a CPU's. */

/* The section name of CPU: "cpu VENDOR FAMILY MODEL" (cpu.h's identity,
 * blanks in the vendor string made '_'). */
void rc4_section_name(const struct rc4_cpu *cpu, char buf[RC4_SECTION_MAX]);

/* A header's name, the N bytes at RAW between '[' and ']' as inih keeps
 * them, as every reader takes it: without blanks at either end, into OUT
 * (cut to RC4_CONF_MAX_SECTION bytes, which the reader refuses anyway). */
void rc4_section_key(const char *raw, size_t n,
		     char out[RC4_CONF_MAX_SECTION + 1]);

/* Whether the header name RAW (N bytes) names the section NAME: its key is
 * NAME byte for byte ("[cpu  X 6 15]", two blanks, is another section). */
bool rc4_section_is(const char *raw, size_t n, const char *name);

/* --- The record. */

#define RC4_RECORD_VERSION 1
#define RC4_RECORD_PREFIX ";@ "
/* Runs a key's history keeps, newest first, and kernels each run lists:
 * a few lines per key under the reader's line limit, so a fleet's file
 * stays far below the size limit. */
#define RC4_RECORD_RUNS 4
#define RC4_RECORD_LEADERS 4
#define RC4_RECORD_NAME_MAX 40
#define RC4_RECORD_TIME_MAX 21 /* "2026-12-01T00:23:05Z" */

/* Whose a section is.  Only the tuner's may a tuner run replace. */
enum rc4_owner {
	RC4_OWNER_TUNER,     /* a record whose checksum matches */
	RC4_OWNER_HAND,      /* no record: written by a person */
	RC4_OWNER_EDITED,    /* a record whose checksum no longer matches */
	RC4_OWNER_UNTRUSTED, /* a record with values rc4tune never writes */
};

/* One earlier run of one key: scores relative to that run's best, each
 * finite and in (0, 1]. */
struct rc4_record_run {
	char at[RC4_RECORD_TIME_MAX];
	bool uncertain;
	int n;
	struct rc4_record_score {
		char name[RC4_RECORD_NAME_MAX];
		double score;
	} lead[RC4_RECORD_LEADERS];
};

struct rc4_record {
	enum rc4_owner owner;
	char at[RC4_RECORD_TIME_MAX], by[RC4_RECORD_NAME_MAX];
	struct rc4_record_key {
		bool present; /* a result line for this key */
		char value[RC4_RECORD_NAME_MAX];
		bool uncertain;
		char why[RC4_RECORD_NAME_MAX]; /* reason codes, "-" if none */
		int nruns;
		struct rc4_record_run run[RC4_RECORD_RUNS];
	} key[RC4K_KINDS];
};

/* The record of the section whose LEN bytes at TEXT start with its
 * header line, and whose it is by it. */
void rc4_record_parse(const char *text, size_t len, struct rc4_record *r);

/* Whose a section is, in words ("the tuner's", "a person's: ..."). */
const char *rc4_owner_name(enum rc4_owner o);

/* The current time as the record writes it. */
void rc4_record_now(char at[RC4_RECORD_TIME_MAX]);

/* --- Sections in a file's bytes. */

/* One section of a file: from its header line up to the next header. */
struct rc4_section {
	const char *text; /* in the file's bytes */
	size_t len;
	int line;         /* its header's line, from 1 */
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

/* The sections of BUF (LEN bytes) named NAME: how many there are; FIRST
 * (may be NULL) gets the first, THEIRS (may be NULL) the first that is
 * not the tuner's (theirs->line 0 when none is): a later duplicate speaks
 * too, since the library reads its keys last. */
int rc4_section_find(const char *buf, size_t len, const char *name,
		     struct rc4_section *first, struct rc4_section *theirs);

/* The bytes of a section the tuner writes for NAME: its header, R's
 * record lines (R->at; by this version), COMMENT (whole lines, each
 * starting with ';'; may be NULL), then for each key R has a result for,
 * KEY = VALUE, `kernel = NAME` last; sealed with its checksum.  A history
 * line keeps as many of its leaders as fit the reader's line limit.
 * Malloc'ed and NUL-terminated, *LEN bytes (LEN may be NULL); NULL when
 * out of memory. */
char *rc4_section_build(const char *name, const struct rc4_record *r,
			const char *comment, size_t *len);

/* Put the checksum of the section TEXT (LEN bytes, its header line first)
 * into its record's "rc4tune" line, as rc4_section_build does: for a
 * section whose record was written otherwise. */
void rc4_section_seal(char *text, size_t len);

/* OLD (LEN bytes, any bytes) with the section named NAME replaced by TEXT
 * (a whole section: header line first, '\n' line ends; they become "\r\n"
 * in a file whose first line ends so), or TEXT appended when there is
 * none.  Later sections of that name are removed, with a warning on
 * stderr naming PATH.  A section header indented right after a removed
 * section loses its indent (after a key line inih would read it as part
 * of that value).  Returns a malloc'ed buffer of *OUTLEN bytes, or NULL
 * (out of memory). */
char *rc4_section_replace(const char *old, size_t len, const char *name,
			  const char *text, const char *path, size_t *outlen);

#endif
