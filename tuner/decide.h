/* SPDX-License-Identifier: MIT */
/* decide.h - every step from figures to a choice, in one place: ties,
 * noise, a busy machine, phases, the prior and the section's history
 * (rc4tune(1), WHAT A RESULT MUST HOLD).  The measurement stays as
 * measured (measure.h); what is made of it is a struct choice. */
#ifndef RC4_DECIDE_H
#define RC4_DECIDE_H

#include "measure.h"
#include "section.h"

/* What a run makes of one measurement for one key. */
struct choice {
	size_t kernel;        /* in m->kr: the kernel chosen */
	size_t ntied;         /* kernels within the window of the best */
	const char *tie_rule; /* NULL unless a tie-break chose */
	double noise;         /* relative uncertainty of best vs second */
	double gap;           /* 1 - second's score / best's */
	double window;        /* scores this close to the best tie */
	/* the choice's confidence: too few rounds, a busy machine, noise
	 * larger than the gap, or a ranking that changed between phases,
	 * judged for the kernel chosen */
	bool uncertain;
	const char *why_code; /* the record's reason code, or NULL */
	char why[96];         /* in words, "" if certain */
	char note[160];       /* how the prior weighed ("" if not) */
};

/* This run alone: the best score, a tie going to HEURISTIC's kernel (may
 * be NULL), else to the earliest in the registry; what --speed shows. */
struct choice decide_run(const struct measurement *m, const char *heuristic);

/* What --generate-conf writes: the kernel with the best standing (its
 * mean score, relative to each run's best, over this run and those of
 * PRIOR's runs that the new record keeps and that were confident), a tie
 * going to PRIOR's kernel, then to HEURISTIC's; but the prior (PRIOR's
 * kernel, else HEURISTIC's) stays unless the new winner led it in every
 * phase of this run.  PRIOR may be NULL (no section of the tuner's),
 * HEURISTIC too. */
struct choice decide(const struct measurement *m,
		     const struct rc4_record_key *prior, const char *heuristic);

/* One layout family per key (kernels/family.h): the single-stream kernel
 * C chose from SINGLE may give way to one of another family that scores
 * within the tie window's cap of it, when the batch calls keep more with
 * its family's kernels (SET_KEYS and CRYPT_MANY as measured, every
 * family's; either may be NULL): the product of the three calls' shares
 * of their best must gain more than the window.  C's note says so. */
void decide_family(const struct measurement *single, struct choice *c,
		   const struct measurement *set_keys,
		   const struct measurement *crypt_many);

/* KR's score relative to the chosen kernel's, C of M: the tables'
 * "/winner". */
double decide_ratio(const struct measurement *m, const struct choice *c,
		    const struct kresult *kr);

#endif
