/* SPDX-License-Identifier: MIT */
/* batch.h - kernels that set up or run many independent RC4 streams at
 * once.  One stream is a serial chain of dependent loads and stores;
 * streams stepped in lockstep ("lanes") give the CPU independent work to
 * overlap.  A lane kernel works on the struct rc4k_state of its layout
 * (family.h), so the single-stream kernels of that layout continue its
 * keys, and it theirs.  serial.c's kernel has no layout (width 0): it runs
 * the single-stream kernel it is handed, key by key, so that the batch
 * calls are never slower than one stream at a time. */
#ifndef RC4K_BATCH_H
#define RC4K_BATCH_H

#include "kernel.h"

struct rc4k_batch {
	struct rc4k_info info; /* name: LAYOUT-Nlane, or serial */
	unsigned lanes;        /* streams stepped together */
	/* SINGLE, in both calls: the single-stream kernel that serial runs (the
	 * library's current one, the tuner's winner); lane kernels ignore it.
	 * Any N: groups of LANES, then fewer lanes for the rest.  Keys are
	 * 1..256 bytes (checked by the caller). */
	void (*set_keys)(const struct rc4k *single, struct rc4k_state *const *st,
			 size_t n, const uint8_t *const *key,
			 const size_t *len);
	/* LEN bytes of each of N distinct streams; in[i] == out[i] allowed,
	 * other overlaps not. */
	void (*crypt_many)(const struct rc4k *single,
			   struct rc4k_state *const *st, size_t n, size_t len,
			   const uint8_t *const *in, uint8_t *const *out);
};

/* The batch kernel with no lanes (serial.c). */
extern const struct rc4k_batch rc4k_serial;

/* K as the batch kernel it is (K->kind == RC4K_BATCH). */
static inline const struct rc4k_batch *rc4k_batch(const struct rc4k_info *k)
{
	return (const struct rc4k_batch *)k;
}

#endif
