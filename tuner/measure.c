/* measure.c - time every kernel on this CPU and pick the fastest, the same
 * way twice.
 *
 * Each kernel is called through its descriptor on a buffer it encrypts in
 * place, as rc4tune_crypt() calls it.  A slice is a fixed number of calls
 * (calibrated once to last about m->slice), so no clock read sits inside
 * the loop.  Rounds go over every cell (block size, then the keys test) and
 * within a cell over every kernel, starting one kernel further each round,
 * so that drift and the position in a round hit all kernels alike.  Medians
 * over rounds give the table; the spread of the per-round scores gives the
 * noise that decides when to stop and what counts as a tie. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <x86intrin.h>
#define HAVE_TSC 1
#endif
#include "measure.h"
#include "timing.h"

const size_t measure_sizes[MEASURE_NSIZES] = { 16, 64, 256, 1024, 8192 };

static const struct {
	const char *name, *describe;
	double weight[MEASURE_CELLS]; /* the five block sizes, then keys */
} workloads[WORKLOAD_COUNT] = {
	[WORKLOAD_MIXED] = { "mixed",
			     "geometric mean over 16..8192-byte blocks",
			     { 1, 1, 1, 1, 1, 0 } },
	[WORKLOAD_BULK] = { "bulk", "large buffers: 8192-byte blocks 3/4, "
				    "1024-byte 1/4",
			    { 0, 0, 0, 1, 3, 0 } },
	[WORKLOAD_PACKETS] = { "packets",
			       "network messages: 16..1024-byte blocks",
			       { 1, 1, 1, 1, 0, 0 } },
	[WORKLOAD_KEYS] = { "keys", "a fresh 16-byte key per 16-byte message",
			    { 0, 0, 0, 0, 0, 1 } },
};

enum {
	MIN_ROUNDS = 5,     /* fewer medians are not worth a decision */
	MAX_ROUNDS = 255,
	TARGET_ROUNDS = 15, /* rounds the slice length is sized for */
};
static const double SETTLE = 0.5;      /* budget spent before a quiet stop */
static const double TIE_FLOOR = 0.02;  /* closer than 2 %: always a tie */
static const double TIE_CAP = 0.03;    /* a tie never costs more than 3 % */
static const double MIN_SLICE = 50e-6, MAX_SLICE = 5e-3;
/* Other processes using this share of all CPUs compete for cores, caches
 * and memory, and not evenly across kernels, in a way the spread of
 * slices need not show: no early stop, and the result is uncertain. */
static const double BUSY = 0.25;

const char *workload_name(enum workload w)
{
	return workloads[w].name;
}

const char *workload_describe(enum workload w)
{
	return workloads[w].describe;
}

int workload_parse(const char *name, enum workload *w)
{
	for (int i = 0; i < WORKLOAD_COUNT; i++)
		if (strcmp(name, workloads[i].name) == 0) {
			*w = (enum workload)i;
			return 0;
		}
	return -1;
}

/* The TSC counts at a constant rate only where CPUID says it is invariant;
 * otherwise cycles per byte would drift with the frequency. */
static int cycles_usable(void)
{
#ifdef HAVE_TSC
	unsigned a, b, c, d;

	return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8));
#else
	return 0;
#endif
}

static uint64_t cycles(void)
{
#ifdef HAVE_TSC
	return __rdtsc();
#else
	return 0;
#endif
}

/* Busy and total time of all CPUs (/proc/stat) and this process's CPU
 * time, in seconds, to tell what the rest of the machine did meanwhile. */
struct load_mark {
	double busy, total, self;
	bool known;
};

static void load_mark(struct load_mark *l)
{
	unsigned long long v[8] = { 0 }; /* user nice system idle iowait ... */
	double hz = (double)sysconf(_SC_CLK_TCK);
	struct timespec ts;
	FILE *f = fopen("/proc/stat", "re");
	int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7])
		  : 0;

	if (f)
		fclose(f);
	l->known = n >= 5 && hz > 0;
	l->total = 0;
	for (int i = 0; i < 8; i++)
		l->total += (double)v[i] / hz;
	l->busy = l->total - (double)(v[3] + v[4]) / hz;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	l->self = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The share of all CPUs' time that other processes used since A, or -1
 * when unknown (no /proc/stat). */
static double others_load(const struct load_mark *a)
{
	struct load_mark b;

	load_mark(&b);
	if (!a->known || !b.known || b.total <= a->total)
		return -1;
	double l = (b.busy - a->busy - (b.self - a->self)) /
		   (b.total - a->total);
	return l > 0 ? l : 0;
}

/* One state and one buffer, cache-line aligned, shared by all kernels:
 * what a caller of the public API has, one key and one buffer. */
static _Alignas(64) struct rc4k_state state;
static _Alignas(64) uint8_t buf[8192];

