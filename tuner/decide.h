/* SPDX-License-Identifier: MIT */
/* decide.h - every step from figures to a choice, in one place: ties,
 * noise, a busy machine, phases and the prior
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
	/* What the confidence rests on, for the kernel chosen: the lowest
	 * of its lower bounds (at 95 %) against each other finalist, by the
	 * sign test on their paired rounds (< 0: no other finalist), and the
	 * finalists that could be chosen, itself included. */
	double lower;
	size_t finalists;
	/* the choice's confidence, judged for the kernel chosen: too few
	 * rounds, a busy machine, a ranking that changed between phases,
	 * or rounds that cannot rule out (at 95 %) that it is more than the
	 * window behind another kernel */
	bool uncertain;
	const char *why_code; /* the record's reason code, or NULL */
	char why[96];         /* in words, "" if certain */
	char note[160];       /* how the prior weighed ("" if not) */
	/* The prior kept against this run's best, which was not surely
	 * more than the window ahead of it: no later step (family, split)
	 * may put another kernel in its place. */
	bool held;
};

/* This run alone: the best score, a tie going to HEURISTIC's kernel (may
 * be NULL), else to the earliest in the registry; what --speed shows. */
struct choice decide_run(const struct measurement *m, const char *heuristic);

/* A size split of the single kind (rc4tune.conf(5), short_kernel): the
 * calls shorter than BELOW bytes run SHORT_KERNEL, the others LONG_KERNEL
 * (both of the decided kernel's family); BELOW 0: none.  The
 * figures it was written on: in each cell below, SHORT_KERNEL's rate
 * over LONG_KERNEL's, every one above the bar (the noise, at least the tie window);
 * and the workload's score with the split over the decided kernel's. */
struct split {
	size_t short_kernel, long_kernel; /* in the measurement's kr */
	size_t below;
	int cells; /* cells 0 .. CELLS - 1 run SHORT_KERNEL */
	double ratio[SPEED_MAX_CELLS];
	double bar, gain;
};

/* What one pass of --generate-conf writes, for the three calls at once,
 * or what --speed's tables show: each choice and the figures it was made
 * from. */
struct decision {
	/* Per kind (NULL: not measured): the single kind's measurement; a
	 * batch kind's as the keys of the single-stream kernel chosen see it
	 * (FIT: kernels of another family KERNEL_MISFIT, never chosen). */
	const struct measurement *use[RC4K_KINDS];
	struct measurement fit[RC4K_KINDS];
	struct choice choice[RC4K_KINDS];
	struct split split; /* the single kind's, made after decide_family */
};

/* The single-stream kernel that decide_calls would choose from GOT (the
 * single kind measured) against PRIOR (NULL: none): without the batch
 * kinds' figures (BATCH false: not yet measured, so no decide_family), or
 * with them.  The kernel whose keys serial is timed with, so that the
 * figures are the written kernel's. */
const struct rc4k *decide_serial(const struct measurement *const *got,
				 const struct rc4_record *prior,
				 const char *heuristic, bool batch);

/* D for the kinds measured (GOT[k] not NULL: every kernel's figures)
 * against PRIOR (the section's record, or NULL): the single kind by
 * decide, then decide_family and decide_split, then each batch kind by
 * decide among the kernels that may run the keys of the kernel chosen
 * (SINGLE where the single kind is not measured).  0, or -1 after saying
 * why (out of memory; no batch kernel fits); either way decide_free(D)
 * afterwards. */
int decide_calls(struct decision *d, const struct measurement *const *got,
		 const struct rc4_record *prior, const char *const *heuristic,
		 const struct rc4k *single);

/* D as this run alone makes it (--speed, and the tables beside what was
 * written): each kind by decide_run, a batch kind among the kernels that
 * may run the keys of the kernel its serial ran.  As decide_calls. */
int decide_runs(struct decision *d, const struct measurement *const *got,
		const char *const *heuristic);

void decide_free(struct decision *d);

/* The name of the kernel D chose for kind K (measured). */
const char *decide_name(const struct decision *d, int k);

/* KR's score relative to the chosen kernel's, C of M: the tables'
 * "/winner". */
double decide_ratio(const struct measurement *m, const struct choice *c,
		    const struct kresult *kr);

#endif
