/* SPDX-License-Identifier: MIT */
/* bench_flows.c - what a program gets from the batch calls (`make
 * bench-batch`): each flow through the public calls with the kernels the
 * library chose here (RC4TUNE_CONF, else the CPU rules), keys in a
 * malloc'd rc4tune_key array at placements of its own in turn (none the
 * tuner's), separate malloc'd input and output buffers; the rounds and
 * the statistic of the timing core (tuner/speed.h): each flow's speed is
 * its median as at its slowest placement, beside its median over every
 * round; ratios from one run.
 *
 *   keys       rc4tune_set_keys of 64 fresh 16-byte keys, then 16 bytes
 *              of each through rc4tune_crypt_many (a key search)
 *   openssl    the same with OpenSSL's RC4_set_key + RC4
 *   one        8 keys by rc4tune_set_key, 1 KiB each by rc4tune_crypt:
 *              the single-stream flow the batch flows must not lose to
 *   streams    rc4tune_set_keys of 8 keys, then 8 x 1 KiB through
 *              rc4tune_crypt_many
 *   continue   rc4tune_set_keys of 8 keys, then 1 KiB each by
 *              rc4tune_crypt
 *   many       8 x 1 KiB through rc4tune_crypt_many on keys set up once
 *              (the tuner's crypt_many cell)
 *
 * --machine prints "flow NAME WORST MEDIAN" lines (tests/bench/flows.py). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "tuner/speed.h"
#include "tuner/timing.h"
#ifdef HAVE_LIBCRYPTO
#include <openssl/rc4.h>
#endif

enum { NKEYS = 64, KEYLEN = 16, MSG = 16, NSTREAMS = 8, BLOCK = 1024 };
/* Offsets of the key array past a 4 KiB boundary, one for each of the
 * core's placements: 8-byte steps that no tuner placement (multiples of
 * 64) shares, across the page. */
static const size_t place_at[SPEED_PLACES] = { 8, 600, 1224, 2440, 3064,
					       4040 };

struct buffers {
	unsigned char *block;        /* the keys' room, at every placement */
	rc4tune_key *keys;           /* at the current placement */
	unsigned char kb[NKEYS][KEYLEN];
	const void *kd[NKEYS];
	size_t kl[NKEYS];
	const void *in[NKEYS];
	void *out[NKEYS];
	uint64_t ctr;
};

static struct buffers B;

static void fresh(size_t n)
{
	for (size_t i = 0; i < n; i++, B.ctr++)
		memcpy(B.kb[i], &B.ctr, sizeof B.ctr);
}

/* Each flow: REPS calls' worth, and the units (keys or bytes) done. */
static double f_keys(unsigned long reps)
{
	for (unsigned long r = 0; r < reps; r++) {
		fresh(NKEYS);
		rc4tune_set_keys(B.keys, NKEYS, B.kd, B.kl);
		rc4tune_crypt_many(B.keys, NKEYS, MSG, B.in, B.out);
	}
	return (double)reps * NKEYS;
}

#ifdef HAVE_LIBCRYPTO
static double f_openssl(unsigned long reps)
{
	RC4_KEY k;

	for (unsigned long r = 0; r < reps; r++) {
		fresh(NKEYS);
		for (size_t i = 0; i < NKEYS; i++) {
			RC4_set_key(&k, KEYLEN, B.kb[i]);
			RC4(&k, MSG, B.in[i], B.out[i]);
		}
	}
	return (double)reps * NKEYS;
}
#endif

static double f_one(unsigned long reps)
{
	for (unsigned long r = 0; r < reps; r++) {
		fresh(NSTREAMS);
		for (size_t i = 0; i < NSTREAMS; i++) {
			rc4tune_set_key(&B.keys[i], B.kb[i], KEYLEN);
			rc4tune_crypt(&B.keys[i], BLOCK, B.in[i], B.out[i]);
		}
	}
	return (double)reps * NSTREAMS * BLOCK;
}

static double f_streams(unsigned long reps)
{
	for (unsigned long r = 0; r < reps; r++) {
		fresh(NSTREAMS);
		rc4tune_set_keys(B.keys, NSTREAMS, B.kd, B.kl);
		rc4tune_crypt_many(B.keys, NSTREAMS, BLOCK, B.in, B.out);
	}
	return (double)reps * NSTREAMS * BLOCK;
}

static double f_continue(unsigned long reps)
{
	for (unsigned long r = 0; r < reps; r++) {
		fresh(NSTREAMS);
		rc4tune_set_keys(B.keys, NSTREAMS, B.kd, B.kl);
		for (size_t i = 0; i < NSTREAMS; i++)
			rc4tune_crypt(&B.keys[i], BLOCK, B.in[i], B.out[i]);
	}
	return (double)reps * NSTREAMS * BLOCK;
}

static double f_many(unsigned long reps)
{
	for (unsigned long r = 0; r < reps; r++)
		rc4tune_crypt_many(B.keys, NSTREAMS, BLOCK, B.in, B.out);
	return (double)reps * NSTREAMS * BLOCK;
}

struct flow {
	const char *name, *what, *unit;
	double (*run)(unsigned long reps);
	int per_key; /* keys/s (else MB/s) */
	unsigned long reps; /* calls a slice */
	double worst, median;
};