/* Seconds for REPS calls of kernel K in CELL. */
static double run(const void *kernel, int cell, unsigned long reps)
{
	const struct rc4k *k = kernel;
	uint8_t key[16];
	double t0;

	memcpy(key, "rc4tune-timing16", sizeof key);
	if (cell == MEASURE_KEYS) {
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++) {
			memcpy(key, &r, sizeof r); /* a fresh key each time */
			k->set_key(&state, key, sizeof key);
			k->crypt(&state, 16, buf, buf);
		}
	} else {
		size_t len = measure_sizes[cell];

		k->set_key(&state, key, sizeof key);
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++)
			k->crypt(&state, len, buf, buf);
	}
	return timing_now() - t0;
}

static double rate(int cell, unsigned long reps, double t)
{
	double units = cell == MEASURE_KEYS ? 1.0 : (double)measure_sizes[cell];

	return (double)reps * units / (t > 0 ? t : 1e-9);
}


/* Weighted geometric mean of the cells of V (stride apart). */
static double score_of(const double *w, const double *v, size_t stride)
{
	double lg = 0, sum = 0;

	for (int c = 0; c < MEASURE_CELLS; c++)
		if (w[c] > 0) {
			lg += w[c] * log(v[c * stride]);
			sum += w[c];
		}
	return exp(lg / sum);
}

static bool preferred(const struct kresult *r, const char *prefer)
{
	return prefer != NULL && strcmp(r->k->name, prefer) == 0;
}

/* Samples of kernel I, cell C, round R. */
#define SAMPLE(s, i, c, r) ((s)[((i) * MEASURE_CELLS + (c)) * MAX_ROUNDS + (r)])

/* Robust relative spread of V[0..n): the median absolute deviation,
 * scaled to a standard deviation, over the median.  The odd slice that
 * another process interrupted does not move it. */
static double spread(const double *v, int n)
{
	double dev[MAX_ROUNDS], tmp[MAX_ROUNDS], mid = timing_median(v, n, tmp);

	for (int k = 0; k < n; k++)
		dev[k] = fabs(v[k] - mid);
	return 1.4826 * timing_median(dev, n, tmp) / mid;
}

/* Medians, scores, noise and the pick after m->rounds rounds; ROUND_SCORES
 * (MAX_ROUNDS a kernel) receives each round's score. */
static void summarize(struct measurement *m, const double *samples,
		      double *round_scores, const char *prefer)
{
	const double *w = workloads[m->workload].weight;
	double tmp[MAX_ROUNDS];
	int n = m->rounds;
	size_t best = m->n, second = m->n;

	for (size_t i = 0; i < m->n; i++) {
		struct kresult *r = &m->kr[i];

		if (r->status != KERNEL_OK)
			continue;
		for (int c = 0; c < MEASURE_CELLS; c++)
			r->rate[c] = timing_median(&SAMPLE(samples, i, c, 0), n, tmp);
		r->score = score_of(w, r->rate, 1);
		double *rs = &round_scores[i * MAX_ROUNDS];
		for (int k = 0; k < n; k++)
			rs[k] = score_of(w, &SAMPLE(samples, i, 0, k),
					 MAX_ROUNDS);
		r->spread = spread(rs, n);
		if (best == m->n || r->score > m->kr[best].score) {
			second = best;
			best = i;
		} else if (second == m->n || r->score > m->kr[second].score) {
			second = i;
		}
	}
	m->best = best;
	/* Best and second were timed side by side in each round, so the
	 * ratio of their round scores cancels what hit both (frequency,
	 * a neighbour's load).  The standard error of its median is about
	 * 1.25 sd / sqrt(n); twice that is the noise. */
	m->noise = 0;
	m->gap = 1;
	if (second != m->n) {
		for (int k = 0; k < n; k++)
			tmp[k] = round_scores[best * MAX_ROUNDS + k] /
				 round_scores[second * MAX_ROUNDS + k];
		m->noise = 2 * 1.2533 * spread(tmp, n) / sqrt(n);
		m->gap = 1 - m->kr[second].score / m->kr[best].score;
	}
	m->window = fmin(fmax(m->noise, TIE_FLOOR), TIE_CAP);
	/* Noise matters only when it could have swapped best and second. */
	m->uncertain = (m->noise > TIE_CAP && m->gap < m->noise) ||
		       m->load >= BUSY;

	/* Among the kernels within the window of the best: the preferred
	 * one, else the earliest in the registry (simplest loops first). */
	double cut = m->kr[best].score * (1 - m->window);
	size_t pick = m->n;
	m->ntied = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];

		if (r->status != KERNEL_OK || r->score < cut)
			continue;
		m->ntied++;
		if (pick == m->n || preferred(r, prefer) ||
		    (!preferred(&m->kr[pick], prefer) &&
		     r->order < m->kr[pick].order))
			pick = i;
	}
	m->winner = pick;
	m->tie_rule = NULL;
	if (m->ntied > 1)
		m->tie_rule = preferred(&m->kr[pick], prefer)
				      ? "the heuristic's choice"
				      : "the earliest in registry order";
	for (size_t i = 0; i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK)
			m->kr[i].ratio = m->kr[i].score / m->kr[pick].score;
}

