/* SPDX-License-Identifier: MIT */
/* decide.h - which kernel a run writes for one key: its measurement
 * weighed with what the section already holds (rc4tune(1), WHAT A RESULT
 * MUST HOLD).  The measurement stays as measured; the choice is apart. */
#ifndef RC4_DECIDE_H
#define RC4_DECIDE_H

#include "measure.h"
#include "section.h"

/* What a run writes for one key. */
struct choice {
	size_t kernel;        /* in m->kr */
	/* the choice's confidence: the measurement's, but for a ranking
	 * that changed, which is judged against this kernel */
	bool uncertain;
	const char *why_code; /* the record's reason code, or NULL */
	char why[96];         /* in words, "" if certain */
	char note[160];       /* how the prior weighed ("" if not) */
};

/* The kernel with the best standing (its mean score, relative to each
 * run's best, over this run and those of PRIOR's runs that the new record
 * keeps and that were confident), a tie going to PRIOR's kernel, then to
 * HEURISTIC's; but the prior (PRIOR's kernel, else HEURISTIC's) stays
 * unless the new winner led it in every phase of this run.  PRIOR may be
 * NULL (no section of the tuner's), HEURISTIC too. */
struct choice decide(const struct measurement *m,
		     const struct rc4_record_key *prior, const char *heuristic);

#endif
