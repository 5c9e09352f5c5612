/* heuristic.h - the CPUID heuristic: tables of rules, each citing its
 * evidence, used when no config applies (and by the tuner to break ties). */
#ifndef RC4_HEURISTIC_H
#define RC4_HEURISTIC_H

#include <stdbool.h>
#include "cpu.h"
#include "kernels/kernel.h"

/* The kernels of KIND that the rules give for CPU (NULL: not identified),
 * in order of preference, NULL-terminated, whether or not this build has
 * them; or NULL when no rule matches.  *RULE (if not NULL) gets a
 * one-line description of the rule that fired (or of why none did). */
const char *const *rc4_heuristic_rule(enum rc4k_kind kind,
				      const struct rc4_cpu *cpu,
				      const char **rule);

/* How a walk looks a kernel up (rc4k_find; tests add broken kernels). */
typedef const struct rc4k_info *rc4_find_fn(enum rc4k_kind kind,
					    const char *name);

/* Told of each kernel of the rule that a walk passes over, and why;
 * MORE: another kernel of the rule follows. */
typedef void rc4_skip_fn(void *arg, const char *name, const char *why,
			 bool more);

/* The one walk from the rule for CPU to a kernel of KIND, for the
 * library's selection, the tuner, --heuristic and --explain alike: the
 * rule's kernels in order, passing over one FIND does not know (not in
 * this build) and, when HERE, one that rc4k_refused (kernel.h) refuses (this CPU
 * cannot run it, or it fails its self-test).  Without HERE the CPU is not
 * here to ask (a CPUID dump's).  SKIPPED (may be NULL) hears of each one
 * passed over.  Returns the kernel, or NULL when none is left: then the
 * portable default applies. */
const struct rc4k_info *rc4_heuristic_walk(enum rc4k_kind kind,
					   const struct rc4_cpu *cpu, bool here,
					   rc4_find_fn *find, const char **rule,
					   rc4_skip_fn *skipped, void *arg);

#endif
