/* report.h - what the tuner shows of a measurement: a progress line, the
 * `openssl speed`-shaped table, JSON, and the config section text. */
#ifndef RC4_REPORT_H
#define RC4_REPORT_H

#include <stdio.h>
#include "batchtune.h"
#include "measure.h"

/* A measure_progress callback: one line on stderr, rewritten in place. */
void report_progress(void *ctx, const struct measurement *m, double elapsed,
		     double budget);

/* Erase the progress line. */
void report_progress_end(void);

/* The table (rows = kernels, columns = block sizes in 1000s of bytes per
 * second, keys per second, ratio to the winner) and a few lines saying
 * what was measured and how sure the pick is; every line starts with
 * PREFIX. */
void report_table(FILE *f, const char *prefix, const struct measurement *m);

/* The same as one JSON object, with a "batch" member for BM (NULL: the
 * batch kernels were not measured, no member).  CPU is the config section
 * name of this CPU, or NULL when it could not be identified. */
void report_json(FILE *f, const struct measurement *m,
		 const struct batch_measurement *bm, const char *cpu);

/* The config section for CPU: its header line, comment lines (date,
 * version, workload, table, confidence), the batch kernels' table and
 * `batch_kernel = NAME` (BM; NULL: none), then `kernel = NAME` last. */
void report_section(FILE *f, const char *cpu, const struct measurement *m,
		    const struct batch_measurement *bm);

#endif
