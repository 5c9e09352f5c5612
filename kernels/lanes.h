/* SPDX-License-Identifier: MIT */
/* lanes.h - what the lane kernels' loops share, portable (batch.c) and
 * per architecture (x86_64/lanes.c): the expanded key, the identity, and
 * a family's table of loops by lane count.  A LANES line of registry.def
 * names a family; batch.c makes the descriptor. */
#ifndef RC4K_LANES_H
#define RC4K_LANES_H

#include <string.h>
#include "kernel.h"

/* The key repeated to 256 bytes (and 16 bytes of slack for the copies),
 * so that the schedules of keys of different lengths still move in
 * lockstep, reading kx[i] instead of tracking each key's own index. */
#define KX_LEN (256 + 16)

void rc4k_expand_key(uint8_t kx[KX_LEN], const uint8_t *key, size_t len);
/* Its two ways: keys of 1, 2, 4, 8 or 16 bytes stored whole (0, doing
 * nothing, for other lengths), and any length by copies. */
int rc4k_expand_whole(uint8_t kx[KX_LEN], const uint8_t *key, size_t len);
void rc4k_expand_copies(uint8_t kx[KX_LEN], const uint8_t *key, size_t len);

/* S of a fresh key: 0..255 in cells of 8, 32 and 64 bits. */
extern const uint8_t rc4k_ident_c[256];
extern const uint32_t rc4k_ident_i[256];
extern const uint64_t rc4k_ident_l[256];

/* Whether the L lanes share x (a single lane always does): lanes set up
 * together and fed equal lengths, the batch use. */
int rc4k_in_step(struct rc4k_state *const *st, unsigned lanes);

/* Whether LEN bytes of keystream from states of W-byte cells are better
 * made in the states in place than in a copy: the copies (2 x 256 cells a
 * lane) cost as much as about 32 steps per byte of cell width
 * (doc/cpus/GenuineIntel-6-207.md, "32-bit lanes and key schedules"). */
#define RC4K_SHORT(len, w) ((len) < 32 * (size_t)(w))

/* The key schedules of L keys, and LEN bytes of L streams, for one L. */
typedef void rc4k_ksa_fn(struct rc4k_state *const *st,
			 const uint8_t *const *key, const size_t *len);
typedef void rc4k_prga_fn(struct rc4k_state *const *st, size_t len,
			  const uint8_t *const *in, uint8_t *const *out);

/* A family: its loops for 1, 2, 4 and 8 lanes, indexed by log2 of the
 * lane count; a kernel of 2^G lanes uses entries 0..G.  A NULL entry is
 * BASE's (a family with cores for some lane counts only).  PRGA_W: the
 * cell width of the state copies its keystream loops keep on the stack,
 * which may be wider than the states' own (batch.c clears them). */
struct rc4k_lanes {
	rc4k_ksa_fn *ksa[4];
	rc4k_prga_fn *prga[4];
	const struct rc4k_lanes *base;
	unsigned prga_w;
};

/* The portable C families (batch.c), of 8-, 32- and 64-bit cells. */
extern const struct rc4k_lanes rc4k_lanes_char, rc4k_lanes_int,
	rc4k_lanes_long;

#endif
