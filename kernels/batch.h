/* SPDX-License-Identifier: MIT */
/* batch.h - kernels that set up or run many independent RC4 streams at once.
 *
 * One RC4 stream is a serial chain of dependent loads and stores; several
 * streams stepped in lockstep ("lanes") give the CPU independent work to
 * overlap.  A lane kernel reads and writes the same struct rc4k_state as
 * the single-stream kernels of its state layout (info.width), so a key it
 * set up can be continued by any of them, and the other way round; it
 * runs only for keys of the single-stream kernel's family (family.h).
 *
 * One batch kernel has no layout of its own (width 0): serial.c's, which
 * runs the single-stream kernel it is handed, key by key and stream by
 * stream, so that the batch calls are never slower than one stream at a
 * time.  Its keys are that kernel's. */
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