static struct flow flows[] = {
	{ .name = "keys", .what = "set_keys + 16 B by crypt_many", .unit = "keys/s", .run = f_keys, .per_key = 1 },
#ifdef HAVE_LIBCRYPTO
	{ .name = "openssl", .what = "OpenSSL RC4_set_key + RC4 16 B", .unit = "keys/s", .run = f_openssl, .per_key = 1 },
#endif
	{ .name = "one", .what = "set_key + crypt 1 KiB, 8 keys", .unit = "MB/s", .run = f_one, .per_key = 0 },
	{ .name = "streams", .what = "set_keys + crypt_many 8 x 1 KiB", .unit = "MB/s", .run = f_streams, .per_key = 0 },
	{ .name = "continue", .what = "set_keys + crypt 1 KiB per key", .unit = "MB/s", .run = f_continue, .per_key = 0 },
	{ .name = "many", .what = "crypt_many 8 x 1 KiB (keys set)", .unit = "MB/s", .run = f_many, .per_key = 0 },
};
enum { NFLOWS = sizeof flows / sizeof flows[0] };

static int setup(void)
{
	static unsigned char msg_in[NKEYS][BLOCK], msg_out[NKEYS][BLOCK];

	B.block = malloc(4096 + 4096 + NKEYS * sizeof(rc4tune_key));
	if (B.block == NULL)
		return -1;
	for (size_t i = 0; i < NKEYS; i++) {
		B.kd[i] = B.kb[i];
		B.kl[i] = KEYLEN;
		B.in[i] = msg_in[i];
		B.out[i] = msg_out[i];
	}
	return 0;
}

/* The keys at placement P: past the block's first 4 KiB boundary. */
static void place(int p)
{
	uintptr_t base = ((uintptr_t)B.block + 4095) & ~(uintptr_t)4095;
	B.keys = (rc4tune_key *)(void *)(base + place_at[p]);
	fresh(NSTREAMS);
	rc4tune_set_keys(B.keys, NSTREAMS, B.kd, B.kl); /* for "many" */
}

/* Seconds that REPS calls' worth of flow I take; the core's speed_run
 * (one cell, the keys where the round put them). */
static double run(void *ctx, size_t i, int cell, int place,
		  unsigned long reps)
{
	const struct flow *f = (const struct flow *)ctx + i;
	double t0 = timing_now();

	(void)cell, (void)place;
	f->run(reps);
	return timing_now() - t0;
}

/* The core's speed_slice: flow I's rate (keys or MB a second), its keys
 * at placement P (moved there at a round's first slice). */
static double slice(void *ctx, size_t i, int cell, int p)
{
	static int at = -1;
	struct flow *f = (struct flow *)ctx + i;
	double t0, units;

	(void)cell;
	if (p != at)
		place(at = p);
	t0 = timing_now();
	units = f->run(f->reps);
	double t = timing_now() - t0;
	return units / (t > 0 ? t : 1e-9) / (f->per_key ? 1 : 1e6);
}

static struct flow *flow_named(const char *name)
{
	for (int i = 0; i < NFLOWS; i++)
		if (strcmp(flows[i].name, name) == 0)
			return &flows[i];
	return NULL;
}

/* A / B at the worst and the median placement, on one line. */
static void ratio(const char *what, const char *a, const char *b, double goal)
{
	struct flow *x = flow_named(a), *y = flow_named(b);

	if (x == NULL || y == NULL)
		return;
	printf("%-40s worst %.2f  median %.2f  (goal %.2f)\n", what,
	       x->worst / y->worst, x->median / y->median, goal);
}

static void print(int rounds, int machine)
{
	printf("flows through the public calls: kernel %s, crypt_many %s "
	       "(rc4tune --explain names set_keys's); %d rounds, keys at %d "
	       "placements\n",
	       rc4tune_kernel_name(), rc4tune_batch_kernel_name(), rounds,
	       SPEED_PLACES);
	printf("%-10s %-34s %12s %12s  %s\n", "name", "calls", "speed",
	       "median", "unit");
	for (int i = 0; i < NFLOWS; i++)
		printf("%-10s %-34s %12.1f %12.1f  %s\n", flows[i].name,
		       flows[i].what, flows[i].worst, flows[i].median,
		       flows[i].unit);
	ratio("streams / one (set_keys + crypt_many)", "streams", "one", 1.5);
	ratio("continue / one (set_keys + crypt)", "continue", "one", 1.0);
	ratio("keys / openssl (keys/s)", "keys", "openssl", 3.5);
	for (int i = 0; machine && i < NFLOWS; i++)
		printf("flow %s %.6g %.6g\n", flows[i].name, flows[i].worst,
		       flows[i].median);
}

/* ROUNDS rounds of the core over every flow, from slices of about SECS:
 * each flow's speed (worst) and median over every round.  0, or -1 out
 * of memory. */
static int measure(int rounds, double secs)
{
	struct speed_table t;

	if (speed_init(&t, NFLOWS, 1) != 0)
		return -1;
	place(0);
	for (int i = 0; i < NFLOWS; i++)
		flows[i].reps = speed_calibrate(run, flows, (size_t)i, 0, secs);
	for (int r = 0; r < rounds; r++)
		speed_round(&t, NULL, NFLOWS, slice, flows);
	for (int i = 0; i < NFLOWS; i++) {
		struct speed s;
		speed_of(&t, (size_t)i, 0, &s, NULL);
		flows[i].worst = s.rate;
		flows[i].median = s.all;
	}
	speed_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = 3 * SPEED_PLACES, machine = 0;
	double secs = 0.003;

	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--machine") == 0)
			machine = 1;
		else if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc)
			rounds = atoi(argv[++a]);
		else {
			fprintf(stderr, "usage: bench_flows [--rounds N] "
					"[--machine]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > SPEED_MAX_ROUNDS) {
		fprintf(stderr, "bench_flows: rounds 1..%d\n", SPEED_MAX_ROUNDS);
		return 2;
	}
	rounds = speed_whole_turns(rounds, SPEED_MAX_ROUNDS, speed_cpus());
	if (setup() != 0 || measure(rounds, secs) != 0) {
		perror("bench_flows");
		return 1;
	}
	print(rounds, machine);
	free(B.block);
	return 0;
}
