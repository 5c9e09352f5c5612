/* SPDX-License-Identifier: MIT */
/* decide.h - every step from figures to a choice (rc4tune(1), WHAT A
 * RESULT MUST HOLD); the measurement stays as measured. */
#ifndef RC4_DECIDE_H
#define RC4_DECIDE_H

#include "measure.h"
#include "section.h"

/* A line of a choice's note is shorter than this, its newline included. */
#define NOTE_LINE 160

/* What a run makes of one measurement for one key. */
struct choice {
	size_t kernel;        /* in m->kr: the kernel chosen */
	size_t ntied;         /* kernels within the window of the best */
	const char *tie_rule; /* NULL unless a tie-break chose */
	double noise;         /* relative uncertainty of best vs second */
	double gap;           /* 1 - second's score / best's */
	double window;        /* scores this close to the best tie */
	/* The lowest lower bound (at 95 %) of its score over each other
	 * finalist's (< 0: no other), and the finalists, itself included. */
	double lower;
	size_t finalists;
	bool uncertain;
	const char *why_code; /* the record's reason code, or NULL */
	char why[96];         /* in words, "" if certain */
	/* How the prior and each later step weighed, a line each ("" if
	 * none); a line is under the config's limit, as a comment there. */
	char note[4 * NOTE_LINE];
	/* The prior kept against this run's best: no later step (family,
	 * split) may put another kernel in its place. */
	bool held;
};

/* This run alone: the best score, a tie going to HEURISTIC's kernel (may
 * be NULL), else to the earliest in the registry; what --speed shows. */
struct choice decide_run(const struct measurement *m, const char *heuristic);

/* A size split of the single kind (rc4tune.conf(5), short_kernel);
 * BELOW 0: none.  RATIO: SHORT_KERNEL's rate over LONG_KERNEL's in each
 * cell below, each above the bar; GAIN: the score over the kernel alone's. */
struct split {
	size_t short_kernel, long_kernel; /* in the measurement's kr */
	size_t below;
	int cells; /* cells 0 .. CELLS - 1 run SHORT_KERNEL */
	double ratio[SPEED_MAX_CELLS];
	double gain;
};

/* Each kind's choice and the figures it was made from. */
struct decision {
	/* Per kind (NULL: not measured); a batch kind's as the keys of the
	 * single-stream kernel chosen see it (FIT). */
	const struct measurement *use[RC4K_KINDS];
	struct measurement fit[RC4K_KINDS];
	struct choice choice[RC4K_KINDS];
	struct split split; /* the single kind's, made after decide_family */
};

/* The single-stream kernel decide_calls would choose, without the batch
 * kinds' figures (BATCH false: not yet measured) or with them: serial is
 * timed on it, so that the figures are the written kernel's. */
const struct rc4k *decide_serial(const struct measurement *const *got,
				 const struct rc4_record *prior,
				 const char *heuristic, bool batch);

/* Whether BATCH, its serial timed on another single-stream kernel, must
 * be timed again for serial on TO: unless serial there, estimated by the
 * two kernels' figures in SINGLE's cell of serial's work
 * (bench.serial_cell), and serial as timed, both stay clearly behind a
 * lane kernel that runs TO's keys. */
bool decide_retime(const struct measurement *single,
		   const struct measurement *batch, const struct rc4k *to);

/* D for the kinds measured (GOT[k] not NULL) against PRIOR (the
 * section's record, or NULL): the single kind, then each batch kind among
 * the kernels that may run its keys (SINGLE's where it is not measured).
 * 0, or -1 after saying why; either way decide_free(D) afterwards. */
int decide_calls(struct decision *d, const struct measurement *const *got,
		 const struct rc4_record *prior, const char *const *heuristic,
		 const struct rc4k *single);

/* D as this run alone makes it (the tables), each kind by decide_run;
 * otherwise as decide_calls. */
int decide_runs(struct decision *d, const struct measurement *const *got,
		const char *const *heuristic);

void decide_free(struct decision *d);

/* The name of the kernel D chose for kind K (measured). */
const char *decide_name(const struct decision *d, int k);

#endif
