/* SPDX-License-Identifier: MIT */
/* bench_batch.c - many keys at once, side by side in one run
 * (`make bench-batch`):
 *
 *  keys/s   a fresh 16-byte key and 16 bytes of keystream per key, in
 *           calls of 64 keys: every batch kernel through rc4tune_set_keys
 *           + rc4tune_crypt_many, the library's single-key API, and
 *           OpenSSL's RC4_set_key + RC4 loop;
 *  MB/s     8 streams x 1024 bytes (rc4tune_crypt_many) for every batch
 *           kernel, against every single-stream kernel (and OpenSSL's
 *           RC4) on one stream of 1024-byte calls.
 *
 * The batch kernel serial runs a single-stream kernel key by key and
 * stream by stream: the library's pick, or --single NAME's.
 *
 * As tests/bench/bench, through the tuner's timing core (tuner/speed.h) with its
 * keys and buffers: the keys in an rc4tune_key array at the core's
 * placements in turn, separate input and output buffers, short slices
 * round-robin over rows, each figure the core's speed (the median as at
 * its worst placement).  Each row also shows its ratio to OpenSSL and its
 * share of the store bound of its cell width (storebound.h, measured in
 * the same rounds): a key costs at least 256 + 16 swaps of 2 stores, and
 * a stream byte 2 stores whatever the streams.  It prints best batch /
 * OpenSSL (keys/s), best batch / best single and best batch / serial
 * (MB/s). */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "tests/unit/layout.h"
#include "storebound.h"
#include "tuner/speed.h"
#include "tuner/timing.h"
#ifdef HAVE_LIBCRYPTO
#include <openssl/rc4.h>
#endif

#define NKEYS SPEED_NKEYS /* keys per call in the keys/s test */
#define KEYLEN 16
#define MSGLEN 16
#define NSTREAMS 8  /* streams in the aggregate test */
#define BLOCK SPEED_LANE
#define MAXC 64
#define MAXROUNDS SB_MAXROUNDS /* a bound figure every round */

enum what { BATCH, SINGLE, OPENSSL };

/* The two cells: a call's keys, and streams' bytes. */
enum { KEYS, STREAMS, NCELLS };

struct cand {
	const char *name;
	enum what what;
	unsigned long reps[NCELLS]; /* calls a slice */
	double keys_med, mbs_med;
};

static uint8_t keybytes[NKEYS][KEYLEN];

/* The store bound's rates in stores per ns (the rows are timed by the
 * clock), measured among the rounds. */
static struct sb_rounds bound;

/* A fresh key each time: the counter in its first bytes moves on. */
static void next_keys(uint64_t *ctr)
{
	for (size_t i = 0; i < NKEYS; i++) {
		++*ctr;
		memcpy(keybytes[i], ctr, sizeof *ctr);
	}
}

/* Seconds that REPS calls of NKEYS fresh keys and MSGLEN bytes of each
 * take with C's row, the keys at KEYS. */
static double run_keys(const struct cand *c, rc4tune_key *keys,
		       unsigned long reps)
{
	static uint64_t ctr;
	const void *data[NKEYS], *in[NKEYS];
	void *out[NKEYS];
	size_t len[NKEYS];
	double t0 = timing_now();

	for (size_t i = 0; i < NKEYS; i++) {
		data[i] = keybytes[i];
		len[i] = KEYLEN;
		in[i] = speed_lane_in(i);
		out[i] = speed_lane_out(i);
	}
	for (unsigned long r = 0; r < reps; r++) {
		next_keys(&ctr);
		if (c->what == BATCH) {
			rc4tune_set_keys(keys, NKEYS, data, len);
			rc4tune_crypt_many(keys, NKEYS, MSGLEN, in, out);
		} else if (c->what == SINGLE) {
			for (size_t i = 0; i < NKEYS; i++) {
				rc4tune_set_key(&keys[i], keybytes[i], KEYLEN);
				rc4tune_crypt(&keys[i], MSGLEN, in[i], out[i]);
			}
		}
#ifdef HAVE_LIBCRYPTO
		else {
			RC4_KEY *ok = (RC4_KEY *)(void *)keys;
			for (size_t i = 0; i < NKEYS; i++) {
				RC4_set_key(ok, KEYLEN, keybytes[i]);
				RC4(ok, MSGLEN, in[i], out[i]);
			}
		}
#endif
	}
	return timing_now() - t0;
}

