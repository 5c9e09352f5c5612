/* SPDX-License-Identifier: MIT */
/* report.h - what the tuner shows of its measurements: a progress line,
 * the `openssl speed`-shaped tables, JSON, and the config section text. */
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

/* M's table (rows = kernels, columns = its kind's cells, cycles per byte,
 * ratio to C's kernel, this run's choice) and a few lines saying what was
 * measured and how sure C is, then NOTE (may be NULL or ""): how the
 * section's history weighed; every line starts with PREFIX. */
void report_table(FILE *f, const char *prefix, const struct measurement *m,
		  const struct choice *c, const char *note);

/* The measurements of each kind (M[kind]; a NULL member was not
 * measured) with this run's choice of each (C[kind]) as one JSON object.
 * CPU is the config section name of this CPU, or NULL when it could not
 * be identified; WRITTEN[kind] the kernel written to the config (WRITTEN
 * or a member NULL: none). */
void report_json(FILE *f, const struct measurement *const m[RC4K_KINDS],
		 const struct choice c[RC4K_KINDS], const char *cpu,
		 const char *const written[RC4K_KINDS]);

/* The comment lines of a section the tuner writes (rc4_section_build):
 * the version, then each kind's table (M[kind]; NULL: not measured; C as
 * report_table's) with its NOTE. */
void report_comment(FILE *f, const struct measurement *const m[RC4K_KINDS],
		    const struct choice c[RC4K_KINDS],
		    const char *const note[RC4K_KINDS]);

#endif
