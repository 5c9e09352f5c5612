/* SPDX-License-Identifier: MIT */
/* record.h - the record of a section the tuner writes (its grammar:
 * rc4tune.conf(5), THE RECORD): read from a section's bytes, and the
 * section's text built from it and sealed with its checksum.  One grammar
 * both ways: a sealed record is the tuner's only when rc4_section_build
 * writes exactly its record and key lines from the values read. */
#ifndef RC4_RECORD_H
#define RC4_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include "kernels/kernel.h"

/* A record with neither a size split nor basis lines stays format 1,
 * byte for byte, so that earlier versions read it as before. */
#define RC4_RECORD_VERSION 1
#define RC4_RECORD_VERSION_SPLIT 2
#define RC4_RECORD_VERSION_BASIS 3
#define RC4_RECORD_PREFIX ";@ "
/* Runs a key's history keeps, newest first, and kernels each run lists:
 * a few lines per key under the reader's line limit, so a fleet's file
 * stays far below the size limit. */
#define RC4_RECORD_RUNS 4
#define RC4_RECORD_LEADERS 4
#define RC4_RECORD_NAME_MAX 40
#define RC4_RECORD_TIME_MAX 21 /* "2026-12-01T00:23:05Z" */
/* Cells a split line lists: those below its threshold, of the six the
 * single kind is timed on. */
#define RC4_RECORD_SPLIT_CELLS 5

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
		/* What the confidence rests on (decide.h, struct choice);
		 * lower < 0: no other kernel was in the final. */
		struct rc4_record_basis {
			bool present;
			double lower, window;
			int finalists, rounds;
		} basis;
		int nruns;
		struct rc4_record_run run[RC4_RECORD_RUNS];
	} key[RC4K_KINDS];
	/* The single kind's size split, and the figures it was written on
	 * (decide.h, struct split): each cell below, by its bytes, with the
	 * short kernel's rate over the kernel's; the score's gain. */
	struct rc4_record_split {
		bool present;
		char value[RC4_RECORD_NAME_MAX]; /* short_kernel */
		unsigned long below;             /* short_below */
		double gain;
		int n;
		struct rc4_record_cell {
			unsigned long bytes;
			double ratio;
		} cell[RC4_RECORD_SPLIT_CELLS];
	} split;
};

/* The record of the section whose LEN bytes at TEXT start with its
 * header line, and whose it is by it. */
void rc4_record_parse(const char *text, size_t len, struct rc4_record *r);

/* Whose a section is, in words ("the tuner's", "a person's: ..."). */
const char *rc4_owner_name(enum rc4_owner o);

/* The current time as the record writes it. */
void rc4_record_now(char at[RC4_RECORD_TIME_MAX]);

/* --- A section's text from its record. */

/* The bytes of a section the tuner writes for NAME: its header, R's
 * record lines (by this version when R->by is ""), COMMENT (whole ';'
 * lines; may be NULL), then R's key lines, `kernel = NAME` last; sealed.
 * Malloc'ed and NUL-terminated, *LEN bytes (LEN may be NULL); NULL when
 * out of memory. */
char *rc4_section_build(const char *name, const struct rc4_record *r,
			const char *comment, size_t *len);

/* Put the checksum of the section TEXT (LEN bytes, its header line first)
 * into its record's "rc4tune" line, as rc4_section_build does: for a
 * section whose record was written otherwise. */
void rc4_section_seal(char *text, size_t len);

#endif
