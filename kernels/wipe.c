/* SPDX-License-Identifier: MIT */
/* wipe.c - rc4k_wipe: explicit_bzero where the C library has it; else
 * memset called through a volatile pointer, which the compiler must load
 * and call, so it cannot prove the stores dead. */
#include <config.h>

#include <string.h>
#include "wipe.h"

void rc4k_wipe(void *p, size_t n)
{
#ifdef HAVE_EXPLICIT_BZERO
	explicit_bzero(p, n);
#else
	static void *(*const volatile set)(void *, int, size_t) = memset;
	set(p, 0, n);
#endif
}

/* Not inlined, so that its frame lies where the callees' frames were, and
 * the array, at the frame's bottom, spans them. */
__attribute__((noinline)) void rc4k_wipe_below(size_t n)
{
	unsigned char below[n];

	rc4k_wipe(below, n);
}
