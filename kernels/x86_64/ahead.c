/* SPDX-License-Identifier: MIT */
/* ahead.c - kernels that make keystream ahead: a key continued by short
 * calls takes its keystream from a buffer that another kernel (the inner
 * one, of the char layout) fills in long runs.  A 16-byte call then costs
 * a 16-byte XOR, not the inner loop's entry, ring fill and exit, a
 * quarter of a 16-byte call's cost (doc/cpus/AuthenticAMD-26-2.md, "Short
 * calls from keystream made ahead").
 *
 * The buffer lies in the key's state, after the 256 char entries.
 * ahead[0] counts the bytes buffered, which end at the buffer's end;
 * ahead[1] the bytes used since set_key (a refill counts as used), up to
 * AHEAD_MAX.  While bytes are buffered only this kernel continues the key
 * (made_ahead); with the buffer empty the state is the char layout's, so
 * the char lanes set up and run such keys (width 1), leaving ahead[1] at
 * most what the key used.
 *
 * A refill is never larger than what the key has used so far: a key
 * dropped early has made at most twice the keystream it used, and a fresh
 * key's first call, one short message per key (Kerberos, PDF objects,
 * WEP), goes straight to the inner loop without a refill. */
#include <config.h>

#include <string.h>
#include "../kernel.h"

#define AHEAD_MAX 1024
/* From here a call goes straight to the inner loop: its own run is long
 * enough that a refill and a second pass over the bytes win nothing
 * (doc/cpus/AuthenticAMD-26-2.md, "Short calls from keystream made
 * ahead"). */
#define DIRECT_MIN 512

_Static_assert(256 + AHEAD_MAX <= sizeof(((struct rc4k_state *)0)->s),
	       "the buffer must fit after the char entries");

/* The buffer's end, addressed through the whole union (not its 256-byte
 * char member, which the buffer lies past). */
static inline uint8_t *buf_end(struct rc4k_state *st)
{
	return (uint8_t *)&st->s + 256 + AHEAD_MAX;
}

/* The buffers as unaligned words that may alias anything: the keystream
 * goes through registers only (copied into local arrays by memcpy, it sat
 * in the frame of an ASan build, where locals live in memory). */
typedef uint64_t ks16 __attribute__((vector_size(16), aligned(1), may_alias));
typedef uint64_t ks8 __attribute__((aligned(1), may_alias));
typedef uint32_t ks4 __attribute__((aligned(1), may_alias));
typedef uint16_t ks2 __attribute__((aligned(1), may_alias));
typedef uint8_t ks1;
#define XOR(T)                                                       \
	(*(T *)(void *)out = *(const T *)(const void *)in ^          \
			     *(const T *)(const void *)ks)

/* OUT = IN ^ KS over N bytes: 16 at a time, then the rest in 8, 4, 2 and
 * 1: a byte loop there lost short calls to the ring loop alone
 * (doc/cpus/AuthenticAMD-26-2.md). */
