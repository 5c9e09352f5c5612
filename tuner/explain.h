/* SPDX-License-Identifier: MIT */
/* explain.h - rc4tune's questions about kernels and the selection: --list,
 * --explain, --heuristic, --section, --check-conf.  Each returns the exit
 * status. */
#ifndef RC4_EXPLAIN_H
#define RC4_EXPLAIN_H

#include <stdbool.h>

/* Every kernel this build compiled, one a line: name, usable, summary. */
int explain_list(void);

/* --explain: the kernel of each kind and the selection's trail, then
 * whose the sections are that speak for this CPU (rc4tune(1)); with JSON,
 * as one JSON object. */
int explain_choice(bool json);

/* The heuristic's kernel, then the rule: for this CPU, or for the raw
 * CPUID dump DUMP (libcpuid's format) when not NULL. */
int explain_heuristic(const char *dump);

/* The section name of this CPU (or of DUMP's), alone on a line: what
 * --generate-conf writes and the library reads. */
int explain_section(const char *dump);

/* Check the config FILE (NULL: the one the library reads): problems as
 * FILE:LINE on stderr; 1 when any is an error. */
int explain_check_conf(const char *file);

#endif
