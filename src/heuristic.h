/* heuristic.h - the CPUID heuristic: tables of rules, each citing its
 * evidence, used when no config applies (and by the tuner to break ties). */
#ifndef RC4_HEURISTIC_H
#define RC4_HEURISTIC_H

#include "cpu.h"
#include "kernels/kernel.h"

/* The kernels of KIND that the rules give for CPU (NULL: not identified),
 * in order of preference, NULL-terminated, whether or not this build has
 * them; or NULL when no rule matches.  *RULE (if not NULL) gets a
 * one-line description of the rule that fired (or of why none did). */
const char *const *rc4_heuristic_rule(enum rc4k_kind kind,
				      const struct rc4_cpu *cpu,
				      const char **rule);

/* The first of them this build has and this CPU can run, or NULL (the
 * library's selection also skips one that fails its self-test). */
const char *rc4_heuristic(enum rc4k_kind kind, const struct rc4_cpu *cpu,
			  const char **rule);

#endif
