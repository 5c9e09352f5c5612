/* SPDX-License-Identifier: MIT */
/* serial.c - the batch kernel with no lanes and no layout of its own: the
 * single-stream kernel it is handed, key by key and stream by stream.
 * Where every lane kernel loses to the single kind's winner, the batch
 * calls then cost what separate single-key calls do, never more. */
#include <config.h>

#include "batch.h"

static void serial_set_keys(const struct rc4k *single,
			    struct rc4k_state *const *st, size_t n,
			    const uint8_t *const *key, const size_t *len)
{
	for (size_t i = 0; i < n; i++)
		single->set_key(st[i], key[i], len[i]);
}

static void serial_crypt_many(const struct rc4k *single,
			      struct rc4k_state *const *st, size_t n,
			      size_t len, const uint8_t *const *in,
			      uint8_t *const *out)
{
	for (size_t i = 0; i < n; i++)
		single->crypt(st[i], len, in[i], out[i]);
}

const struct rc4k_batch rc4k_serial = {
	.info = { .name = "serial",
		  .summary = "the single-stream kernel, one key or stream at a "
			     "time",
		  .kind = RC4K_BATCH, .width = 0 },
	.lanes = 1,
	.set_keys = serial_set_keys,
	.crypt_many = serial_crypt_many,
};
