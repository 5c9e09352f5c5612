/* SPDX-License-Identifier: MIT */
/* ring.c - ring kernels on wide states (32- and 64-bit entries): S[x] read
 * four steps ahead into registers, every state access of the entry's width.
 *
 * Each step's tx was loaded before the three S[y] stores in between, so
 * y's chain neither waits on those stores nor is replayed after them.  A
 * store to S[y] that hits one of the three pending entries (3 steps in
 * 256) puts the stored value into that entry's register, on a branch the
 * CPU predicts as not taken: a select on every step would put it into y's
 * chain.  Blocks of 8 W steps start where x + 1 is a multiple of 8 W, so
 * S[x + k] is a constant offset from the block's base and no index wraps
 * inside a block.  The state in memory is always current (the registers
 * only copy it), so heads and tails are plain steps.  Wide stores: byte
 * stores into a state the loop also reads can run at half the rate of
 * wider ones (doc/cpus/AuthenticAMD-25-1.md; doc/cpus/GenuineIntel-6-207.md,
 * "wide-cell ring kernels"). */
#include "loop.h"
#include "setkey.h"

/* One step at block position K (a constant once unrolled), R0 its tx and
 * R1..R3 the next three steps'.  B and NB are the bases of this block and
 * the next (N steps a block); u = y - x - 4, whose low byte is above 252
 * exactly when the S[y] store hits R1..R3; the keystream byte goes into
 * lane K mod 8 of ks.  S[x + 4] is loaded after this step's stores, so
 * only the next three steps can make it stale (and fix it). */
#define RING_STEP(T, k, r0, r1, r2, r3)                                    \
	do {                                                               \
		T tx_ = r0, ty_;                                           \
		y = (y + tx_) & 0xff;                                      \
		u += tx_ - 1;                                              \
		ty_ = S[y];                                                \
		B[k] = ty_;                                                \
		S[y] = tx_;                                                \
		if (__builtin_expect((uint8_t)u > 252, 0)) {               \
			if ((uint8_t)u == 253)                             \
				r1 = tx_;                                  \
			else if ((uint8_t)u == 254)                        \
				r2 = tx_;                                  \
			else                                               \
				r3 = tx_;                                  \
		}                                                          \
		ks |= (uint64_t)S[(tx_ + ty_) & 0xff] << RC4K_LANE((k) & 7); \
		r0 = (k) + 4 < N ? B[(k) + 4] : NB[(k) + 4 - N];           \
	} while (0)

/* Four steps from position K, the ring's registers in turn. */
#define RING_STEP4(T, k)                             \
	RING_STEP(T, (k), r0, r1, r2, r3);           \
	RING_STEP(T, (k) + 1, r1, r2, r3, r0);       \
	RING_STEP(T, (k) + 2, r2, r3, r0, r1);       \
	RING_STEP(T, (k) + 3, r3, r0, r1, r2)

/* W words of 8 keystream bytes a block, each XORed at once (as
 * RC4K_CRYPT_CHUNK, but with IN and OUT at any alignment: x's alignment
 * is the one that counts). */
#define RC4K_CRYPT_RING(fn, T, M, I, W)                                    \
	RC4K_CRYPT_FN(fn, T, M, I,                                         \
		enum { N = 8 * (W) };                                       \
		size_t n = 0;                                               \
		RC4K_BYTES(S, T, x, y, k, n,                                \
			   n < len && ((x + 1) & (N - 1)));                 \
		if (len - n >= N) {                                         \
			unsigned b = (x + 1) & 0xff;                        \
			T *B = S + b, *NB;                                  \
			T r0 = B[0], r1 = B[1], r2 = B[2], r3 = B[3];       \
			I u = (I)(y - x - 4);                               \
			for (; len - n >= N; n += N) {                      \
				b = (b + N) & 0xff;                         \
				NB = S + b;                                 \
				RC4K_UNROLL(W)                              \
				for (unsigned w = 0; w < (W); w++) {        \
					uint64_t ks = 0, v;                 \
					RING_STEP4(T, 8 * w);               \
					RING_STEP4(T, 8 * w + 4);           \
					memcpy(&v, in + n + 8 * w, 8);      \
					v ^= ks;                            \
					memcpy(out + n + 8 * w, &v, 8);     \
				}                                           \
				B = NB;                                     \
			}                                                   \
			x = (I)(b - 1);                                     \
		}                                                           \
		RC4K_BYTES(S, T, x, y, k, n, n < len);)

/* One ring kernel of state entries T (member M, WD bytes, key schedule
 * SETKEY), W keystream words a block.  Byte indices: gcc then adds into a
 * byte register, and the zero-extension an index needs stays off y's
 * chain (with 32-bit ones it put an extension on it). */
#define RING_KERNEL(id, nm, sum, T, M, wd, setkey, W)                  \
	RC4K_CRYPT_RING(id##_crypt, T, M, uint8_t, W)                    \
	const struct rc4k rc4k_##id = {                                   \
		.info = { .name = nm, .summary = sum,                     \
			  .kind = RC4K_SINGLE, .width = (wd) },           \
		.set_key = setkey, .crypt = id##_crypt,                   \
	};

RING_KERNEL(int_ring4, "int-ring4",
	    "32-bit state, S[x] read 4 ahead, 32-bit accesses, 64-bit XOR",
	    uint32_t, i, 4, rc4k_int_set_key, 1)
RING_KERNEL(long_ring4, "long-ring4",
	    "64-bit state, S[x] read 4 ahead, 64-bit accesses, 64-bit XOR",
	    uint64_t, l, 8, rc4k_long_set_key, 1)