/* Seconds that REPS calls of BLOCK bytes take: of NSTREAMS streams for a
 * batch kernel, of one stream otherwise, the keys at KEYS. */
static double run_streams(const struct cand *c, rc4tune_key *keys,
			  unsigned long reps)
{
	const void *data[NSTREAMS], *in[NSTREAMS];
	void *out[NSTREAMS];
	size_t len[NSTREAMS];
#ifdef HAVE_LIBCRYPTO
	RC4_KEY *ok = (RC4_KEY *)(void *)keys;
	if (c->what == OPENSSL)
		RC4_set_key(ok, KEYLEN, keybytes[0]);
#endif

	for (size_t i = 0; i < NSTREAMS; i++) {
		data[i] = keybytes[i];
		len[i] = KEYLEN;
		in[i] = speed_lane_in(i);
		out[i] = speed_lane_out(i);
	}
	if (c->what == BATCH)
		rc4tune_set_keys(keys, NSTREAMS, data, len);
	else if (c->what == SINGLE)
		rc4tune_set_key(&keys[0], keybytes[0], KEYLEN);
	double t0 = timing_now();
	for (unsigned long r = 0; r < reps; r++) {
		if (c->what == BATCH)
			rc4tune_crypt_many(keys, NSTREAMS, BLOCK, in, out);
#ifdef HAVE_LIBCRYPTO
		else if (c->what == OPENSSL)
			RC4(ok, BLOCK, in[0], out[0]);
#endif
		else
			rc4tune_crypt(&keys[0], BLOCK, in[0], out[0]);
	}
	return timing_now() - t0;
}

/* The library's single-stream pick, and the single-stream kernel that
 * batch rows run with (serial's). */
static const char *lib_single, *lib_batch, *serial_single;

/* A lane kernel runs only keys of the single-stream kernel's layout
 * (librc4tune(3), Many keys at once): its row runs with serial's kernel
 * where that is of its layout, else with the layout's portable kernel. */
static const char *single_for(const char *batch)
{
	const char *p = layout_portable(batch);

	/* one string per layout: the same pointer, the same layout */
	return p == NULL || layout_portable(serial_single) == p ? serial_single
								 : p;
}

static void select_cand(const struct cand *c)
{
	if (c->what == BATCH) {
		rc4tune_use_batch_kernel(c->name);
		rc4tune_use_kernel(single_for(c->name));
	} else if (c->what == SINGLE) {
		rc4tune_use_kernel(c->name);
	}
}

/* Seconds that REPS calls of row ROW in CELL take, its keys at PLACE;
 * the core's speed_run. */
static double run(void *ctx, size_t row, int cell, int place,
		  unsigned long reps)
{
	const struct cand *c = (const struct cand *)ctx + row;

	select_cand(c);
	return cell == KEYS ? run_keys(c, speed_keys(place), reps)
			    : run_streams(c, speed_keys(place), reps);
}

/* Units a call: keys, or bytes (all the streams' for a batch kernel). */
static double units(const struct cand *c, int cell)
{
	return cell == KEYS ? NKEYS : c->what == BATCH ? NSTREAMS * BLOCK
						       : BLOCK;
}

/* The core's speed_slice: keys or bytes a second, or the seam's rate. */
static double slice(void *ctx, size_t row, int cell, int place)
{
	const struct cand *c = (const struct cand *)ctx + row;

	if (speed_seam != NULL)
		return speed_seam(c->name, place);
	double t = run(ctx, row, cell, place, c->reps[cell]);
	return (double)c->reps[cell] * units(c, cell) / (t > 0 ? t : 1e-9);
}

/* The options; 0, or -1 on a usage error. */
static int parse_args(int argc, char **argv, int *rounds, double *secs)
{
	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc)
			*rounds = atoi(argv[++a]);
		else if (strcmp(argv[a], "--ms") == 0 && a + 1 < argc)
			*secs = atof(argv[++a]) / 1000;
		else if (strcmp(argv[a], "--single") == 0 && a + 1 < argc)
			serial_single = argv[++a];
		else
			*rounds = 0;
	}
	if (*rounds < 1 || *rounds > MAXROUNDS || *secs <= 0) {
		fprintf(stderr, "usage: bench_batch [--rounds 1..%d] [--ms MS] "
				"[--single KERNEL]\n",
			MAXROUNDS);
		return -1;
	}
	*rounds = speed_whole_turns(*rounds, MAXROUNDS, speed_cpus());
	return 0;
}

/* Every usable batch kernel, every usable single-stream kernel, then
 * OpenSSL where built with it; the count. */
