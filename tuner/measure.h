/* SPDX-License-Identifier: MIT */
/* measure.h - time the kernels of one kind on this CPU: figures, and
 * nothing made of them (decide.h chooses); cells.c says what each kind is
 * timed on. */
#ifndef RC4_MEASURE_H
#define RC4_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include "kernels/kernel.h"
#include "speed.h"

/* What the score weighs. */
enum workload { WORKLOAD_MIXED, WORKLOAD_BULK, WORKLOAD_PACKETS,
		WORKLOAD_KEYS, WORKLOAD_COUNT };

const char *workload_name(enum workload w);
int workload_parse(const char *name, enum workload *w);

/* The budget is spent in this many phases of equal time; a ranking that
 * changes between them makes the result uncertain. */
#define MEASURE_PHASES 3
/* What one slice times: kernel K for KIND in cell CELL, its state at
 * placement PLACE; SINGLE is the single-stream kernel that serial runs. */
struct trial {
	const struct rc4k_info *k;
	const struct rc4k *single;
	int cell, place;
	enum rc4k_kind kind;
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
	struct cell cells[SPEED_MAX_CELLS];
	/* The cell whose cycles per byte the table shows, and its label;
	 * -1: none. */
	int cpb_cell;
	const char *cpb_label;
	/* Each cell's weight in the score, per workload, and in words. */
	double weight[WORKLOAD_COUNT][SPEED_MAX_CELLS];
	const char *describe[WORKLOAD_COUNT];
	/* The share of --generate-conf's budget this kind gets. */
	double share;
	/* Seconds that REPS calls of trial T take. */
	double (*run)(const struct trial *t, unsigned long reps);
};

extern const struct bench measure_benches[RC4K_KINDS];

/* KERNEL_MISFIT: a batch kernel that may not run the keys of the
 * single-stream kernel chosen (decide.h, struct decision): timed and
 * reported, never chosen. */
enum kstatus { KERNEL_OK, KERNEL_UNUSABLE, KERNEL_FAILED, KERNEL_MISFIT };

struct kresult {
	const struct rc4k_info *k;
	size_t order;               /* position among its kind: tie-break */
	enum kstatus status;
	double rate[SPEED_MAX_CELLS]; /* its speed in each cell (speed_of:
					 * the median at its worst
					 * placement), bytes or keys per
					 * second */
	double score;               /* weighted geometric mean of rate[] */
	double spread;              /* relative robust sd of a round's score */
	const double *round_score;  /* each round's score, as at its worst
				     * placement ([rounds]) */
	double placed;              /* score over the score of the medians
				     * at every placement: what its worst
				     * placement costs it (1: nothing) */
	double phase[MEASURE_PHASES]; /* median round score in each phase
				       * (0: the phase had no round) */
	/* In the final (measure_run): timed to the end.  Else clearly
	 * behind after the first pass, whose rounds its figures are. */
	bool finalist;
	int rounds;                 /* its rounds: round_score[0 .. rounds) */
};

struct measurement {
	enum rc4k_kind kind;
	const struct bench *bench;
	enum workload workload;
	struct kresult *kr;         /* one per kernel measured */
	size_t n;
	const struct rc4k *single;     /* the single-stream kernel serial ran */
	int rounds;                 /* the finalists' */
	size_t finalists;           /* kernels in the final */
	int first_pass;             /* rounds of the pass over every kernel
				     * (0: no race, every kernel to the end) */
	double slice;               /* seconds per timed slice */
	double seconds;             /* wall time spent, self-tests included */
	/* The deadline, and when the last round began (the clock read that
	 * decided to run it), in seconds after the start: only a first round
	 * can begin past the deadline, when the self-tests outlast it. */
	double deadline_at, last_round_at;
	const char *clock;          /* the clock slices are timed with */
	const char *cycle_clock;    /* NULL: no usable cycle counter */
	double cycle_hz;            /* its rate, measured against clock */
	double load;                /* share of all CPUs other processes
				     * used meanwhile; -1: unknown */
	bool hurried;               /* the budget ran out mid-round: the
				     * slices were cut short */
	size_t best;                /* highest score */
	double *round_scores;       /* what kr[].round_score point into */
};

/* Called after each round, for a progress line. */
typedef void measure_progress(const struct measurement *m, double elapsed,
			      double budget);

/* Self-test, then time the kernels of KIND named NAMES (NULL: every one
 * in the registry; else names rc4k_find knows) as a race: a pass of
 * SPEED_PLACES rounds over every kernel, then the rest of the rounds over
 * the finalists, those whose best round is not clearly behind the
 * leader's worst; until DEADLINE (on timing_now()'s clock), which holds
 * whatever the load: rounds that would not end before it are not
 * started, and once it has passed the slices of the round under way are
 * cut short.  SINGLE is the single-stream kernel
 * serial runs (batch kernels; the caller's choice: measuring reads no
 * config and no environment).  Returns 0, or -1 after printing why on
 * stderr (no kernel that passed its self-test, out of memory).  Either
 * way, measure_free(M) afterwards. */
int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const struct rc4k *single, measure_progress *progress);

void measure_free(struct measurement *m);

/* The measuring engine's seam for tests (tests/helpers/seam.c, linked into
 * tests/helpers/rc4tune_seam only; NULL in rc4tune): instead of timing trial T,
 * the rate it has during PHASE, after advancing the virtual clock
 * (timing_seam_now) by SLICE seconds. */
extern double (*measure_seam)(const struct trial *t, int phase, double slice);

#endif
