/* SPDX-License-Identifier: MIT */
/* bench_flows.c - what a program gets from the batch calls (`make
 * bench-batch`): each flow through the public calls with the kernels the
 * library chose here (RC4TUNE_CONF, else the CPU rules), keys in a
 * malloc'd rc4tune_key array at several placements in turn, separate
 * malloc'd input and output buffers; round-robin slices, medians over
 * rounds, each flow's worst and median placement, ratios from one run.
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
 * --machine prints "flow NAME WORST MEDIAN" lines (tests/flows.py). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "benchutil.h"
#ifdef HAVE_LIBCRYPTO
#include <openssl/rc4.h>
#endif

enum { NKEYS = 64, KEYLEN = 16, MSG = 16, NSTREAMS = 8, BLOCK = 1024,
       PLACES = 8, MAXROUNDS = 31 };
/* Offsets of the key array past a 4 KiB boundary: 8-byte steps that no
 * tuner placement (multiples of 64) shares, across the page. */
static const size_t place_at[PLACES] = { 8, 600, 1224, 1800, 2440, 3064,
					 3656, 4040 };

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
	double rate[PLACES][MAXROUNDS];
	double worst, median;
};

static struct flow flows[] = {
	{ "keys", "set_keys + 16 B by crypt_many", "keys/s", f_keys, 1 },
#ifdef HAVE_LIBCRYPTO
	{ "openssl", "OpenSSL RC4_set_key + RC4 16 B", "keys/s", f_openssl, 1 },
#endif
	{ "one", "set_key + crypt 1 KiB, 8 keys", "MB/s", f_one, 0 },
	{ "streams", "set_keys + crypt_many 8 x 1 KiB", "MB/s", f_streams, 0 },
	{ "continue", "set_keys + crypt 1 KiB per key", "MB/s", f_continue, 0 },
	{ "many", "crypt_many 8 x 1 KiB (keys set)", "MB/s", f_many, 0 },
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

/* One slice of about SECS of flow F: its rate (units a second). */
static double slice(struct flow *f, double secs)
{
	unsigned long reps = 1;
	double t0, t, units;

	for (;;) {
		t0 = now();
		units = f->run(reps);
		t = now() - t0;
		if (t >= secs || reps > (1ul << 30))
			break;
		reps *= t > secs / 16 ? 2 : 8;
	}
	return units / t / (f->per_key ? 1 : 1e6);
}

/* Medians over the rounds at each placement; the worst and the median
 * placement's. */
static void summarize(struct flow *f, int rounds)
{
	double med[PLACES], tmp[MAXROUNDS];

	for (int p = 0; p < PLACES; p++) {
		memcpy(tmp, f->rate[p], rounds * sizeof *tmp);
		qsort(tmp, rounds, sizeof *tmp, cmp_double);
		med[p] = tmp[rounds / 2];
	}
	qsort(med, PLACES, sizeof *med, cmp_double);
	f->worst = med[0];
	f->median = (med[PLACES / 2 - 1] + med[PLACES / 2]) / 2;
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
	       PLACES);
	printf("%-10s %-34s %12s %12s  %s\n", "name", "calls", "worst",
	       "median", "unit");
	for (int i = 0; i < NFLOWS; i++)
		printf("%-10s %-34s %12.1f %12.1f  %s\n", flows[i].name,
		       flows[i].what, flows[i].worst, flows[i].median,
		       flows[i].unit);
	ratio("streams / one (set_keys + crypt_many)", "streams", "one", 0.97);
	ratio("continue / one (set_keys + crypt)", "continue", "one", 0.95);
	ratio("keys / openssl (keys/s)", "keys", "openssl", 3.0);
	for (int i = 0; machine && i < NFLOWS; i++)
		printf("flow %s %.6g %.6g\n", flows[i].name, flows[i].worst,
		       flows[i].median);
}

int main(int argc, char **argv)
{
	int rounds = 9, machine = 0;
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
	if (rounds < 1 || rounds > MAXROUNDS || setup() != 0) {
		fprintf(stderr, "bench_flows: rounds 1..%d, or out of memory\n",
			MAXROUNDS);
		return rounds < 1 || rounds > MAXROUNDS ? 2 : 1;
	}
	for (int r = 0; r < rounds; r++)
		for (int p = 0; p < PLACES; p++) {
			place(p);
			for (int i = 0; i < NFLOWS; i++)
				flows[i].rate[p][r] = slice(&flows[i], secs);
		}
	for (int i = 0; i < NFLOWS; i++)
		summarize(&flows[i], rounds);
	print(rounds, machine);
	free(B.block);
	return 0;
}
