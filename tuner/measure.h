/* SPDX-License-Identifier: MIT */
/* measure.h - time the kernels of one kind on this CPU and pick the
 * fastest, the same way twice; cells.c says what each kind is timed on. */
#ifndef RC4_MEASURE_H
#define RC4_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include "kernels/kernel.h"

/* What the score weighs. */
enum workload { WORKLOAD_MIXED, WORKLOAD_BULK, WORKLOAD_PACKETS,
		WORKLOAD_KEYS, WORKLOAD_COUNT };

const char *workload_name(enum workload w);
int workload_parse(const char *name, enum workload *w);

#define MEASURE_MAX_CELLS 6
/* The budget is spent in this many phases of equal time; a ranking that
 * changes between them makes the result uncertain. */
#define MEASURE_PHASES 3
/* Rounds put the key's state at this many places in turn (cells.c's
 * offsets past a 4 KiB boundary, the same every run); a kernel is scored
 * at its worst. */
#define MEASURE_PLACES 6

/* What one slice times: kernel K in cell CELL, its state at placement
 * PLACE; ONE is the single-stream kernel that serial runs. */
struct trial {
	const struct rc4k_info *k;
	const struct rc4k *one;
	int cell, place;
};

/* One thing every kernel of a kind is timed on. */
struct cell {
	const char *label; /* its column's header */
	size_t bytes;      /* bytes a call; 0: keys a call are counted */
	unsigned keys;     /* keys a call, when BYTES is 0 */
};

/* What the kernels of one kind are timed on (cells.c). */
struct bench {
	const char *title; /* the table's first line */
	/* The JSON member that holds this kind's results; NULL: the top
	 * level's own members. */
	const char *json;
	int ncells;
	struct cell cells[MEASURE_MAX_CELLS];
	/* The cell whose cycles per byte the table shows, and its label;
	 * -1: none. */
	int cpb_cell;
	const char *cpb_label;
	/* Each cell's weight in the score, per workload, and in words. */
	double weight[WORKLOAD_COUNT][MEASURE_MAX_CELLS];
	const char *describe[WORKLOAD_COUNT];
	/* The share of --generate-conf's budget this kind gets. */
	double share;
	/* Seconds that REPS calls of trial T take. */
	double (*run)(const struct trial *t, unsigned long reps);
};

extern const struct bench measure_benches[RC4K_KINDS];

enum kstatus { KERNEL_OK, KERNEL_UNUSABLE, KERNEL_FAILED };

struct kresult {
	const struct rc4k_info *k;
	size_t order;               /* position among its kind: tie-break */
	enum kstatus status;
	double rate[MEASURE_MAX_CELLS]; /* medians over rounds at its worst
					 * placement: bytes or keys per
					 * second */
	double score;               /* weighted geometric mean of rate[] */
	double ratio;               /* score / the winner's score */
	double spread;              /* relative robust sd of a round's score */
	double placed;              /* score over the score of the medians
				     * at every placement: what its worst
				     * placement costs it (1: nothing) */
	double phase[MEASURE_PHASES]; /* median round score in each phase
				       * (0: the phase had no round) */
};

struct measurement {
	enum rc4k_kind kind;
	const struct bench *bench;
	enum workload workload;
	struct kresult *kr;         /* one per kernel measured */
	size_t n;
	const struct rc4k *one;     /* the single-stream kernel serial ran */
	int rounds;
	double slice;               /* seconds per timed slice */
	double seconds;             /* wall time spent, self-tests included */
	/* The deadline, and when the last round began (the clock read that
	 * decided to run it), in seconds after the start: only a first round
	 * can begin past the deadline, when the self-tests outlast it. */
	double deadline_at, last_round_at;
	const char *clock;          /* the clock slices are timed with */
	const char *cycle_clock;    /* NULL: no usable cycle counter */
	double cycle_hz;            /* its rate, measured against clock */
	double noise;               /* relative uncertainty of best vs second */
	double gap;                 /* 1 - second's score / best's */
	double window;              /* scores this close to the best tie */
	double load;                /* share of all CPUs other processes
				     * used meanwhile; -1: unknown */
	bool uncertain;             /* the pick may be wrong: ... */
	char why[96];               /* ... why, in words ("" if not) */
	const char *why_code;       /* ... and as the record's reason code
				     * (rc4tune.conf(5)); NULL if not */
	bool hurried;               /* the budget ran out mid-round: the
				     * slices were cut short */
	size_t best;                /* highest score */
	size_t winner;              /* the pick: best, or the tie-break */
	size_t ntied;               /* kernels within the window (>= 1) */
	const char *tie_rule;       /* NULL unless the tie-break chose */
};

/* Called after each round, for a progress line. */
typedef void measure_progress(const struct measurement *m, double elapsed,
			      double budget);

/* Self-test, then time the kernels of KIND named NAMES (NULL: every one
 * in the registry; else names rc4k_find knows) until DEADLINE (on
 * timing_now()'s clock), which holds whatever the load: rounds that would
 * not end before it are not started, and once it has passed the slices of
 * the round under way are cut short.  Fewer than a handful of rounds make
 * the result uncertain.  PREFER (may be NULL) names the kernel a tie goes
 * to; ONE is the single-stream kernel serial runs (NULL: the library's
 * current one).  Returns 0, or -1 after printing why on stderr (no kernel
 * that passed its self-test, out of memory).  Either way, measure_free(M)
 * afterwards. */
int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const char *prefer, const struct rc4k *one,
		measure_progress *progress);

/* The single-stream kernel M picked, for measure_run's ONE; NULL when M
 * is NULL. */
const struct rc4k *measure_single_winner(const struct measurement *m);

void measure_free(struct measurement *m);

/* A pick among M's kernels: the winner, the kernels within m->window of
 * its score (>= 1), and the rule that broke the tie (NULL if none). */
struct measure_pick {
	size_t winner, ntied;
	const char *tie_rule;
};

/* The kernel of M, among those that passed, with the highest SCORE[i];
 * those within m->window of it tie, and the tie goes to the first of the
 * kernels PREFER[0..NPREFER) names (NULL names none) that is among them,
 * else to the earliest in the registry; RULES[] says each preference in
 * words. */
struct measure_pick measure_pick(const struct measurement *m,
				 const double *score,
				 const char *const *prefer,
				 const char *const *rules, size_t nprefer);

/* Whether kernel A led kernel B in every phase of M that had rounds. */
bool measure_leads(const struct measurement *m, size_t a, size_t b);

/* The measuring engine's seam for tests (tests/seam.c, linked into
 * tests/rc4tune_seam only; NULL in rc4tune): instead of timing trial T,
 * the rate it has during PHASE, after advancing the virtual clock
 * (timing_seam_now) by SLICE seconds. */
extern double (*measure_seam)(const struct trial *t, int phase, double slice);

#endif
