/* SPDX-License-Identifier: MIT */
/* kernels.c - descriptors of the x86-64 assembly kernels, one for each ASM
 * line of registry.def.  Each keeps its state in a C family's layout, so
 * it shares that family's key schedule, and a key set up by one can be
 * continued by the other. */
#include <config.h>

#include <stddef.h>
#include "../cpufeat.h"
#include "../kernel.h"
#include "../setkey.h"
#include "layout.h"

_Static_assert(offsetof(struct rc4k_state, x) == ST_X, "rc4.S: x");
_Static_assert(offsetof(struct rc4k_state, y) == ST_Y, "rc4.S: y");
_Static_assert(offsetof(struct rc4k_state, s) == ST_S, "rc4.S: s");

#define SET_KEY(w)                                            \
	((w) == 1 ? rc4k_char_set_key                         \
	 : (w) == 4 ? rc4k_int_set_key : rc4k_long_set_key)

#define SINGLE(id)
#define BATCH(id)
#define LANES(id, ...)
#define ASM(id, nm, sum, w, needs, ...)                                       \
	void rc4k_##id##_crypt(struct rc4k_state *st, size_t len,             \
			       const uint8_t *in, uint8_t *out);              \
	const struct rc4k rc4k_##id = {                                       \
		.info = { .name = nm, .summary = sum, .usable = RC4K_NEEDS_##needs, \
			  .kind = RC4K_SINGLE, .width = (w) },                \
		.set_key = SET_KEY(w), .crypt = rc4k_##id##_crypt,            \
	};
#include "../registry.def"
