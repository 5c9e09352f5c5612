/* loop.h - generators for the C kernel families.
 *
 * A family file (char.c, int.c, long.c) instantiates these with its state
 * entry type T, the state member M (c, i or l) and the index type I; the
 * loops differ in shape, not in arithmetic, so each is written once here. */
#ifndef RC4K_LOOP_H
#define RC4K_LOOP_H

#include <string.h>
#include "kernel.h"

#define RC4K_PRAGMA(x) _Pragma(#x)
#define RC4K_UNROLL(n) RC4K_PRAGMA(GCC unroll n)

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define RC4K_LANE(b) (56 - 8 * (b))
#else
#define RC4K_LANE(b) (8 * (b))
#endif

/* One PRGA step: advance x and y, swap, leave the keystream byte in K. */
#define RC4K_STEP(S, T, x, y, K)                                      \
	do {                                                          \
		T tx_, ty_;                                           \
		x = (x + 1) & 0xff;                                   \
		tx_ = S[x];                                           \
		y = (y + tx_) & 0xff;                                 \
		ty_ = S[y];                                           \
		S[x] = ty_;                                           \
		S[y] = tx_;                                           \
		K = (uint8_t)S[(tx_ + ty_) & 0xff];                   \
	} while (0)

/* One byte at a time while COND holds: heads and tails of unrolled loops. */
#define RC4K_BYTES(S, T, x, y, k, n, cond)                            \
	for (; (cond); (n)++) {                                       \
		RC4K_STEP(S, T, x, y, k);                             \
		out[n] = in[n] ^ (k);                                 \
	}

/* The key schedule (KSA) for a state of T entries; external (setkey.h), as
 * the assembly kernels share it. */
#define RC4K_SET_KEY(fn, T, M)                                                \
	void fn(struct rc4k_state *st, const uint8_t *key, size_t len)        \
	{                                                                     \
		T *S = st->s.M;                                               \
		unsigned j = 0;                                               \
		size_t k = 0;                                                 \
		for (unsigned i = 0; i < 256; i++)                            \
			S[i] = (T)i;                                          \
		for (unsigned i = 0; i < 256; i++) {                          \
			T t = S[i];                                           \
			j = (j + t + key[k]) & 0xff;                          \
			if (++k == len)                                       \
				k = 0;                                        \
			S[i] = S[j];                                          \
			S[j] = t;                                             \
		}                                                             \
		st->x = st->y = 0;                                            \
	}

/* N bytes a trip, each XORed on its own, buffers addressed by index. */
#define RC4K_CRYPT(fn, T, M, I, N)                                          \
	static void fn(struct rc4k_state *st, size_t len, const uint8_t *in, \
		       uint8_t *out)                                         \
	{                                                                    \
		T *S = st->s.M;                                              \
		I x = st->x, y = st->y;                                      \
		uint8_t k;                                                   \
		size_t n = 0;                                                \
		for (; len - n >= (N); n += (N)) {                           \
			RC4K_UNROLL(N)                                       \
			for (unsigned u = 0; u < (N); u++) {                 \
				RC4K_STEP(S, T, x, y, k);                    \
				out[n + u] = in[n + u] ^ k;                  \
			}                                                    \
		}                                                            \
		RC4K_BYTES(S, T, x, y, k, n, n < len);                      \
		st->x = (uint32_t)x;                                         \
		st->y = (uint32_t)y;                                         \
	}

/* One byte a trip, buffers walked by pointer (no RC4_INDEX). */
#define RC4K_CRYPT_PTR(fn, T, M, I)                                         \
	static void fn(struct rc4k_state *st, size_t len, const uint8_t *in, \
		       uint8_t *out)                                         \
	{                                                                    \
		T *S = st->s.M;                                              \
		I x = st->x, y = st->y;                                      \
		uint8_t k;                                                   \
		const uint8_t *end = in + len;                               \
		while (in != end) {                                          \
			RC4K_STEP(S, T, x, y, k);                            \
			*out++ = *in++ ^ k;                                  \
		}                                                            \
		st->x = (uint32_t)x;                                         \
		st->y = (uint32_t)y;                                         \
	}

/* RC4_CHUNK: gather 8 keystream bytes into a 64-bit word and XOR 8 bytes
 * at once, W words a trip.  Single bytes until OUT is 8-aligned (so stores
 * never straddle words), words, then single bytes for the tail; IN may be
 * at any alignment (memcpy compiles to one unaligned load). */
#define RC4K_CRYPT_CHUNK(fn, T, M, I, W)                                    \
	static void fn(struct rc4k_state *st, size_t len, const uint8_t *in, \
		       uint8_t *out)                                         \
	{                                                                    \
		T *S = st->s.M;                                              \
		I x = st->x, y = st->y;                                      \
		uint8_t k;                                                   \
		size_t n = 0;                                                \
		RC4K_BYTES(S, T, x, y, k, n,                                 \
			   n < len && ((uintptr_t)(out + n) & 7));           \
		for (; len - n >= 8 * (W); n += 8 * (W)) {                   \
			RC4K_UNROLL(W)                                       \
			for (unsigned w = 0; w < (W); w++) {                 \
				uint64_t ks = 0, v;                          \
				RC4K_UNROLL(8)                               \
				for (unsigned b = 0; b < 8; b++) {           \
					RC4K_STEP(S, T, x, y, k);            \
					ks |= (uint64_t)k << RC4K_LANE(b);   \
				}                                            \
				memcpy(&v, in + n + 8 * w, 8);               \
				v ^= ks;                                     \
				memcpy(out + n + 8 * w, &v, 8);              \
			}                                                    \
		}                                                            \
		RC4K_BYTES(S, T, x, y, k, n, n < len);                      \
		st->x = (uint32_t)x;                                         \
		st->y = (uint32_t)y;                                         \
	}

/* The family file defines RC4K_WIDTH, its entry size, before using this. */
#define RC4K_DEFINE(var, nm, sum, setkey, crypt_fn)                  \
	const struct rc4k var = {                                    \
		.info = { .name = nm, .summary = sum,                \
			  .kind = RC4K_SINGLE, .width = RC4K_WIDTH }, \
		.set_key = setkey, .crypt = crypt_fn,                \
	}

#endif
