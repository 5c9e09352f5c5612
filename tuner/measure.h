/* measure.h - time every kernel on this CPU and pick the fastest, the same
 * way twice. */
#ifndef RC4_MEASURE_H
#define RC4_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include "kernels/kernel.h"

/* What is timed for each kernel: crypt at the block sizes of `openssl
 * speed` (bytes per second), then a fresh 16-byte key per 16-byte message
 * (keys per second: the password-recovery pattern). */
#define MEASURE_NSIZES 5
enum { MEASURE_KEYS = MEASURE_NSIZES, MEASURE_CELLS };
extern const size_t measure_sizes[MEASURE_NSIZES];

/* What the score weighs: see measure.c for the weights. */
enum workload { WORKLOAD_MIXED, WORKLOAD_BULK, WORKLOAD_PACKETS,
		WORKLOAD_KEYS, WORKLOAD_COUNT };

const char *workload_name(enum workload w);
const char *workload_describe(enum workload w);
int workload_parse(const char *name, enum workload *w);

enum kstatus { KERNEL_OK, KERNEL_UNUSABLE, KERNEL_FAILED };

struct kresult {
	const struct rc4k *k;
	size_t order;               /* position in the registry: tie-break */
	enum kstatus status;
	double rate[MEASURE_CELLS]; /* medians over rounds */
	double score;               /* weighted geometric mean of rate[] */
	double ratio;               /* score / the winner's score */
	double spread;              /* relative robust sd of a round's score */
};

struct measurement {
	enum workload workload;
	struct kresult *kr;         /* one per kernel measured */
	size_t n;
	int rounds;
	double slice;               /* seconds per timed slice */
	double seconds;             /* wall time spent, self-tests included */
	const char *clock;          /* the clock slices are timed with */
	const char *cycle_clock;    /* NULL: no usable cycle counter */
	double cycle_hz;            /* its rate, measured against clock */
	double noise;               /* relative uncertainty of best vs second */
	double gap;                 /* 1 - second's score / best's */
	double window;              /* scores this close to the best tie */
	double load;                /* share of all CPUs other processes
				     * used meanwhile; -1: unknown */
	bool uncertain;             /* the machine was busy, or the noise
				     * was above the window's cap and enough
				     * to swap best and second */
	size_t best;                /* highest score */
	size_t winner;              /* the pick: best, or the tie-break */
	size_t ntied;               /* kernels within the window (>= 1) */
	const char *tie_rule;       /* NULL unless the tie-break chose */
};

/* Called after each round, for a progress line. */
typedef void measure_progress(void *ctx, const struct measurement *m,
			      double elapsed, double budget);

/* Self-test, then time the kernels NAMES (NULL: every kernel in the
 * registry; else names rc4k_find knows) for about BUDGET seconds.  PREFER
 * (may be NULL) names the kernel a tie goes to.  Returns 0, or -1 after
 * printing why on stderr (no kernel that passed its self-test, out of
 * memory).
 * Either way, measure_free(M) afterwards. */
int measure_run(struct measurement *m, const char *const *names,
		enum workload w, double budget, const char *prefer,
		measure_progress *progress, void *ctx);

void measure_free(struct measurement *m);

#endif
