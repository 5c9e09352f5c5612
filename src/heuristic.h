/* SPDX-License-Identifier: MIT */
/* heuristic.h - the CPUID heuristic: tables of rules, each citing its
 * evidence, used when no config applies (and by the tuner to break ties). */
#ifndef RC4_HEURISTIC_H
#define RC4_HEURISTIC_H

#include <stdbool.h>
#include "confkeys.h"
#include "cpu.h"

/* What a rule rests on, and so what tests/rules/test_rules.py holds it to
 * against the profiles in data/profiles/ (one JSON file a CPU). */
enum rc4_rule_basis {
	/* measured: the models it names, each one profile's CPU; its first
	 * kernel a profile can run scores at least 0.95 of that profile's
	 * best */
	RC4_RULE_MODELS,
	/* the models of its families that no profile covers: the best
	 * worst case over its families' profiles */
	RC4_RULE_FAMILY,
	/* a CPU no rule names: the best worst case over every profile,
	 * at least 0.90 on each */
	RC4_RULE_ANY,
	/* published figures (OpenSSL's history), no machine here: held
	 * against the partial profiles made of those figures, where any */
	RC4_RULE_PUBLISHED,
};

/* A row of a kind's table; a table ends with a row without kernels. */
struct rc4_rule {
	const char *vendor;         /* NULL: any */
	int family_min, family_max; /* display family, inclusive */
	int model_min, model_max;   /* display model, inclusive */
	/* In order of preference: the first this build has and this CPU
	 * can run is taken, so a rule degrades on a CPU or a build that
	 * lacks what it was measured with. */
	const char *kernels[6];
	enum rc4_rule_basis basis;
	/* the profiles it was held against, by file name without .json,
	 * blank-separated; NULL: none */
	const char *profiles;
	/* what --heuristic, --explain and the trail show */
	const char *why;
};

/* KIND's table, in the order it is matched. */
const struct rc4_rule *rc4_heuristic_rules(enum rc4k_kind kind);

/* The first row of KIND's table that matches CPU, or NULL. */
const struct rc4_rule *rc4_heuristic_match(enum rc4k_kind kind,
					   const struct rc4_cpu *cpu);

/* The kernels of KIND, NULL-terminated, that the rules give for CPU (NULL:
 * not identified), whether or not this build has them; NULL when no rule
 * matches.  *RULE (if not NULL) gets the rule's why, or why none fired. */
const char *const *rc4_heuristic_rule(enum rc4k_kind kind,
				      const struct rc4_cpu *cpu,
				      const char **rule);

/* Told of each kernel of the rule that a walk passes over, and why;
 * MORE: another kernel of the rule follows. */
typedef void rc4_skip_fn(void *arg, const char *name, const char *why,
			 bool more);

/* The walk of one RULE's kernels (rc4_heuristic_walk, which tests use
 * on rules a CPU of theirs would not reach). */
const struct rc4k_info *rc4_rule_walk(const struct rc4_rule *rule,
				      enum rc4k_kind kind,
				      const struct rc4k *one, bool here,
				      rc4_find_fn *find, rc4_skip_fn *skipped,
				      void *arg);

/* The one walk from the rule for CPU to a kernel of KIND, for the
 * selection, the tuner, --heuristic and --explain alike: the rule's
 * kernels in order, passing over one FIND does not know, one rc4k_refused
 * refuses when HERE, else (a CPUID dump's CPU) one the features assumed
 * for it (rc4k_feats_assume) cannot run, and for a batch kind one of
 * another family than ONE's (NULL: any), so a rule lists a batch kernel
 * for each family.  *RULE as rc4_heuristic_rule's; SKIPPED (may be NULL)
 * hears of each kernel passed over.  NULL when none is left. */
const struct rc4k_info *rc4_heuristic_walk(enum rc4k_kind kind,
					   const struct rc4k *one,
					   const struct rc4_cpu *cpu, bool here,
					   rc4_find_fn *find, const char **rule,
					   rc4_skip_fn *skipped, void *arg);

#endif
