/* SPDX-License-Identifier: MIT */
/* report.h - what the tuner shows of its measurements (rc4tune(1),
 * OUTPUT). */
#ifndef RC4_REPORT_H
#define RC4_REPORT_H

#include <stdio.h>
#include "decide.h"
#include "measure.h"
#include "section.h" /* RC4_RECORD_PREFIX */

/* A measure_progress callback: one line on stderr, rewritten in place. */
void report_progress(const struct measurement *m, double elapsed,
		     double budget);

/* Erase the progress line. */
void report_progress_end(void);

/* M's table and how sure C is, then NOTE (may be NULL), each line after
 * PREFIX. */
void report_table(FILE *f, const char *prefix, const struct measurement *m,
		  const struct choice *c, const char *note);

/* Each kind measured (M[kind] not NULL) and its choice as one JSON
 * object; CPU (may be NULL) this CPU's section name; WRITTEN[kind] (it
 * or a member may be NULL) the kernel written. */
void report_json(FILE *f, const struct measurement *const m[RC4K_KINDS],
		 const struct choice c[RC4K_KINDS], const char *cpu,
		 const char *const written[RC4K_KINDS]);

/* The comment lines of a section the tuner writes: the version, then
 * each kind's table. */
void report_comment(FILE *f, const struct measurement *const m[RC4K_KINDS],
		    const struct choice c[RC4K_KINDS],
		    const char *const note[RC4K_KINDS]);

#endif
