/* SPDX-License-Identifier: MIT */
/* measure.h - time the kernels of one kind on this CPU: figures only
 * (decide.h chooses). */
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
	const char *json;  /* its JSON member; NULL: the top level's */
	int ncells;
	struct cell cells[SPEED_MAX_CELLS];
	int cpb_cell; /* the cell whose cycles per byte show; -1: none */
	const char *cpb_label;
	/* Each cell's weight in the score, per workload, and in words. */
	double weight[WORKLOAD_COUNT][SPEED_MAX_CELLS];
	const char *describe[WORKLOAD_COUNT];
	double share; /* of --generate-conf's budget */
	/* A batch kind's: the single kind's cell whose work serial repeats
	 * (decide_retime). */
	int serial_cell;
	/* Seconds that REPS calls of trial T take. */
	double (*run)(const struct trial *t, unsigned long reps);
};

extern const struct bench measure_benches[RC4K_KINDS];

/* KERNEL_MISFIT: a batch kernel that may not run the chosen single-stream
 * kernel's keys: timed and reported, never chosen. */
enum kstatus { KERNEL_OK, KERNEL_UNUSABLE, KERNEL_FAILED, KERNEL_MISFIT };

struct kresult {
	const struct rc4k_info *k;
	size_t order;               /* position among its kind: tie-break */
	enum kstatus status;
	/* As struct speed_row's (rates in bytes or keys a second); each
	 * round's score as at its worst placement ([rounds]); the median
	 * round score in each phase (0: no round in it). */
	double rate[SPEED_MAX_CELLS], score, spread, placed;
	const double *round_score;
	double phase[MEASURE_PHASES];
	/* Timed to the end; else clearly behind after the first pass, whose
	 * rounds its figures are. */
	bool finalist;
	int rounds;
};

struct measurement {
	enum rc4k_kind kind;
	const struct bench *bench;
	enum workload workload;
	struct kresult *kr;         /* one per kernel measured */
	size_t n;
	const struct rc4k *single;  /* the single-stream kernel serial ran */
	int rounds;                 /* the finalists' */
	size_t finalists;
	int first_pass;             /* rounds over every kernel; 0: no race */
	double slice;               /* seconds per timed slice */
	double seconds;             /* wall time spent, self-tests included */
	/* The deadline and when the last round began, in seconds after the
	 * start: only a first round can begin past the deadline. */
	double deadline_at, last_round_at;
	const char *clock;          /* the clock slices are timed with */
	const char *cycle_clock;    /* NULL: no usable cycle counter */
	double cycle_hz;
	double load;                /* others' share of all CPUs; -1: unknown */
	bool hurried;               /* slices cut short at the deadline */
	size_t best;                /* highest score */
	double *round_scores;       /* what kr[].round_score point into */
};

/* Called after each round, for a progress line. */
typedef void measure_progress(const struct measurement *m, double elapsed,
			      double budget);

/* Self-test, then time the kernels of KIND named NAMES (NULL: all) as a
 * race: SPEED_PLACES rounds over every kernel, then the finalists only,
 * until DEADLINE (timing_now()), which holds whatever the load.  SINGLE
 * is the kernel serial runs (the caller's: measuring reads no config nor
 * environment).  0, or -1 after saying why; either way measure_free(M)
 * afterwards. */
int measure_run(struct measurement *m, enum rc4k_kind kind,
		const char *const *names, enum workload w, double deadline,
		const struct rc4k *single, measure_progress *progress);

void measure_free(struct measurement *m);

/* The tests' seam (tests/helpers/seam.c; NULL in rc4tune): instead of
 * timing T, its rate during PHASE, the virtual clock moved by SLICE. */
extern double (*measure_seam)(const struct trial *t, int phase, double slice);

#endif
