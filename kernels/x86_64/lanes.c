/* SPDX-License-Identifier: MIT */
/* lanes.c - the lane families whose cores are x86_64/batch.S's, for 8-,
 * 32- and 64-bit cells (char_x86, int_x86, long_x86): an 8-lane key
 * schedule, and keystream in 4-lane groups (the core has no registers for
 * more).  This file expands the keys and copies the lanes' states into
 * the block the cores address and back; short runs, tails, lanes out of
 * step and smaller groups run the C family of the same cells.
 * char_wide_x86 runs 8-bit states' keystream on the 32-bit core, widened
 * in the copy: on model 167 the 8-bit core is slower than one stream at a
 * time, it seems because its loads of S[x + 1] wait for its byte store to
 * S[x] in the same word (doc/cpus/GenuineIntel-6-167.md, "8-bit lanes"). */
#include <config.h>

#include <tmmintrin.h>

#include "../lanes.h"
#include "layout.h"

_Static_assert(KX_LEN == KX_STRIDE, "batch.S: the lanes' keys");

void rc4k_x86_ksa8_char(uint8_t *blk);
void rc4k_x86_ksa8_int(uint8_t *blk);
void rc4k_x86_ksa8_long(uint8_t *blk);
typedef void prga4_core(uint8_t *S, uint32_t xy[5], size_t blocks,
			const uint8_t *const *in, uint8_t *const *out);
prga4_core rc4k_x86_prga4_char, rc4k_x86_prga4_int,
	rc4k_x86_prga4_long;

/* i mod n for i = 0..15, in row n (1..15). */
#define MOD_IX(i, n) ((i) % (n))
#define MOD_ROW(n)                                                           \
	{ MOD_IX(0, n), MOD_IX(1, n), MOD_IX(2, n), MOD_IX(3, n),            \
	  MOD_IX(4, n), MOD_IX(5, n), MOD_IX(6, n), MOD_IX(7, n),            \
	  MOD_IX(8, n), MOD_IX(9, n), MOD_IX(10, n), MOD_IX(11, n),          \
	  MOD_IX(12, n), MOD_IX(13, n), MOD_IX(14, n), MOD_IX(15, n) }
static const uint8_t mod_ix[16][16] = {
	{ 0 },	     MOD_ROW(1),  MOD_ROW(2),  MOD_ROW(3),
	MOD_ROW(4),  MOD_ROW(5),  MOD_ROW(6),  MOD_ROW(7),
	MOD_ROW(8),  MOD_ROW(9),  MOD_ROW(10), MOD_ROW(11),
	MOD_ROW(12), MOD_ROW(13), MOD_ROW(14), MOD_ROW(15),
};

/* rc4k_expand_key (lanes.h) for the lanes here, which need SSE4.1.  A key
 * under 16 bytes that rc4k_expand_whole does not store whole has each
 * 16-byte block shuffled out of it at once by the indices (16b + i) mod
 * LEN, where rc4k_expand_copies' doubling reads back bytes it just stored
 * at another offset: 39 against 72-95 TSC a key (doc/tried.md).  K16, like
 * the block, is in the frames that the set_keys call clears below itself
 * (batch.c). */
__attribute__((target("ssse3"))) static void
expand_key(uint8_t kx[KX_LEN], const uint8_t *key, size_t len)
{
	if (rc4k_expand_whole(kx, key, len))
		return;
	if (len >= 16) {
		rc4k_expand_copies(kx, key, len);
		return;
	}
	uint8_t k16[16] = { 0 };
	memcpy(k16, key, len);
	const __m128i k = _mm_loadu_si128((const __m128i *)k16);
	const __m128i step = _mm_set1_epi8((char)(16 % len));
	const __m128i n = _mm_set1_epi8((char)len);
	const __m128i top = _mm_set1_epi8((char)(len - 1));
	__m128i ix = _mm_loadu_si128((const __m128i *)mod_ix[len]);

	for (size_t o = 0; o < KX_LEN; o += 16) {
		_mm_storeu_si128((__m128i *)(kx + o), _mm_shuffle_epi8(k, ix));
		ix = _mm_add_epi8(ix, step);
		ix = _mm_sub_epi8(ix, _mm_and_si128(_mm_cmpgt_epi8(ix, top), n));
	}
}

/* 8 keys' schedules in BLK: the lanes' S (cells of W bytes) at
 * l*LANE_BYTES(W), then their expanded keys at 8*LANE_BYTES(W) + l*KX_LEN
 * (batch.S's offsets). */
static inline void ksa8(uint8_t *blk, unsigned w, const void *ident,
			void (*core)(uint8_t *), struct rc4k_state *const *st,
			const uint8_t *const *key, const size_t *len)
{
	for (unsigned l = 0; l < 8; l++) {
		memcpy(blk + LANE_BYTES(w) * l, ident, 256 * w);
		expand_key(blk + 8 * LANE_BYTES(w) + KX_LEN * l, key[l],
			   len[l]);
	}
	core(blk);
	for (unsigned l = 0; l < 8; l++) {
		memcpy(&st[l]->s, blk + LANE_BYTES(w) * l, 256 * w);
		rc4k_state_fresh(st[l]);
	}
}

/* A lane's S (cells of W bytes) into a core's block (cells of CW bytes),
 * and back: copied, or 8-bit cells widened to 32 bits (CW 4, W 1). */
