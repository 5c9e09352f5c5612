/* SPDX-License-Identifier: MIT */
/* char.c - kernels with 8-bit state entries (OpenSSL's RC4_CHAR): 256 bytes
 * of state, four cache lines; byte loads and stores. */
#include "loop.h"
#include "setkey.h"

#define RC4K_T uint8_t
#define RC4K_M c
#define RC4K_SETKEY rc4k_char_set_key
RC4K_SET_KEY()

RC4K_KERNEL(char_1x, "char-1x",
	    "8-bit state, one byte a trip (the folded .Lcloop1 loop)",
	    RC4K_CRYPT, uint32_t, 1)
RC4K_KERNEL(char_1x_ptr, "char-1x-ptr",
	    "8-bit state, one byte a trip, buffers walked by pointer",
	    RC4K_CRYPT_PTR, uint32_t)
RC4K_KERNEL(char_4x, "char-4x", "8-bit state, unrolled x4",
	    RC4K_CRYPT, uint32_t, 4)
RC4K_KERNEL(char_8x_chunk, "char-8x-chunk",
	    "8-bit state, 8 keystream bytes gathered, one 64-bit XOR",
	    RC4K_CRYPT_CHUNK, uint32_t, 1)

/* The P4 trick: load S[x+1] for the next byte before this byte's store to
 * S[y], so the load need not wait for the store; when y == x+1 the store
 * changed that entry, and the preloaded value is replaced by what was stored. */
static void char_1x_preload(struct rc4k_state *st, size_t len,
			    const uint8_t *in, uint8_t *out)
{
	uint8_t *S = st->s.c;
	uint32_t x = st->x, y = st->y;
	uint32_t tx = S[(x + 1) & 0xff];

	for (size_t n = 0; n < len; n++) {
		uint32_t ty, nx, ntx;

		x = (x + 1) & 0xff;
		y = (y + tx) & 0xff;
		ty = S[y];
		nx = (x + 1) & 0xff;
		ntx = S[nx];
		S[y] = (uint8_t)tx;
		S[x] = (uint8_t)ty;
		if (nx == y)
			ntx = tx;
		out[n] = in[n] ^ S[(tx + ty) & 0xff];
		tx = ntx;
	}
	st->x = x;
	st->y = y;
}

RC4K_DEFINE(char_1x_preload, "char-1x-preload",
	    "8-bit state, loads S[x+1] before storing S[y], alias fix-up",
	    char_1x_preload);
