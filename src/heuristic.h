/* heuristic.h - the CPUID heuristic: a table of rules, each citing its
 * evidence, used when no config applies (and by the tuner to break ties). */
#ifndef RC4_HEURISTIC_H
#define RC4_HEURISTIC_H

#include "cpu.h"

/* The kernel name the rules give for CPU, or NULL when no rule matches.
 * *RULE (if not NULL) gets a one-line description of the rule that fired
 * (or of why none did). */
const char *rc4_heuristic(const struct rc4_cpu *cpu, const char **rule);

#endif
