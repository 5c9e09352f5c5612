/* record.h - the machine-read record at the head of each section the tuner
 * writes (rc4tune.conf(5), THE RECORD): by whom and when, each key's
 * confidence and why, a short history of the leading kernels' scores, and
 * a checksum that tells the tuner's unchanged sections from a person's.
 *
 *   [cpu AuthenticAMD 25 17]
 *   ;@ rc4tune v=1 at=2026-12-01T00:23:05Z by=0.1.0 sum=0123456789abcdef
 *   ;@ result key=kernel value=char-16x-sse41 confidence=high why=-
 *   ;@ history key=kernel at=2026-12-01T00:23:05Z confidence=high scores=char-16x-sse41:1.000,...
 *
 * Record lines are comments to inih.  Each is a type word, then NAME=VALUE
 * fields; fields a reader does not know are skipped, so later versions
 * can add some. */
#ifndef RC4_RECORD_H
#define RC4_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "kernels/kernel.h"

#define RECORD_VERSION 1
#define RECORD_PREFIX ";@ "
/* Runs a key's history keeps, newest first, and kernels each run lists:
 * a few lines of under 200 bytes per key, so a fleet's file stays far
 * below the size limit. */
#define RECORD_RUNS 4
#define RECORD_LEADERS 4
#define RECORD_NAME_MAX 40
#define RECORD_TIME_MAX 21 /* "2026-12-01T00:23:05Z" */

/* Whose a section is. */
enum record_owner {
	RECORD_TUNER,  /* a record whose checksum matches */
	RECORD_HAND,   /* no record: written by a person */
	RECORD_EDITED, /* a record whose checksum no longer matches */
};

/* One earlier run of one key: scores relative to that run's best. */
struct record_run {
	char at[RECORD_TIME_MAX];
	bool uncertain;
	int n;
	struct record_score {
		char name[RECORD_NAME_MAX];
		double score;
	} lead[RECORD_LEADERS];
};

struct record {
	enum record_owner owner;
	char at[RECORD_TIME_MAX], by[RECORD_NAME_MAX];
	struct record_key {
		bool present; /* a result line for this key */
		char value[RECORD_NAME_MAX];
		bool uncertain;
		char why[RECORD_NAME_MAX]; /* reason codes, "-" if none */
		int nruns;
		struct record_run run[RECORD_RUNS];
	} key[RC4K_KINDS];
};

/* Read the record of the section SEC (LEN bytes, from its header line to
 * the end of the section, as merge_find gives it). */
void record_parse(const char *sec, size_t len, struct record *r);

/* The record lines of R for a section written now (at AT), with a
 * checksum of zeros: record_seal puts the real one in once the whole
 * section is written. */
void record_write(FILE *f, const struct record *r, const char *at);

/* Put the checksum into the record of the section SEC (LEN bytes, as
 * record_write and the keys left it). */
void record_seal(char *sec, size_t len);

/* Call FN for each section of the file BUF (LEN bytes), in order, with
 * its header's line and trimmed name and its record. */
void record_walk(const char *buf, size_t len,
		 void (*fn)(void *arg, int line, const char *name,
			    const struct record *r),
		 void *arg);

/* The current time as the record writes it. */
void record_now(char at[RECORD_TIME_MAX]);

/* Whose a section is, in words ("the tuner's", ...). */
const char *record_owner_name(enum record_owner o);

#endif
