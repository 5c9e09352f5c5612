/* long.c - kernels with 64-bit state entries (the AMD64 layout that ran
 * 3.3x faster on Opteron): 2 KiB of state, every access a full register. */
#include "loop.h"

#define RC4K_WIDTH 8 /* sizeof(uint64_t) */
#include "setkey.h"

RC4K_SET_KEY(rc4k_long_set_key, uint64_t, l)
RC4K_CRYPT(long_1x, uint64_t, l, uint64_t, 1)
RC4K_CRYPT(long_8x, uint64_t, l, uint64_t, 8)
RC4K_CRYPT_CHUNK(long_8x_chunk, uint64_t, l, uint64_t, 1)

RC4K_DEFINE(rc4k_long_1x, "long-1x", "64-bit state, one byte a trip",
	    rc4k_long_set_key, long_1x);
RC4K_DEFINE(rc4k_long_8x, "long-8x", "64-bit state, unrolled x8",
	    rc4k_long_set_key, long_8x);
RC4K_DEFINE(rc4k_long_8x_chunk, "long-8x-chunk",
	    "64-bit state, 8 keystream bytes gathered, one 64-bit XOR",
	    rc4k_long_set_key, long_8x_chunk);