#define XOR_STEP(w)                                  \
	if (n & (w)) {                               \
		XOR(ks##w);                          \
		in += (w), ks += (w), out += (w);    \
	}
static inline void xor_bytes(uint8_t *out, const uint8_t *in,
			     const uint8_t *ks, size_t n)
{
	for (; n >= 16; n -= 16, in += 16, out += 16, ks += 16)
		XOR(ks16);
	if (n == 0) /* the four tests cost a 16-byte call 2 TSC cycles */
		return;
	XOR_STEP(8)
	XOR_STEP(4)
	XOR_STEP(2)
	XOR_STEP(1)
}
#undef XOR_STEP
#undef XOR

static void ahead_set_key(const struct rc4k *inner, struct rc4k_state *st,
			  const uint8_t *key, size_t len)
{
	inner->set_key(st, key, len);
	rc4k_state_fresh(st);
}

static int ahead_made(const struct rc4k_state *st)
{
	return st->ahead[0] != 0;
}

/* Whether LEN bytes, with the buffer empty, go straight to the inner
 * loop: long ones, and a fresh key's. */
static inline int ahead_direct(const struct rc4k_state *st, size_t len)
{
	return len >= DIRECT_MIN || len > st->ahead[1];
}

/* The inner loop straight over LEN bytes (the buffer empty). */
static inline void ahead_straight(const struct rc4k *inner,
				  struct rc4k_state *st, size_t len,
				  const uint8_t *in, uint8_t *out)
{
	uint32_t used = st->ahead[1] + (len < AHEAD_MAX ? (uint32_t)len
							: AHEAD_MAX);

	st->ahead[0] = 0;
	st->ahead[1] = used < AHEAD_MAX ? used : AHEAD_MAX;
	inner->crypt(st, len, in, out);
}

/* A call longer than the buffer's rest: the rest, then the inner loop
 * straight or through a refill. */
static void ahead_more(const struct rc4k *inner, struct rc4k_state *st,
		       size_t len, const uint8_t *in, uint8_t *out)
{
	uint8_t *end = buf_end(st);
	uint32_t have = st->ahead[0], used = st->ahead[1];

	xor_bytes(out, in, end - have, have);
	in += have;
	out += have;
	len -= have;
	if (ahead_direct(st, len)) {
		ahead_straight(inner, st, len, in, out);
		return;
	}
	/* len < used <= AHEAD_MAX: the refill covers this call.  Keystream
	 * is the inner loop over zeros. */
	memset(end - used, 0, used);
	inner->crypt(st, used, end - used, end - used);
	xor_bytes(out, in, end - used, len);
	st->ahead[0] = used - (uint32_t)len;
	st->ahead[1] = 2 * used < AHEAD_MAX ? 2 * used : AHEAD_MAX;
}

/* Inlined in each kernel: the common cases make one call at most. */
static inline void ahead_crypt(const struct rc4k *inner,
			       struct rc4k_state *st, size_t len,
			       const uint8_t *in, uint8_t *out)
{
	uint32_t have = st->ahead[0];

	if (len <= have) {
		xor_bytes(out, in, buf_end(st) - have, len);
		st->ahead[0] = have - (uint32_t)len;
	} else if (have == 0 && ahead_direct(st, len)) {
		ahead_straight(inner, st, len, in, out);
	} else {
		ahead_more(inner, st, len, in, out);
	}
}

/* rc4k_<ID>: INNER (an rc4k_<id> of width 1) with keystream made ahead. */
#define AHEAD(id, nm, sum, inner)                                          \
	extern const struct rc4k rc4k_##inner;                             \
	static int id##_usable(void)                                       \
	{                                                                  \
		return rc4k_usable(&rc4k_##inner.info);                    \
	}                                                                  \
	static void id##_set_key(struct rc4k_state *st, const uint8_t *key, \
				 size_t len)                               \
	{                                                                  \
		ahead_set_key(&rc4k_##inner, st, key, len);                \
	}                                                                  \
	static void id##_crypt(struct rc4k_state *st, size_t len,          \
			       const uint8_t *in, uint8_t *out)            \
	{                                                                  \
		ahead_crypt(&rc4k_##inner, st, len, in, out);              \
	}                                                                  \
	const struct rc4k rc4k_##id = {                                    \
		.info = { .name = nm, .summary = sum, .usable = id##_usable, \
			  .kind = RC4K_SINGLE, .width = 1 },               \
		.set_key = id##_set_key, .crypt = id##_crypt,              \
		.made_ahead = ahead_made,                                  \
	};

/* Only the loops whose entry and exit cost more than the buffer's own
 * per-call work: a cheap loop such as char-8x-chunk lost through a buffer
 * (doc/cpus/AuthenticAMD-26-2.md). */
AHEAD(char_ahead_ring5_sse41, "char-ahead-ring5-sse41",
      "char-ring5-sse41 filling a 1 KiB keystream buffer for short calls",
      char_ring5_sse41)
AHEAD(char_ahead_ring4_avx512, "char-ahead-ring4-avx512",
      "char-ring4-avx512 filling a 1 KiB keystream buffer for short calls",
      char_ring4_avx512)
