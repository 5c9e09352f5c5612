/* SPDX-License-Identifier: MIT */
/* layout.h - for programs that pick kernels through the public API (tests,
 * benchmarks): the portable single-stream kernel of the state layout a
 * kernel's name says, so that a batch kernel set by name gets keys of its
 * own layout (librc4tune(3), Many keys at once). */
#ifndef RC4_TEST_LAYOUT_H
#define RC4_TEST_LAYOUT_H

#include <string.h>

/* "char-8x-chunk", "int-8x" or "long-8x" for a NAME of that layout
 * (char-, int-, long- first), else NULL (serial, which has none). */
static inline const char *layout_portable(const char *name)
{
	static const char *const portable[] = { "char-8x-chunk", "int-8x",
						"long-8x" };

	for (size_t i = 0; i < sizeof portable / sizeof portable[0]; i++) {
		size_t n = strcspn(portable[i], "-") + 1;
		if (strncmp(name, portable[i], n) == 0)
			return portable[i];
	}
	return NULL;
}

#endif
