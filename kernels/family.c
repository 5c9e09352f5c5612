/* SPDX-License-Identifier: MIT */
/* family.c - the state layouts that kernels share (family.h). */
#include <config.h>

#include "family.h"

extern const struct rc4k rc4k_char_8x_chunk, rc4k_int_8x, rc4k_long_8x;

static const struct rc4k_family families[] = {
	{ 1, "8-bit", &rc4k_char_8x_chunk },
	{ 4, "32-bit", &rc4k_int_8x },
	{ 8, "64-bit", &rc4k_long_8x },
};

const struct rc4k_family *rc4k_family(unsigned width)
{
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
		if (families[i].width == width)
			return &families[i];
	return NULL;
}

const char *rc4k_misfit_reason(const struct rc4k_info *b,
			       const struct rc4k *single)
{
	if (b->width == 0 || b->width == single->info.width)
		return NULL;
	return "its cells are not the single-stream kernel's: one layout "
	       "family per key";
}

const char *rc4k_split_misfit_reason(const struct rc4k *long_kernel,
				     const struct rc4k *short_kernel)
{
	if (long_kernel->made_ahead != NULL || short_kernel->made_ahead != NULL)
		return "a kernel that makes keystream ahead continues its keys "
		       "alone";
	if (short_kernel->info.width != long_kernel->info.width)
		return "its cells are not the kernel's: one layout family per "
		       "key";
	return NULL;
}
