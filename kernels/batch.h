/* batch.h - kernels that set up or run many independent RC4 streams at once.
 *
 * One RC4 stream is a serial chain of dependent loads and stores; several
 * streams stepped in lockstep ("lanes") give the CPU independent work to
 * overlap.  A batch kernel reads and writes the same struct rc4k_state as
 * the single-stream kernels of its state layout (info.width, never 0), so
 * a key it set up can be continued by any of them, and the other way
 * round. */
#ifndef RC4K_BATCH_H
#define RC4K_BATCH_H

#include "kernel.h"

struct rc4k_batch {
	struct rc4k_info info; /* name: LAYOUT-Nlane */
	unsigned lanes;        /* streams stepped together */
	/* The single-stream kernel of that layout that keys get when the
	 * current kernel has another layout. */
	const struct rc4k *single;
	/* Any N: groups of LANES, then fewer lanes for the rest.  Keys are
	 * 1..256 bytes (checked by the caller). */
	void (*set_keys)(struct rc4k_state *const *st, size_t n,
			 const uint8_t *const *key, const size_t *len);
	/* LEN bytes of each of N distinct streams; in[i] == out[i] allowed,
	 * other overlaps not. */
	void (*crypt_many)(struct rc4k_state *const *st, size_t n, size_t len,
			   const uint8_t *const *in, uint8_t *const *out);
};

/* K as the batch kernel it is (K->kind == RC4K_BATCH). */
static inline const struct rc4k_batch *rc4k_batch(const struct rc4k_info *k)
{
	return (const struct rc4k_batch *)k;
}

#endif