static int all_cands(struct cand *cands)
{
	const char *name;
	int n = 0, usable;

	for (size_t i = 0; n < MAXC - 1 &&
			   (name = rc4tune_batch_kernel_info(i, NULL, &usable));
	     i++)
		if (usable)
			cands[n++] = (struct cand){ .name = name, .what = BATCH };
	for (size_t i = 0; n < MAXC - 1 &&
			   (name = rc4tune_kernel_info(i, NULL, &usable));
	     i++)
		if (usable)
			cands[n++] = (struct cand){ .name = name, .what = SINGLE };
#ifdef HAVE_LIBCRYPTO
	cands[n++] = (struct cand){ .name = "openssl", .what = OPENSSL };
#endif
	return n;
}

/* The rows' medians; the best of each kind into BEST. */
struct best {
	int batch_keys, batch_mbs, lane_mbs, single, openssl, serial;
};

static void summarize(const struct speed_table *t, struct cand *cands, int n,
		      struct best *b)
{
	*b = (struct best){ -1, -1, -1, -1, -1, -1 };
	for (int i = 0; i < n; i++) {
		struct cand *c = &cands[i];
		struct speed keys, mbs;
		speed_of(t, (size_t)i, KEYS, &keys, NULL);
		speed_of(t, (size_t)i, STREAMS, &mbs, NULL);
		c->keys_med = keys.rate;
		c->mbs_med = mbs.rate / 1e6;
		if (c->what == OPENSSL)
			b->openssl = i;
		else if (c->what == SINGLE &&
			 (b->single < 0 || c->mbs_med > cands[b->single].mbs_med))
			b->single = i;
		if (c->what != BATCH)
			continue;
		bool lane = strcmp(c->name, "serial") != 0;
		if (!lane)
			b->serial = i;
		if (b->batch_keys < 0 ||
		    c->keys_med > cands[b->batch_keys].keys_med)
			b->batch_keys = i;
		if (b->batch_mbs < 0 || c->mbs_med > cands[b->batch_mbs].mbs_med)
			b->batch_mbs = i;
		if (lane && (b->lane_mbs < 0 ||
			     c->mbs_med > cands[b->lane_mbs].mbs_med))
			b->lane_mbs = i;
	}
}

/* The index in sb_widths of the cells row C stores, or -1: serial's are
 * its single-stream kernel's; OpenSSL's its state's type. */
static int cand_width(const struct cand *c)
{
#ifdef HAVE_LIBCRYPTO
	if (c->what == OPENSSL)
		return sb_width_index(sizeof(((RC4_KEY *)0)->data[0]));
#endif
	if (c->what == BATCH && strcmp(c->name, "serial") == 0)
		return sb_width_of(serial_single);
	return sb_width_of(c->name);
}

/* C's keys/s and MB/s as shares of the store bound of its width and
 * lanes (a lane kernel's streams are independent tables), or -1 (no
 * width). */
static void shares(const struct cand *c, double *keys, double *mbs)
{
	int w = cand_width(c);

	*keys = *mbs = -1;
	if (w < 0)
		return;
	int l = c->what == BATCH ? sb_lanes_of(c->name) : 0;
	double ns_per_byte = sb_bound_cpb(bound.lanes_med[w][l]);
	*keys = c->keys_med * (256 + MSGLEN) * ns_per_byte / 1e9;
	*mbs = c->mbs_med * ns_per_byte / 1e3;
}

/* A figure, its ratio to OpenSSL's (O; none: -1) and its share S (none:
 * -1), in columns. */
static void figure(double v, double o, double s, const char *fmt)
{
	printf(fmt, v);
	if (o > 0)
		printf(" %7.2f", v / o);
	else
		printf(" %7s", "-");
	if (s >= 0)
		printf(" %6.3f", s);
	else
		printf(" %6s", "-");
}

