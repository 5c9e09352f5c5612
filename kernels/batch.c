/* SPDX-License-Identifier: MIT */
/* batch.c - interleaved kernels: 2, 4 or 8 independent streams stepped in
 * lockstep, for key schedules and keystream.
 *
 * Each lane's chain (load S[x], add to y, load S[y], swap) is serial, but
 * the lanes share nothing, so the core overlaps them.  Every loop is
 * written once, for L lanes; a kernel of L lanes handles the keys left
 * over after its groups with the L/2, L/4, ... 1-lane instances. */
#include <config.h>

#include "batch.h"
#include "cpufeat.h"
#include "lanes.h"
#include "loop.h"
#include "wipe.h"

/* Keys of 1, 2, 4, 8 or 16 bytes (16 and 8 are the usual): stored over
 * and over from a register, whole, so that no copy reads what another
 * just wrote (16-byte keys: 16 against 33 TSC a key on
 * doc/cpus/GenuineIntel-6-167.md's CPU). */
int rc4k_expand_whole(uint8_t kx[KX_LEN], const uint8_t *key, size_t len)
{
	uint64_t w;
	uint32_t w4;
	uint16_t w2;

	switch (len) {
	case 16:
		for (size_t o = 0; o < KX_LEN; o += 16)
			memcpy(kx + o, key, 16);
		return 1;
	case 8:
		memcpy(&w, key, 8);
		break;
	/* the product repeats the value in every slot, in either byte order */
	case 4:
		memcpy(&w4, key, 4);
		w = w4 * UINT64_C(0x0000000100000001);
		break;
	case 2:
		memcpy(&w2, key, 2);
		w = w2 * UINT64_C(0x0001000100010001);
		break;
	case 1:
		w = key[0] * UINT64_C(0x0101010101010101);
		break;
	default:
		return 0;
	}
	for (size_t o = 0; o < KX_LEN; o += 8)
		memcpy(kx + o, &w, 8);
	return 1;
}

void rc4k_expand_copies(uint8_t kx[KX_LEN], const uint8_t *key, size_t len)
{
	size_t have = len;

	memcpy(kx, key, len);
	for (; have < 16; have *= 2)
		memcpy(kx + have, kx, have);
	/* Doubling: a few rounds of independent 16-byte copies, not a chain
	 * of 256 dependent ones.  HAVE stays a multiple of LEN, so a copy
	 * that reads bytes this round wrote still reads the right ones. */
	for (; have < 256; have *= 2)
		for (size_t o = 0; o < have && have + o < 256; o += 16)
			memcpy(kx + have + o, kx + o, 16);
}

void rc4k_expand_key(uint8_t kx[KX_LEN], const uint8_t *key, size_t len)
{
	if (!rc4k_expand_whole(kx, key, len))
		rc4k_expand_copies(kx, key, len);
}

const uint8_t rc4k_ident_c[256] = {
#define B4(n) n, n + 1, n + 2, n + 3
#define B16(n) B4(n), B4(n + 4), B4(n + 8), B4(n + 12)
#define B64(n) B16(n), B16(n + 16), B16(n + 32), B16(n + 48)
	B64(0), B64(64), B64(128), B64(192)
};
const uint32_t rc4k_ident_i[256] = { B64(0), B64(64), B64(128), B64(192) };
const uint64_t rc4k_ident_l[256] = { B64(0), B64(64), B64(128), B64(192) };
#undef B64
#undef B16
#undef B4

/* Per-lane scalars: the lanes' j, y and keystream words are written as
 * X(0) X(1) ... so that each is a plain local the compiler keeps in a
 * register (arrays indexed by lane were left in memory on the chain). */
#define RC4K_REP1(X) X(0)
#define RC4K_REP2(X) X(0) X(1)
#define RC4K_REP4(X) RC4K_REP2(X) X(2) X(3)
#define RC4K_REP8(X) RC4K_REP4(X) X(4) X(5) X(6) X(7)

