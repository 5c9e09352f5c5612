/* SPDX-License-Identifier: MIT */
/* key.c - the key API: set up with the current kernel, crypt with the
 * kernel the key remembers. */
#include <config.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "kernels/family.h"
#include "kernels/wipe.h"
#include "key.h"
#include "select.h"

_Static_assert(sizeof(struct rc4k_state) <= sizeof(((rc4tune_key *)0)->state),
	       "rc4tune_key too small for the widest kernel state");
_Static_assert(_Alignof(struct rc4k_state) <= _Alignof(rc4tune_key) &&
		       offsetof(rc4tune_key, state) %
				       _Alignof(struct rc4k_state) ==
			       0,
	       "rc4tune_key under-aligned for the kernel state");

/* The stack a single-stream kernel's crypt used below its caller, at
 * most, and rc4k_wipe_below's own frame: cleared after each call, since
 * the kernel's locals (a chunk loop's keystream word, the indices, spilled
 * state entries) stay there when the compiler keeps them in memory, as it
 * does for every local at -O0.  ASan's redzones make frames larger. */
#if defined(__SANITIZE_ADDRESS__)
#define CRYPT_BELOW 2048
#else
#define CRYPT_BELOW 256
#endif

static struct rc4k_state *state_of(rc4tune_key *key)
{
	return (struct rc4k_state *)(void *)key->state.bytes;
}

int rc4tune_set_key(rc4tune_key *key, const void *data, size_t len)
{
	if (key == NULL || data == NULL || len < 1 || len > 256) {
		errno = EINVAL;
		return -1;
	}
	rc4_key_set(rc4k_single(rc4_current(RC4K_SINGLE)), key, data, len);
	return 0;
}

void rc4_key_set(const struct rc4k *k, rc4tune_key *key, const void *data,
		 size_t len)
{
	k->set_key(state_of(key), data, len);
	key->kernel = k;
}

const struct rc4k *rc4_crypt_kernel(const rc4tune_key *key, size_t len)
{
	/* without a split BELOW is 0: one compare, never taken */
	const struct rc4_split *s =
		atomic_load_explicit(&rc4_split_now, memory_order_acquire);

	return len < s->below && key->kernel == s->long_kernel ? s->short_kernel
							       : key->kernel;
}

void rc4tune_crypt(rc4tune_key *key, size_t len, const void *in, void *out)
{
	if (len == 0)
		return;
	/* A zeroed key (static, memset) was never set up: no kernel. */
	if (key == NULL || key->kernel == NULL || in == NULL || out == NULL) {
		errno = EINVAL;
		return;
	}
	rc4_crypt_kernel(key, len)->crypt(state_of(key), len, in, out);
	rc4k_wipe_below(CRYPT_BELOW);
}

void rc4tune_wipe(rc4tune_key *key)
{
	/* The whole object: a kernel's state may use any of its bytes. */
	if (key != NULL)
		rc4k_wipe(key, sizeof *key);
}

void rc4tune_skip(rc4tune_key *key, size_t n)
{
	/* In place over a small buffer: no allocation, no second buffer.  It
	 * ends up holding keystream that RC4-drop[n] discards, so it is
	 * cleared before the call returns. */
	uint8_t buf[256] = { 0 };

	if (n == 0)
		return;
	if (key == NULL || key->kernel == NULL) {
		errno = EINVAL;
		return;
	}
	size_t used = n < sizeof buf ? n : sizeof buf;
	while (n > 0) {
		size_t step = n < sizeof buf ? n : sizeof buf;
		rc4_crypt_kernel(key, step)->crypt(state_of(key), step, buf,
						   buf);
		n -= step;
	}
	rc4k_wipe(buf, used);
	rc4k_wipe_below(CRYPT_BELOW);
}

/* Batch kernels take arrays of state pointers; they are built on the stack
 * this many keys at a time (a multiple of every lane count). */
#define GROUP 64

void rc4_keys_set(const struct rc4k *one, const struct rc4k_batch *b,
		  rc4tune_key *keys, size_t n, const void *const *data,
		  const size_t *len)
{
	struct rc4k_state *st[GROUP];
	const uint8_t *key[GROUP];

	if (rc4k_misfit_reason(&b->info, one) != NULL)
		b = &rc4k_serial;
	for (size_t i = 0; i < n; i += GROUP) {
		size_t m = n - i < GROUP ? n - i : GROUP;
		for (size_t j = 0; j < m; j++) {
			st[j] = state_of(&keys[i + j]);
			key[j] = data[i + j];
		}
		b->set_keys(one, st, m, key, len + i);
		for (size_t j = 0; j < m; j++)
			keys[i + j].kernel = one;
	}
}

int rc4tune_set_keys(rc4tune_key *keys, size_t n, const void *const *data,
		     const size_t *len)
{
	bool bad = n > 0 && (keys == NULL || data == NULL || len == NULL);

	for (size_t i = 0; i < n && !bad; i++)
		bad = data[i] == NULL || len[i] < 1 || len[i] > 256;
	if (bad) {
		errno = EINVAL;
		return -1;
	}
	rc4_keys_set(rc4k_single(rc4_current(RC4K_SINGLE)),
		     rc4k_batch(rc4_current(RC4K_SET_KEYS)), keys, n, data, len);
	return 0;
}

void rc4_keys_crypt(const struct rc4k_batch *b, rc4tune_key *keys, size_t n,
		    size_t len, const void *const *in, void *const *out)
{
	struct rc4k_state *st[GROUP];
	const uint8_t *pin[GROUP];
	uint8_t *pout[GROUP];
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rc4k *k = keys[i].kernel;
		struct rc4k_state *s = state_of(&keys[i]);
		if (b->info.width == 0 ||
		    rc4k_misfit_reason(&b->info, k) != NULL ||
		    (k->made_ahead != NULL && k->made_ahead(s))) {
			/* serial, another family's key or keystream made
			 * ahead: the key as rc4tune_crypt runs it */
			rc4_crypt_kernel(&keys[i], len)
				->crypt(s, len, in[i], out[i]);
			continue;
		}
		st[m] = s;
		pin[m] = in[i];
		pout[m] = out[i];
		if (++m == GROUP) {
			b->crypt_many(NULL, st, m, len, pin, pout);
			m = 0;
		}
	}
	if (m > 0)
		b->crypt_many(NULL, st, m, len, pin, pout);
}

void rc4tune_crypt_many(rc4tune_key *keys, size_t n, size_t len,
			const void *const *in, void *const *out)
{
	bool bad = keys == NULL || in == NULL || out == NULL;

	if (n == 0 || len == 0)
		return;
	/* as rc4tune_crypt, and all or nothing: one bad stream, none run */
	for (size_t i = 0; i < n && !bad; i++)
		bad = keys[i].kernel == NULL || in[i] == NULL || out[i] == NULL;
	if (bad) {
		errno = EINVAL;
		return;
	}
	rc4_keys_crypt(rc4k_batch(rc4_current(RC4K_CRYPT_MANY)), keys, n, len,
		       in, out);
}
