/* SPDX-License-Identifier: MIT */
/* wipe.h - a clear of secrets (key bytes, RC4 state, keystream) that the
 * compiler cannot drop as a dead store. */
#ifndef RC4K_WIPE_H
#define RC4K_WIPE_H

#include <stddef.h>

void rc4k_wipe(void *p, size_t n);

/* Clear N bytes of stack just below the caller's frame, where the
 * functions it called (and returned from) had theirs: what they kept
 * there, their locals and their spilled registers. */
void rc4k_wipe_below(size_t n);

#endif
