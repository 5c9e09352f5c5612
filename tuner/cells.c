/* SPDX-License-Identifier: MIT */
/* cells.c - what each kind of kernel is timed on: the public calls'
 * dispatch (src/key.h) with the kernel named, on the timing core's keys
 * and buffers, in cells whose rates the workloads weigh. */
#include <config.h>

#include <string.h>
#include "kernels/family.h"
#include "key.h"
#include "measure.h"
#include "speed.h"
#include "timing.h"

static const char *const workloads[WORKLOAD_COUNT] = {
	[WORKLOAD_MIXED] = "mixed",
	[WORKLOAD_BULK] = "bulk",
	[WORKLOAD_PACKETS] = "packets",
	[WORKLOAD_KEYS] = "keys",
};

const char *workload_name(enum workload w)
{
	return workloads[w];
}

int workload_parse(const char *name, enum workload *w)
{
	for (int i = 0; i < WORKLOAD_COUNT; i++)
		if (strcmp(name, workloads[i]) == 0) {
			*w = (enum workload)i;
			return 0;
		}
	return -1;
}

/* A single-stream kernel gets one key; a batch kernel NKEYS, of which
 * NSTREAMS run streams. */
enum { NKEYS = SPEED_NKEYS, NSTREAMS = 8, STREAM = SPEED_LANE, KEYLEN = 16,
       KEYMSG = 16 };

/* The single kind's cells that others name: 8 KiB (its c/B), and those
 * whose work serial repeats in each batch call (serial_cell). */
enum { CELL_1K = 3, CELL_8K = 4, CELL_KEYS = 5 };

/* A fresh 16-byte key each time it is called. */
static const uint8_t *fresh_key(void)
{
	static uint64_t n;
	static uint8_t key[NKEYS][KEYLEN];
	uint8_t *k = key[n % NKEYS];

	memcpy(k, "rc4tune-timing16", KEYLEN);
	memcpy(k, &n, sizeof n);
	n++;
	return k;
}

static double run_single(const struct trial *tr, unsigned long reps)
{
	const struct rc4k *k = rc4k_single(tr->k);
	const struct cell *cell = &measure_benches[RC4K_SINGLE].cells[tr->cell];
	rc4tune_key *key = speed_keys(tr->place);
	double t0;

	if (cell->bytes == 0) {
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++) {
			rc4_key_set(k, key, fresh_key(), KEYLEN);
			rc4tune_crypt(key, KEYMSG, speed_in(tr->place),
				      speed_out(tr->place));
		}
	} else {
		rc4_key_set(k, key, fresh_key(), KEYLEN);
		t0 = timing_now();
		for (unsigned long r = 0; r < reps; r++)
			rc4tune_crypt(key, cell->bytes, speed_in(tr->place),
				      speed_out(tr->place));
	}
	return timing_now() - t0;
}

/* What a batch call is handed. */
struct batch_args {
	rc4tune_key *keys;
	const void *key[NKEYS], *in[NKEYS];
	void *out[NKEYS];
	size_t len[NKEYS];
};

/* The single-stream kernel whose keys B is timed on: serial's, or that
 * of B's layout, so that B's own figures are timed (decide_family weighs
 * other families' lanes). */
static const struct rc4k *keys_of(const struct trial *tr,
				  const struct rc4k_batch *b)
{
	return rc4k_misfit_reason(&b->info, tr->single) == NULL
		       ? tr->single
		       : rc4k_family(b->info.width)->portable;
}

/* A's keys at TR's placement and N fresh keys. */
static void batch_args_at(struct batch_args *a, const struct trial *tr,
			  size_t n)
{
	a->keys = speed_keys(tr->place);
	for (size_t i = 0; i < NKEYS; i++) {
		a->len[i] = KEYLEN;
		a->in[i] = speed_lane_in(i);
		a->out[i] = speed_lane_out(i);
		a->key[i] = i < n ? fresh_key() : NULL;
	}
}

/* rc4tune_set_keys: NKEYS fresh keys a call, then the first KEYMSG bytes
 * of each (what a key is set up for), both by the kernel timed. */
static double run_set_keys(const struct trial *tr, unsigned long reps)
{
	const struct rc4k_batch *b = rc4k_batch(tr->k);
	struct batch_args a;

	batch_args_at(&a, tr, 0);
	double t0 = timing_now();
	for (unsigned long r = 0; r < reps; r++) {
		for (size_t i = 0; i < NKEYS; i++)
			a.key[i] = fresh_key();
		rc4_keys_set(keys_of(tr, b), b, a.keys, NKEYS, a.key, a.len);
		rc4_keys_crypt(b, a.keys, NKEYS, KEYMSG, a.in, a.out);
	}
	return timing_now() - t0;
}

