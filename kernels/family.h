/* SPDX-License-Identifier: MIT */
/* family.h - which kernels set up and continue keys of one state layout:
 * 8-, 32- or 64-bit cells (info.width 1, 4, 8), fixed by the kernel that
 * set a key up.  A batch call runs its lanes only where their cells are
 * the single-stream kernel's (librc4tune(3), "Many keys at once"), so keys
 * are continued by the kernel that was measured and chosen, never by one
 * nobody chose. */
#ifndef RC4K_FAMILY_H
#define RC4K_FAMILY_H

#include "batch.h"

/* One state layout of shared cells. */
struct rc4k_family {
	uint8_t width;              /* bytes per cell */
	const char *name;           /* in messages: "8-bit" */
	const struct rc4k *portable; /* portable C of this layout: what a
				      * lane kernel's self-test continues its
				      * keys with */
};

/* The family of cells WIDTH bytes wide, or NULL (0: a private layout). */
const struct rc4k_family *rc4k_family(unsigned width);

/* NULL when batch kernel B may set up and run keys that SINGLE continues:
 * serial always (it runs SINGLE), a lane kernel when its cells are SINGLE's;
 * else why not, in words. */
const char *rc4k_misfit_reason(const struct rc4k_info *b,
			       const struct rc4k *single);

/* NULL when SHORT_KERNEL may run the short calls on keys that
 * LONG_KERNEL set up (a size split, rc4tune.conf(5) short_kernel): both of
 * one family, whose cells they share, and neither making keystream ahead
 * (the other would skip it); else why not, in words. */
const char *rc4k_split_misfit_reason(const struct rc4k *long_kernel,
				     const struct rc4k *short_kernel);

#endif
