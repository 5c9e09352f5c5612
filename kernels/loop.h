/* SPDX-License-Identifier: MIT */
/* loop.h - generators for the C kernel families.  A family file (char.c,
 * int.c, long.c) defines its state entry type RC4K_T, the state member
 * RC4K_M (c, i or l) and the name of its key schedule RC4K_SETKEY, has
 * RC4K_SET_KEY() define that, then one RC4K_KERNEL line a kernel: a loop
 * generator below, the index type I and the loop's parameters.  The loops
 * differ in shape, not in arithmetic, so each is written once here. */
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

/* The family's key schedule (KSA), RC4K_SETKEY; external (setkey.h), as
 * the assembly kernels share it.  S[i+1] is read before step i's stores,
 * so j's chain does not wait on them; only the S[j] store can change it,
 * when j == i+1, and then the value stored is t.  A branch, not a select
 * (the empty asm keeps gcc from making a cmov): a select puts a compare
 * and a cmov on j's chain, the branch is taken once in 256 steps
 * (doc/cpus/AuthenticAMD-23-1.md, "The key schedule"). */
#define RC4K_SET_KEY()                                                        \
	void RC4K_SETKEY(struct rc4k_state *st, const uint8_t *key,           \
			 size_t len)                                          \
	{                                                                     \
		RC4K_T *S = st->s.RC4K_M;                                     \
		unsigned j = 0;                                               \
		size_t k = 0;                                                 \
		for (unsigned i = 0; i < 256; i++)                            \
			S[i] = (RC4K_T)i;                                     \
		RC4K_T t = S[0];                                              \
		for (unsigned i = 0; i < 256; i++) {                          \
			unsigned next = (i + 1) & 0xff;                       \
			j = (j + t + key[k]) & 0xff;                          \
			if (++k == len)                                       \
				k = 0;                                        \
			RC4K_T n = S[next];                                   \
			S[i] = S[j];                                          \
			S[j] = t;                                             \
			if (__builtin_expect(j == next, 0)) {                 \
				__asm__ volatile("" ::: "memory");            \
				n = t;                                        \
			}                                                     \
			t = n;                                                \
		}                                                             \
		st->x = st->y = 0;                                            \
	}

/* A crypt function FN over a state of T entries (member M, indices in
 * registers of type I): BODY runs with S, x, y and the keystream byte k
 * in scope, then x and y go back into the state. */
#define RC4K_CRYPT_FN(fn, T, M, I, ...)                                     \
	static void fn(struct rc4k_state *st, size_t len, const uint8_t *in, \
		       uint8_t *out)                                         \
	{                                                                    \
		T *S = st->s.M;                                              \
		I x = st->x, y = st->y;                                      \
		uint8_t k;                                                   \
		__VA_ARGS__                                                  \
		st->x = (uint32_t)x;                                         \
		st->y = (uint32_t)y;                                         \
	}

/* N bytes a trip, each XORed on its own, buffers addressed by index. */
#define RC4K_CRYPT(fn, T, M, I, N)                                          \
	RC4K_CRYPT_FN(fn, T, M, I,                                          \
		size_t n = 0;                                                \
		for (; len - n >= (N); n += (N)) {                           \
			RC4K_UNROLL(N)                                       \
			for (unsigned u = 0; u < (N); u++) {                 \
				RC4K_STEP(S, T, x, y, k);                    \
				out[n + u] = in[n + u] ^ k;                  \
			}                                                    \
		}                                                            \
		RC4K_BYTES(S, T, x, y, k, n, n < len);)

/* One byte a trip, buffers walked by pointer (no RC4_INDEX). */
#define RC4K_CRYPT_PTR(fn, T, M, I)                                         \
	RC4K_CRYPT_FN(fn, T, M, I,                                          \
		const uint8_t *end = in + len;                               \
		while (in != end) {                                          \
			RC4K_STEP(S, T, x, y, k);                            \
			*out++ = *in++ ^ k;                                  \
		})

/* RC4_CHUNK: gather 8 keystream bytes into a 64-bit word and XOR 8 bytes
 * at once, W words a trip.  Single bytes until OUT is 8-aligned (so stores
 * never straddle words), words, then single bytes for the tail; IN may be
 * at any alignment (memcpy compiles to one unaligned load). */
#define RC4K_CRYPT_CHUNK(fn, T, M, I, W)                                    \
	RC4K_CRYPT_FN(fn, T, M, I,                                          \
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
		RC4K_BYTES(S, T, x, y, k, n, n < len);)

/* The descriptor rc4k_<ID> of a kernel of the family whose crypt is FN. */
#define RC4K_DEFINE(id, nm, sum, fn)                                  \
	const struct rc4k rc4k_##id = {                               \
		.info = { .name = nm, .summary = sum,                 \
			  .kind = RC4K_SINGLE, .width = sizeof(RC4K_T) }, \
		.set_key = RC4K_SETKEY, .crypt = fn,                  \
	}

/* One kernel of the family: the loop GEN (RC4K_CRYPT, RC4K_CRYPT_PTR or
 * RC4K_CRYPT_CHUNK) with index registers of type I and GEN's further
 * arguments, and its descriptor. */
#define RC4K_KERNEL(id, nm, sum, gen, I, ...)                         \
	gen(id##_crypt, RC4K_T, RC4K_M, I, ##__VA_ARGS__)             \
	RC4K_DEFINE(id, nm, sum, id##_crypt);

#endif