/* A row per candidate, the library's picks marked. */
static void print_rows(const struct cand *cands, int n, const struct best *b)
{
	const struct cand *o = b->openssl >= 0 ? &cands[b->openssl] : NULL;

	printf("%-32s %10s %7s %6s %8s %7s %6s\n", "", "keys/s", "/ossl",
	       "share", "MB/s", "/ossl", "share");
	printf("%-32s %25s %23s\n", "", "(key+16 B)", "(1024 B blocks)");
	for (int i = 0; i < n; i++) {
		const struct cand *c = &cands[i];
		const char *tag = c->what == BATCH    ? "batch"
				  : c->what == SINGLE ? "single"
						      : "";
		char label[64];
		double sk, sm;
		if (i == b->serial)
			snprintf(label, sizeof label, "batch serial (%s)",
				 serial_single);
		else
			snprintf(label, sizeof label, "%s %s", tag, c->name);
		shares(c, &sk, &sm);
		printf("%-32s", label);
		figure(c->keys_med, o ? o->keys_med : -1, sk, " %10.0f");
		figure(c->mbs_med, o ? o->mbs_med : -1, sm, " %8.1f");
		printf("%s%s\n", c->what == BATCH ? " (8 streams)" : "",
		       (c->what == BATCH && strcmp(c->name, lib_batch) == 0) ||
				       (c->what == SINGLE &&
					strcmp(c->name, lib_single) == 0)
			       ? c->what == BATCH
					 ? "  <- library's crypt_many pick"
					 : "  <- library's pick"
			       : "");
	}
}

/* The store bound per width, in the rows' terms. */
static void print_bound(void)
{
	printf("store bound:");
	for (int w = 0; w < SB_NWIDTHS; w++)
		printf(" %u-bit %.3f ns/B (%.3f stores/ns)%s", 8 * sb_widths[w],
		       sb_bound_cpb(bound.med[w]), bound.med[w],
		       w + 1 < SB_NWIDTHS ? "," : "\n");
	for (int l = 1; l < SB_NLANES; l++) {
		printf("store bound, %u lanes:", SB_LANES(l));
		for (int w = 0; w < SB_NWIDTHS; w++)
			printf(" %u-bit %.3f ns/B%s", 8 * sb_widths[w],
			       sb_bound_cpb(bound.lanes_med[w][l]),
			       w + 1 < SB_NWIDTHS ? "," : "\n");
	}
	printf("share: bound / the row's time (a lane kernel's of its lanes); "
	       "a key is 256 + %d swaps, a byte one\n", MSGLEN);
}

/* The ratios the batch kind is for. */
static void print_ratios(const struct cand *cands, const struct best *b)
{
	const struct cand *top = &cands[b->batch_mbs];

	if (b->openssl >= 0)
		printf("keys/s: best batch (%s) / OpenSSL RC4_set_key+RC4 = "
		       "%.2f\n",
		       cands[b->batch_keys].name,
		       cands[b->batch_keys].keys_med / cands[b->openssl].keys_med);
	printf("8x1024 aggregate: best batch (%s) / best single (%s) = %.2f\n",
	       top->name, cands[b->single].name,
	       top->mbs_med / cands[b->single].mbs_med);
	if (b->serial >= 0 && b->lane_mbs >= 0)
		printf("8x1024 aggregate: best lane batch (%s) / serial (%s) = "
		       "%.2f\n",
		       cands[b->lane_mbs].name, serial_single,
		       cands[b->lane_mbs].mbs_med / cands[b->serial].mbs_med);
}

int main(int argc, char **argv)
{
	static struct cand cands[MAXC];
	int rounds = 3 * SPEED_PLACES;
	double secs = 0.004;
	struct best b;
	struct speed_table t;

	/* the library's picks, before the rounds switch kernels */
	lib_single = rc4tune_kernel_name();
	lib_batch = rc4tune_batch_kernel_name(); /* rc4tune_crypt_many's */
	if (parse_args(argc, argv, &rounds, &secs) != 0)
		return 2;
	if (serial_single == NULL)
		serial_single = lib_single;
	if (rc4tune_use_kernel(serial_single) != 0) {
		fprintf(stderr, "bench_batch: --single %s: unknown or unusable "
				"kernel\n",
			serial_single);
		return 1;
	}
	int n = all_cands(cands);
	if (speed_init(&t, (size_t)n, NCELLS) != 0) {
		perror("bench_batch");
		return 1;
	}
	for (int i = 0; i < n; i++)
		for (int c = 0; c < NCELLS; c++)
			cands[i].reps[c] = speed_calibrate(run, cands, (size_t)i,
							   c, secs);
	for (int r = 0; r < rounds; r++) {
		sb_round(&bound, r, 0);
		speed_round(&t, NULL, (size_t)n, slice, cands);
	}
	summarize(&t, cands, n, &b);
	speed_free(&t);
	sb_medians(&bound, rounds);
	print_rows(cands, n, &b);
	print_bound();
	if (b.batch_keys < 0 || b.single < 0)
		return 1;
	print_ratios(cands, &b);
	return 0;
}
