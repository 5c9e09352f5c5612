/* SPDX-License-Identifier: MIT */
/* ref.c - the reference kernel: the textbook algorithm, written for clarity.
 * Every other kernel is tested against it. */
#include "kernel.h"

static void swap(uint8_t *a, uint8_t *b)
{
	uint8_t t = *a;
	*a = *b;
	*b = t;
}

static void ref_set_key(struct rc4k_state *st, const uint8_t *key, size_t len)
{
	uint8_t *S = st->s.c;
	unsigned i, j = 0;

	for (i = 0; i < 256; i++)
		S[i] = (uint8_t)i;
	for (i = 0; i < 256; i++) {
		j = (j + S[i] + key[i % len]) % 256;
		swap(&S[i], &S[j]);
	}
	st->x = 0;
	st->y = 0;
}

static void ref_crypt(struct rc4k_state *st, size_t len, const uint8_t *in,
		      uint8_t *out)
{
	uint8_t *S = st->s.c;
	unsigned i = st->x, j = st->y;

	for (size_t n = 0; n < len; n++) {
		i = (i + 1) % 256;
		j = (j + S[i]) % 256;
		swap(&S[i], &S[j]);
		out[n] = in[n] ^ S[(S[i] + S[j]) % 256];
	}
	st->x = i;
	st->y = j;
}

const struct rc4k rc4k_char_ref = {
	.info = { .name = "char-ref",
		  .summary = "reference: textbook loop, 8-bit state, written "
			     "for clarity",
		  .kind = RC4K_SINGLE, .width = 1 },
	.set_key = ref_set_key,
	.crypt = ref_crypt,
};
