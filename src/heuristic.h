/* heuristic.h - the CPUID heuristic: tables of rules, each citing its
 * evidence, used when no config applies (and by the tuner to break ties). */
#ifndef RC4_HEURISTIC_H
#define RC4_HEURISTIC_H

#include "cpu.h"
#include "kernels/kernel.h"

/* The name of the kernel of KIND that the rules give for CPU (NULL: not
 * identified), whether or not this build has it, or NULL when no rule
 * matches.  *RULE (if not NULL) gets a one-line description of the rule
 * that fired (or of why none did). */
const char *rc4_heuristic_rule(enum rc4k_kind kind, const struct rc4_cpu *cpu,
			       const char **rule);

/* The same, but only a kernel this build has: NULL also when the rule's
 * kernel is not in this build (x86-64 assembly elsewhere). */
const char *rc4_heuristic(enum rc4k_kind kind, const struct rc4_cpu *cpu,
			  const char **rule);

#endif