static size_t registry_index(const struct rc4k *k)
{
	size_t i = 0;

	while (rc4k_registry[i] != k)
		i++;
	return i;
}

/* Fill m->kr from NAMES (or the whole registry) and self-test each. */
static int collect(struct measurement *m, const char *const *names)
{
	size_t n = 0;

	while (names ? names[n] != NULL : rc4k_registry[n] != NULL)
		n++;
	m->kr = calloc(n ? n : 1, sizeof *m->kr);
	if (m->kr == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct rc4k *k = names ? rc4k_find(names[i])
					     : rc4k_registry[i];
		struct kresult *r = &m->kr[m->n++];
		r->k = k;
		r->order = registry_index(k);
		if (!rc4k_usable(k)) {
			r->status = KERNEL_UNUSABLE;
		} else if (rc4k_selftest(k) != 0) {
			r->status = KERNEL_FAILED;
			fprintf(stderr, "rc4tune: kernel %s failed its "
					"self-test on this CPU; never chosen\n",
				k->name);
		}
	}
	return 0;
}

int measure_run(struct measurement *m, const char *const *names,
		enum workload w, double budget, const char *prefer,
		measure_progress *progress, void *ctx)
{
	double start = timing_now();
	uint64_t cstart = cycles();
	size_t nok = 0;
	struct load_mark mark;

	load_mark(&mark);
	memset(m, 0, sizeof *m);
	m->load = -1;
	m->workload = w;
	m->clock = "CLOCK_MONOTONIC";
	if (collect(m, names) != 0)
		return -1;
	for (size_t i = 0; i < m->n; i++)
		nok += m->kr[i].status == KERNEL_OK;
	if (nok == 0) {
		fprintf(stderr, "rc4tune: no kernel passed its self-test on "
				"this CPU\n");
		return -1;
	}

	double *samples = malloc(m->n * MEASURE_CELLS * MAX_ROUNDS *
				 sizeof *samples);
	double *round_scores = malloc(m->n * MAX_ROUNDS * sizeof *round_scores);
	unsigned long *reps = malloc(m->n * MEASURE_CELLS * sizeof *reps);
	size_t *ok = malloc(nok * sizeof *ok);
	if (samples == NULL || round_scores == NULL || reps == NULL ||
	    ok == NULL) {
		perror("rc4tune");
		free(samples), free(round_scores), free(reps), free(ok);
		return -1;
	}
	nok = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK)
			ok[nok++] = i;

	m->slice = budget * SETTLE / (TARGET_ROUNDS * MEASURE_CELLS * nok);
	m->slice = fmin(fmax(m->slice, MIN_SLICE), MAX_SLICE);
	for (size_t j = 0; j < nok; j++)
		for (int c = 0; c < MEASURE_CELLS; c++)
			reps[ok[j] * MEASURE_CELLS + c] =
				timing_calibrate(run, m->kr[ok[j]].k, c, m->slice);

	double last = timing_now() - start;
	for (;;) {
		int r = m->rounds;

		for (int c = 0; c < MEASURE_CELLS; c++)
			for (size_t j = 0; j < nok; j++) {
				size_t i = ok[(j + (size_t)r) % nok];
				unsigned long n = reps[i * MEASURE_CELLS + c];

				SAMPLE(samples, i, c, r) =
					rate(c, n, run(m->kr[i].k, c, n));
			}
		m->rounds++;
		m->load = others_load(&mark);
		summarize(m, samples, round_scores, prefer);
		double elapsed = timing_now() - start, round_time = elapsed - last;
		last = elapsed;
		if (progress)
			progress(ctx, m, elapsed, budget);
		if (m->rounds == MAX_ROUNDS)
			break;
		if (m->rounds < MIN_ROUNDS)
			continue;
		if (elapsed + round_time > budget ||
		    (elapsed >= budget * SETTLE && m->load < BUSY &&
		     (m->noise <= TIE_FLOOR || m->gap > m->noise)))
			break;
	}
	m->seconds = timing_now() - start;
	if (cycles_usable()) {
		m->cycle_clock = "x86 TSC (constant rate, not core cycles)";
		m->cycle_hz = (double)(cycles() - cstart) / m->seconds;
	}
	free(samples), free(round_scores), free(reps), free(ok);
	return 0;
}

void measure_free(struct measurement *m)
{
	free(m->kr);
	m->kr = NULL;
}
