/* SPDX-License-Identifier: MIT */
/* result.h - a run's result into the config, under the writer's lock
 * (tune.c takes it): each key's choice (decide.h) weighed with this CPU's
 * section, the section built and put into the file's bytes, or the file
 * kept; then the check that the library reads what was written. */
#ifndef RC4_RESULT_H
#define RC4_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include "decide.h"
#include "measure.h"
#include "section.h"

struct result {
	/* What the run measured, and where it goes. */
	const char *section; /* this CPU's */
	const char *path;    /* the config, as the library reads it */
	char at[RC4_RECORD_TIME_MAX]; /* when the record says it was written */
	/* Per kind, every kernel's figures (NULL: not measured). */
	const struct measurement *const *got;
	const struct decision *run;   /* this run alone: its tables */
	const char *const *heuristic; /* per kind: the rule's kernel */
	/* The single-stream kernel whose keys the batch kinds run, when the
	 * single kind is not measured. */
	const struct rc4k *single;
	bool force;          /* replace a person's section too */
	/* What result_text decided, once per pass. */
	struct decision dec; /* decide_calls' */
	const char *kept;    /* why the file was kept; NULL: written */
	int kept_line;       /* the section that kept it */
	bool kept_surer;     /* kept as more confident, not as a person's */
	/* The file's new bytes as result_text made them (the caller owns
	 * them): what result_check checks. */
	const char *text;
	size_t text_len;
};

/* SECTION's section of the file OLD (LEN bytes) as the tuner's prior, in
 * *SEC: its record when the tuner wrote it, else NULL (none, or a
 * person's; THEIRS: a person's duplicate, its line 0 if none). */
const struct rc4_record *result_prior(const char *old, size_t len,
				      const char *section,
				      struct rc4_section *sec,
				      struct rc4_section *theirs);

/* The file OLD (LEN bytes) with this run's section: decided (every key
 * at once, decide_calls, weighed with the section's record), built and
 * sealed; the new bytes, malloc'ed, *OUTLEN of them (also R->text until
 * they are freed), or NULL to keep the file: R->kept says why, and *ERR
 * is set on a failure, said on stderr. */
char *result_text(struct result *r, const char *old, size_t len,
		  size_t *outlen, bool *err);

/* 0 when the library trusts PATH and would take every kernel and the
 * split decided from R->text (not read again), else -1 after saying what
 * it reads instead. */
int result_check(const struct result *r, const char *path);

/* Why a key's result is uncertain, or NULL when each is confident. */
const char *result_doubt(const struct result *r);

#endif
