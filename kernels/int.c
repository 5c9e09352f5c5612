/* SPDX-License-Identifier: MIT */
/* int.c - kernels with 32-bit state entries (OpenSSL's RC4_INT): 1 KiB of
 * state; no partial-register writes (doc/cpus/AuthenticAMD-15-65.md). */
#include "loop.h"
#include "setkey.h"

#define RC4K_T uint32_t
#define RC4K_M i
#define RC4K_SETKEY rc4k_int_set_key
RC4K_SET_KEY()

RC4K_KERNEL(int_1x, "int-1x", "32-bit state, one byte a trip",
	    RC4K_CRYPT, uint32_t, 1)
/* The same loop with 64-bit index registers: a 32-bit movzb destination
 * can cost an extra uop (x86_64/rc4.S's byte1 loops; doc/cpus/published.md). */
RC4K_KERNEL(int_1x_r64, "int-1x-r64",
	    "32-bit state, one byte a trip, 64-bit index registers",
	    RC4K_CRYPT, uint64_t, 1)
RC4K_KERNEL(int_1x_ptr, "int-1x-ptr",
	    "32-bit state, one byte a trip, buffers walked by pointer",
	    RC4K_CRYPT_PTR, uint32_t)
RC4K_KERNEL(int_4x, "int-4x", "32-bit state, unrolled x4",
	    RC4K_CRYPT, uint32_t, 4)
RC4K_KERNEL(int_8x, "int-8x", "32-bit state, unrolled x8",
	    RC4K_CRYPT, uint32_t, 8)
RC4K_KERNEL(int_16x, "int-16x", "32-bit state, unrolled x16",
	    RC4K_CRYPT, uint32_t, 16)
RC4K_KERNEL(int_8x_chunk, "int-8x-chunk",
	    "32-bit state, 8 keystream bytes gathered, one 64-bit XOR",
	    RC4K_CRYPT_CHUNK, uint32_t, 1)
RC4K_KERNEL(int_16x_chunk, "int-16x-chunk",
	    "32-bit state, 16 bytes gathered, two 64-bit XORs",
	    RC4K_CRYPT_CHUNK, uint32_t, 2)
