/* decide.h - which kernel a run writes for one key: its measurement
 * weighed with what the section already holds (rc4tune(1), WHAT A RESULT
 * MUST HOLD). */
#ifndef RC4_DECIDE_H
#define RC4_DECIDE_H

#include "measure.h"
#include "section.h"

/* Set M's winner: the kernel with the best standing (its mean score,
 * relative to each run's best, over this run and those of PRIOR's runs
 * that the new record keeps and that were confident),
 * a tie going to PRIOR's kernel, then to HEURISTIC's; but the prior
 * (PRIOR's kernel, else HEURISTIC's) stays unless the new winner led it
 * in every phase of this run.  PRIOR may be NULL (no section of the
 * tuner's), HEURISTIC too.  m->note says what the weighing changed. */
void decide(struct measurement *m, const struct rc4_record_key *prior,
	    const char *heuristic);

#endif
