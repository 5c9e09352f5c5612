/* SPDX-License-Identifier: MIT */
/* key.h - the key calls' dispatch with the kernels named, not the current
 * ones: what the public calls run (key.c), and what the tuner times, so
 * that a program runs what was measured. */
#ifndef RC4_KEY_H
#define RC4_KEY_H

#include "kernels/batch.h"
#include "rc4tune.h"

/* The kernel a call of LEN bytes on KEY runs (rc4tune_crypt, rc4tune_skip,
 * serial streams): the key's own, or the split's short kernel (select.h,
 * rc4_split_now) for a short call on a key of its long kernel. */
const struct rc4k *rc4_crypt_kernel(const rc4tune_key *key, size_t len);

/* rc4tune_set_key with K, the arguments checked by the caller. */
void rc4_key_set(const struct rc4k *k, rc4tune_key *key, const void *data,
		 size_t len);

/* rc4tune_set_keys with ONE the single-stream kernel and B the set_keys
 * kernel, or serial where B does not fit ONE's family; the keys continue
 * with ONE.  The arguments are checked by the caller. */
void rc4_keys_set(const struct rc4k *one, const struct rc4k_batch *b,
		  rc4tune_key *keys, size_t n, const void *const *data,
		  const size_t *len);

/* rc4tune_crypt_many with B the crypt_many kernel: keys of B's layout in
 * its lanes, every other key (all of them for serial) by its own kernel.
 * The arguments are checked by the caller. */
void rc4_keys_crypt(const struct rc4k_batch *b, rc4tune_key *keys, size_t n,
		    size_t len, const void *const *in, void *const *out);

#endif