/* rc4tune_crypt_many: NSTREAMS streams of STREAM bytes a call, on keys
 * that rc4tune_set_keys gave the single-stream kernel's family. */
static double run_crypt_many(const struct trial *tr, unsigned long reps)
{
	const struct rc4k_batch *b = rc4k_batch(tr->k);
	struct batch_args a;

	batch_args_at(&a, tr, NSTREAMS);
	rc4_keys_set(keys_of(tr, b), b, a.keys, NSTREAMS, a.key, a.len);
	double t0 = timing_now();
	for (unsigned long r = 0; r < reps; r++)
		rc4_keys_crypt(b, a.keys, NSTREAMS, STREAM, a.in, a.out);
	return timing_now() - t0;
}

/* A batch call's one cell, the same whatever the workload. */
#define ONE_CELL(label, bytes, keys)                                        \
	.ncells = 1, .cells = { { label, bytes, keys } },                   \
	.weight = { [WORKLOAD_MIXED] = { 1 }, [WORKLOAD_BULK] = { 1 },      \
		    [WORKLOAD_PACKETS] = { 1 }, [WORKLOAD_KEYS] = { 1 } },  \
	.describe = { [WORKLOAD_MIXED] = label, [WORKLOAD_BULK] = label,    \
		      [WORKLOAD_PACKETS] = label, [WORKLOAD_KEYS] = label }

const struct bench measure_benches[RC4K_KINDS] = {
	/* The sizes of `openssl speed`, then the password-recovery pattern. */
	[RC4K_SINGLE] = {
		.title = "The 'numbers' are in 1000s of bytes per second "
			 "processed; keys/s: a fresh key per 16-byte message.",
		.ncells = 6,
		.cells = { { "16 bytes", 16, 0 }, { "64 bytes", 64, 0 },
			   { "256 bytes", 256, 0 },
			   [CELL_1K] = { "1024 bytes", 1024, 0 },
			   [CELL_8K] = { "8192 bytes", 8192, 0 },
			   [CELL_KEYS] = { "keys/s", 0, 1 } },
		.cpb_cell = CELL_8K,
		.cpb_label = "c/B@8k",
		.weight = {
			[WORKLOAD_MIXED] = { 1, 1, 1, 1, 1, 0 },
			[WORKLOAD_BULK] = { 0, 0, 0, 1, 3, 0 },
			[WORKLOAD_PACKETS] = { 1, 1, 1, 1, 0, 0 },
			[WORKLOAD_KEYS] = { 0, 0, 0, 0, 0, 1 },
		},
		.describe = {
			[WORKLOAD_MIXED] = "geometric mean over 16..8192-byte "
					   "blocks",
			[WORKLOAD_BULK] = "large buffers: 8192-byte blocks 3/4, "
					  "1024-byte 1/4",
			[WORKLOAD_PACKETS] = "network messages: 16..1024-byte "
					     "blocks",
			[WORKLOAD_KEYS] = "a fresh 16-byte key per 16-byte "
					  "message",
		},
		.share = 0.8,
		.run = run_single,
	},
	/* Each batch call on its own: password recovery (many fresh keys, a
	 * few bytes each), and a server's many streams. */
	[RC4K_SET_KEYS] = {
		.title = "set_keys kernels (rc4tune_set_keys): keys/s: 64 "
			 "fresh 16-byte keys a call, then 16 bytes of each.",
		.json = "set_keys",
		ONE_CELL("keys/s", 0, NKEYS),
		.cpb_cell = -1,
		.share = 0.1,
		.serial_cell = CELL_KEYS, /* a key, then 16 bytes */
		.run = run_set_keys,
	},
	[RC4K_CRYPT_MANY] = {
		.title = "crypt_many kernels (rc4tune_crypt_many): 8x1024: 8 "
			 "streams of 1024 bytes a call, in 1000s of bytes per "
			 "second.",
		.json = "crypt_many",
		ONE_CELL("8x1024", NSTREAMS * STREAM, 0),
		.cpb_cell = 0,
		.cpb_label = "c/B",
		.share = 0.1,
		.serial_cell = CELL_1K, /* STREAM bytes a call */
		.run = run_crypt_many,
	},
};
