/* SPDX-License-Identifier: MIT */
/* long.c - kernels with 64-bit state entries (the AMD64 layout that ran
 * 3.3x faster on Opteron): 2 KiB of state, every access a full register. */
#include "loop.h"
#include "setkey.h"

#define RC4K_T uint64_t
#define RC4K_M l
#define RC4K_SETKEY rc4k_long_set_key
RC4K_SET_KEY()

RC4K_KERNEL(long_1x, "long-1x", "64-bit state, one byte a trip",
	    RC4K_CRYPT, uint64_t, 1)
RC4K_KERNEL(long_8x, "long-8x", "64-bit state, unrolled x8",
	    RC4K_CRYPT, uint64_t, 8)
RC4K_KERNEL(long_8x_chunk, "long-8x-chunk",
	    "64-bit state, 8 keystream bytes gathered, one 64-bit XOR",
	    RC4K_CRYPT_CHUNK, uint64_t, 1)