/* The lanes' states are copied to one local array: every entry is then at
 * a fixed offset from the stack pointer, and no register holds a lane's
 * base.  A lane is padded by 64 bytes so that lanes 1 KiB apart (int) do
 * not meet at 4 KiB strides, where loads falsely wait for stores. */
#define RC4K_LOCAL(T) (256 + 64 / sizeof(T))

/* The KSA of L keys at once (ENT: the entry type; S, kx and i in scope). */
#define KSA_DECL(l) unsigned j##l = 0;
#define KSA_STEP(l)                                          \
	{                                                    \
		ent t = S[l][i];                             \
		j##l = (j##l + t + kx[l][i]) & 0xff;         \
		S[l][i] = S[l][j##l];                        \
		S[l][j##l] = t;                              \
	}

#define RC4K_BATCH_KSA(fn, T, M, L, ident)                                    \
	static void fn(struct rc4k_state *const *st,                         \
		       const uint8_t *const *key, const size_t *len)         \
	{                                                                     \
		typedef T ent;                                                \
		_Alignas(64) T S[L][RC4K_LOCAL(T)];                           \
		uint8_t kx[L][KX_LEN];                                        \
		RC4K_REP##L(KSA_DECL)                                         \
		for (unsigned l = 0; l < (L); l++) {                          \
			memcpy(S[l], ident, sizeof ident);                    \
			rc4k_expand_key(kx[l], key[l], len[l]);               \
		}                                                             \
		for (unsigned i = 0; i < 256; i++) {                          \
			RC4K_REP##L(KSA_STEP)                                 \
		}                                                             \
		for (unsigned l = 0; l < (L); l++) {                          \
			memcpy(st[l]->s.M, S[l], sizeof ident);               \
			rc4k_state_fresh(st[l]);                              \
		}                                                             \
	}

/* Keystream: one x for all lanes, since lanes in step (keys set up together
 * and fed equal lengths, the batch use) share it; 8 bytes of each lane
 * gathered into a word and XORed at once (as RC4K_CRYPT_CHUNK). */
#define PRGA_KS(l, k)                                        \
	{                                                    \
		ent tx = S[l][x];                            \
		y##l = (y##l + tx) & 0xff;                   \
		ent ty = S[l][y##l];                         \
		S[l][x] = ty;                                \
		S[l][y##l] = tx;                             \
		k = (uint8_t)S[l][(tx + ty) & 0xff];         \
	}
#define PRGA_DECL(l) unsigned y##l = st[l]->y; uint64_t ks##l = 0;
#define PRGA_GATHER(l)                                       \
	{                                                    \
		uint8_t k;                                   \
		PRGA_KS(l, k);                               \
		ks##l |= (uint64_t)k << RC4K_LANE(b);        \
	}
#define PRGA_XOR(l)                                          \
	{                                                    \
		uint64_t v;                                  \
		memcpy(&v, in[l] + n, 8);                    \
		v ^= ks##l;                                  \
		memcpy(out[l] + n, &v, 8);                   \
		ks##l = 0;                                   \
	}
#define PRGA_BYTE(l)                                         \
	{                                                    \
		uint8_t k;                                   \
		PRGA_KS(l, k);                               \
		out[l][n] = in[l][n] ^ k;                    \
	}
#define PRGA_SAVE(l) st[l]->y = y##l;

int rc4k_in_step(struct rc4k_state *const *st, unsigned lanes)
{
	for (unsigned l = 1; l < lanes; l++)
		if (st[l]->x != st[0]->x)
			return 0;
	return 1;
}

/* LEN bytes of L streams in step, lane l's entries in S[l] (the copy or
 * the state itself): x, the lanes' y and keystream words in registers. */
#define PRGA_RUN(L)                                                           \
	{                                                                     \
		unsigned x = st[0]->x;                                        \
		size_t n = 0;                                                 \
		RC4K_REP##L(PRGA_DECL)                                        \
		for (; len - n >= 8; n += 8) {                                \
			RC4K_UNROLL(8)                                        \
			for (unsigned b = 0; b < 8; b++) {                    \
				x = (x + 1) & 0xff;                           \
				RC4K_REP##L(PRGA_GATHER)                      \
			}                                                     \
			RC4K_REP##L(PRGA_XOR)                                 \
		}                                                             \
		for (; n < len; n++) {                                        \
			x = (x + 1) & 0xff;                                   \
			RC4K_REP##L(PRGA_BYTE)                                \
		}                                                             \
		for (unsigned l = 0; l < (L); l++)                            \
			st[l]->x = x;                                         \
		RC4K_REP##L(PRGA_SAVE)                                        \
	}
#define PRGA_PTR(l) (ent *)&st[l]->s,

/* LEN bytes of L streams; lanes not in step run one at a time (LANE1, the
 * 1-lane instance).  Short runs (RC4K_SHORT) step the states in place:
 * copying them would cost more than the steps. */
#define RC4K_BATCH_PRGA(fn, T, M, L, lane1)                                   \
	static void fn(struct rc4k_state *const *st, size_t len,             \
		       const uint8_t *const *in, uint8_t *const *out)        \
	{                                                                     \
		typedef T ent;                                                \
		if (!rc4k_in_step(st, L)) {                                   \
			for (unsigned l = 0; l < (L); l++)                    \
				lane1(st + l, len, in + l, out + l);          \
			return;                                               \
		}                                                             \
		if (RC4K_SHORT(len, sizeof(T))) {                             \
			T *const S[L] = { RC4K_REP##L(PRGA_PTR) };            \
			PRGA_RUN(L)                                           \
			return;                                               \
		}                                                             \
		_Alignas(64) T S[L][RC4K_LOCAL(T)];                           \
		for (unsigned l = 0; l < (L); l++)                            \
			memcpy(S[l], st[l]->s.M, 256 * sizeof(T));            \
		PRGA_RUN(L)                                                   \
		for (unsigned l = 0; l < (L); l++)                            \
			memcpy(st[l]->s.M, S[l], 256 * sizeof(T));            \
	}

/* A family: the 1-, 2-, 4- and 8-lane loops for one state layout. */
#define RC4K_BATCH_FAMILY(fam, T, M, ident)                                 \
	RC4K_BATCH_KSA(fam##_ksa1, T, M, 1, ident)                          \
	RC4K_BATCH_KSA(fam##_ksa2, T, M, 2, ident)                          \
	RC4K_BATCH_KSA(fam##_ksa4, T, M, 4, ident)                          \
	RC4K_BATCH_KSA(fam##_ksa8, T, M, 8, ident)                          \
	RC4K_BATCH_PRGA(fam##_prga1, T, M, 1, fam##_prga1)                  \
	RC4K_BATCH_PRGA(fam##_prga2, T, M, 2, fam##_prga1)                  \
	RC4K_BATCH_PRGA(fam##_prga4, T, M, 4, fam##_prga1)                  \
	RC4K_BATCH_PRGA(fam##_prga8, T, M, 8, fam##_prga1)                  \
	const struct rc4k_lanes rc4k_lanes_##fam = {                        \
		{ fam##_ksa1, fam##_ksa2, fam##_ksa4, fam##_ksa8 },         \
		{ fam##_prga1, fam##_prga2, fam##_prga4, fam##_prga8 },     \
		NULL, sizeof(T),                                            \
	};

/* log2 of the largest group (at most 2^G lanes) that LEFT keys fill: full
 * groups while they last, then at most one of each smaller power of two. */
static unsigned group_log(size_t left, unsigned g)
{
	while (((size_t)1 << g) > left)
		g--;
	return g;
}

/* The stack that N keys' groups of up to 2^G lanes of width W (for a
 * keystream loop, its copies' width: struct rc4k_lanes) used below their
 * caller, at most: the largest (first) group's lanes, each a state
 * copy (RC4K_LOCAL) and for a key schedule its expanded key, and SLACK
 * bytes for spills, saved registers and alignment (ASan's redzones, in a
 * sanitizer build); a keystream loop's 1-lane loop under it (lanes out of
 * step) adds a lane. */
#if defined(__SANITIZE_ADDRESS__)
#define RC4K_SLACK 4096
#else
/* With 512, state runs stayed below the cleared span: char-4lane and
 * char-8lane's on s390x (160-byte register save areas), int-8lane's at
 * -O0 and int-8lane-asm's at -O1 on x86-64. */
#define RC4K_SLACK 2048
#endif
#define RC4K_LANES(n, G) ((n) < (size_t)1 << (G) ? (n) : (size_t)1 << (G))
#define RC4K_BELOW_KSA(n, G, W) \
	(RC4K_LANES(n, G) * (256 * (W) + 64 + KX_LEN) + RC4K_SLACK)
#define RC4K_BELOW_PRGA(n, G, W) \
	((RC4K_LANES(n, G) + 1) * (256 * (W) + 64) + RC4K_SLACK)

/* F's LOOP (ksa or prga) for 2^G lanes. */
#define LOOP_OF(f, loop, g) ((f)->loop[g] ? (f)->loop[g] : (f)->base->loop[g])

/* One registry entry: FAM's loops with up to 2^G lanes.  Their frames
 * held copies of the lanes' states and keys, and spilled keystream words:
 * cleared once all groups ran.  (Clearing in each group cost several
 * times more; moving the copies into this frame, cleared here, made the
 * int loops' key schedules slower on a CPU measured, for no reason the
 * generated loops showed: doc/cpus/AuthenticAMD-25-17.md.) */
#define LANES(id, nm, sum, fam, G, W, needs)                                \
	extern const struct rc4k_lanes rc4k_lanes_##fam;                    \
	static void id##_set_keys(const struct rc4k *single,                \
				  struct rc4k_state *const *st, size_t n,   \
				  const uint8_t *const *key,                \
				  const size_t *len)                        \
	{                                                                   \
		(void)single;                                               \
		for (size_t i = 0, g; i < n; i += (size_t)1 << g) {         \
			g = group_log(n - i, G);                            \
			LOOP_OF(&rc4k_lanes_##fam, ksa, g)(st + i, key + i, \
							   len + i);        \
		}                                                           \
		rc4k_wipe_below(RC4K_BELOW_KSA(n, G, W));                   \
	}                                                                   \
	static void id##_crypt_many(const struct rc4k *single,              \
				    struct rc4k_state *const *st, size_t n, \
				    size_t len, const uint8_t *const *in,   \
				    uint8_t *const *out)                    \
	{                                                                   \
		(void)single;                                               \
		for (size_t i = 0, g; i < n; i += (size_t)1 << g) {         \
			g = group_log(n - i, G);                            \
			LOOP_OF(&rc4k_lanes_##fam, prga, g)(st + i, len,    \
							    in + i, out + i); \
		}                                                           \
		rc4k_wipe_below(                                            \
			RC4K_BELOW_PRGA(n, G, rc4k_lanes_##fam.prga_w));    \
	}                                                                   \
	const struct rc4k_batch rc4k_##id = {                               \
		.info = { .name = nm, .summary = sum,                       \
			  .usable = RC4K_NEEDS_##needs,                     \
			  .kind = RC4K_BATCH, .width = W },                 \
		.lanes = 1u << (G),                                         \
		.set_keys = id##_set_keys, .crypt_many = id##_crypt_many,   \
	};

RC4K_BATCH_FAMILY(char, uint8_t, c, rc4k_ident_c)
RC4K_BATCH_FAMILY(int, uint32_t, i, rc4k_ident_i)
RC4K_BATCH_FAMILY(long, uint64_t, l, rc4k_ident_l)

/* Every lane kernel's descriptor, from its LANES line. */
#define SINGLE(id)
#define ASM(id, ...)
#define BATCH(id)
#include "registry.def"
