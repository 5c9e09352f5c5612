/* SPDX-License-Identifier: MIT */
/* lanes.c - the lane families whose cores are x86_64/batch.S's, for 8-,
 * 32- and 64-bit cells (char_x86, int_x86, long_x86): an 8-lane key
 * schedule, and keystream in 4-lane groups (the core has no registers for
 * more).  This file copies the lanes' states into the block the cores
 * address and back; short runs, tails, lanes out of step and smaller
 * groups run the C family of the same cells. */
#include <config.h>

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

/* 8 keys' schedules in BLK: the lanes' S (cells of W bytes) at
 * l*LANE_BYTES(W), then their expanded keys at 8*LANE_BYTES(W) + l*KX_LEN
 * (batch.S's offsets). */
static inline void ksa8(uint8_t *blk, unsigned w, const void *ident,
			void (*core)(uint8_t *), struct rc4k_state *const *st,
			const uint8_t *const *key, const size_t *len)
{
	for (unsigned l = 0; l < 8; l++) {
		memcpy(blk + LANE_BYTES(w) * l, ident, 256 * w);
		rc4k_expand_key(blk + 8 * LANE_BYTES(w) + KX_LEN * l, key[l],
				len[l]);
	}
	core(blk);
	for (unsigned l = 0; l < 8; l++) {
		memcpy(&st[l]->s, blk + LANE_BYTES(w) * l, 256 * w);
		rc4k_state_fresh(st[l]);
	}
}

/* 4 lanes in S (cells of W bytes, lane l at l*LANE_BYTES(W)): whole
 * 16-byte blocks in CORE; short runs, the tail and lanes out of step in C
 * (C4, the C family's 4-lane loop). */
static inline void prga4(uint8_t *S, unsigned w, prga4_core *core,
			 rc4k_prga_fn *c4, struct rc4k_state *const *st,
			 size_t len, const uint8_t *const *in,
			 uint8_t *const *out)
{
	uint32_t xy[5];
	const uint8_t *tin[4];
	uint8_t *tout[4];
	size_t done = len & ~(size_t)15;

	if (RC4K_SHORT(len, w) || done == 0 || !rc4k_in_step(st, 4)) {
		c4(st, len, in, out);
		return;
	}
	xy[0] = st[0]->x;
	for (unsigned l = 0; l < 4; l++) {
		memcpy(S + LANE_BYTES(w) * l, &st[l]->s, 256 * w);
		xy[1 + l] = st[l]->y;
	}
	core(S, xy, done / 16, in, out);
	for (unsigned l = 0; l < 4; l++) {
		memcpy(&st[l]->s, S + LANE_BYTES(w) * l, 256 * w);
		st[l]->x = xy[0];
		st[l]->y = xy[1 + l];
		tin[l] = in[l] + done;
		tout[l] = out[l] + done;
	}
	if (len > done)
		c4(st, len - done, tin, tout);
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
	static void fam##_prga4(struct rc4k_state *const *st, size_t len,    \
				const uint8_t *const *in,                    \
				uint8_t *const *out)                         \
	{                                                                    \
		_Alignas(64) uint8_t S[4 * LANE_BYTES(w)];                   \
		prga4(S, w, rc4k_x86_prga4_##fam, rc4k_lanes_##fam.prga[2], \
		      st, len, in, out);                                     \
	}                                                                    \
	/* Eight lanes: two 4-lane groups. */                                \
	static void fam##_prga8(struct rc4k_state *const *st, size_t len,    \
				const uint8_t *const *in,                    \
				uint8_t *const *out)                         \
	{                                                                    \
		fam##_prga4(st, len, in, out);                               \
		fam##_prga4(st + 4, len, in + 4, out + 4);                   \
	}                                                                    \
	const struct rc4k_lanes rc4k_lanes_##fam##_x86 = {                   \
		{ NULL, NULL, NULL, fam##_ksa8 },                            \
		{ NULL, NULL, fam##_prga4, fam##_prga8 },                    \
		&rc4k_lanes_##fam,                                           \
	};

X86_LANES(char, 1, rc4k_ident_c)
X86_LANES(int, 4, rc4k_ident_i)
X86_LANES(long, 8, rc4k_ident_l)