static inline void cells_in(uint8_t *blk, unsigned cw, const void *s,
			    unsigned w)
{
	const __m128i z = _mm_setzero_si128();
	__m128i *d = (__m128i *)blk;

	if (cw == w) {
		memcpy(blk, s, 256 * w);
		return;
	}
	for (unsigned k = 0; k < 16; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)s + k);
		__m128i lo = _mm_unpacklo_epi8(v, z);
		__m128i hi = _mm_unpackhi_epi8(v, z);
		d[4 * k] = _mm_unpacklo_epi16(lo, z);
		d[4 * k + 1] = _mm_unpackhi_epi16(lo, z);
		d[4 * k + 2] = _mm_unpacklo_epi16(hi, z);
		d[4 * k + 3] = _mm_unpackhi_epi16(hi, z);
	}
}
static inline void cells_out(void *s, unsigned w, const uint8_t *blk,
			     unsigned cw)
{
	const __m128i *d = (const __m128i *)blk;

	if (cw == w) {
		memcpy(s, blk, 256 * w);
		return;
	}
	for (unsigned k = 0; k < 16; k++) {
		/* entries are below 256: neither pack saturates */
		__m128i a = _mm_packs_epi32(d[4 * k], d[4 * k + 1]);
		__m128i b = _mm_packs_epi32(d[4 * k + 2], d[4 * k + 3]);
		_mm_storeu_si128((__m128i *)s + k, _mm_packus_epi16(a, b));
	}
}

/* 4 lanes' states (cells of W bytes) in S (cells of CW bytes, lane l at
 * l*LANE_BYTES(CW)): whole 16-byte blocks in CORE; short runs, the tail
 * and lanes out of step in C (C4, the C family's 4-lane loop). */
static inline void prga4(uint8_t *S, unsigned w, unsigned cw,
			 prga4_core *core, rc4k_prga_fn *c4,
			 struct rc4k_state *const *st, size_t len,
			 const uint8_t *const *in, uint8_t *const *out)
{
	uint32_t xy[5];
	const uint8_t *tin[4];
	uint8_t *tout[4];
	size_t done = len & ~(size_t)15;

	if (RC4K_SHORT(len, cw) || done == 0 || !rc4k_in_step(st, 4)) {
		c4(st, len, in, out);
		return;
	}
	xy[0] = st[0]->x;
	for (unsigned l = 0; l < 4; l++) {
		cells_in(S + LANE_BYTES(cw) * l, cw, &st[l]->s, w);
		xy[1 + l] = st[l]->y;
	}
	core(S, xy, done / 16, in, out);
	for (unsigned l = 0; l < 4; l++) {
		cells_out(&st[l]->s, w, S + LANE_BYTES(cw) * l, cw);
		st[l]->x = xy[0];
		st[l]->y = xy[1 + l];
		tin[l] = in[l] + done;
		tout[l] = out[l] + done;
	}
	if (len > done)
		c4(st, len - done, tin, tout);
}

/* NAME's keystream loops: batch.S's CORE on cells of CW bytes, for the
 * states of the C family FAM (cells of W bytes). */
#define X86_PRGA(name, fam, w, core, cw)                                      \
	static void name##_prga4(struct rc4k_state *const *st, size_t len,   \
				 const uint8_t *const *in,                   \
				 uint8_t *const *out)                        \
	{                                                                    \
		_Alignas(64) uint8_t S[4 * LANE_BYTES(cw)];                  \
		prga4(S, w, cw, rc4k_x86_prga4_##core,                       \
		      rc4k_lanes_##fam.prga[2], st, len, in, out);           \
	}                                                                    \
	/* Eight lanes: two 4-lane groups. */                                \
	static void name##_prga8(struct rc4k_state *const *st, size_t len,   \
				 const uint8_t *const *in,                   \
				 uint8_t *const *out)                        \
	{                                                                    \
		name##_prga4(st, len, in, out);                              \
		name##_prga4(st + 4, len, in + 4, out + 4);                  \
	}

/* FAM_x86: batch.S's cores on cells of W bytes (IDENT: a fresh S); the
 * C family FAM for the rest. */
#define X86_LANES(fam, w, ident)                                             \
	static void fam##_ksa8(struct rc4k_state *const *st,                 \
			       const uint8_t *const *key, const size_t *len) \
	{                                                                    \
		_Alignas(64) uint8_t blk[8 * LANE_BYTES(w) + 8 * KX_LEN];    \
		ksa8(blk, w, ident, rc4k_x86_ksa8_##fam, st, key, len);      \
	}                                                                    \
	X86_PRGA(fam, fam, w, fam, w)                                        \
	const struct rc4k_lanes rc4k_lanes_##fam##_x86 = {                   \
		{ NULL, NULL, NULL, fam##_ksa8 },                            \
		{ NULL, NULL, fam##_prga4, fam##_prga8 },                    \
		&rc4k_lanes_##fam, w,                                        \
	};

X86_LANES(char, 1, rc4k_ident_c)
X86_LANES(int, 4, rc4k_ident_i)
X86_LANES(long, 8, rc4k_ident_l)

/* 8-bit states: char_x86's key schedule, int_x86's keystream core. */
X86_PRGA(char_wide, char, 1, int, 4)
const struct rc4k_lanes rc4k_lanes_char_wide_x86 = {
	{ NULL, NULL, NULL, char_ksa8 },
	{ NULL, NULL, char_wide_prga4, char_wide_prga8 },
	&rc4k_lanes_char, 4,
};
