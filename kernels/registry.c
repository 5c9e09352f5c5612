/* registry.c - the one list of every kernel this build compiled.  A new
 * kernel is its file plus one line here; tests and the tuner iterate this. */
#include <config.h>

#include <string.h>
#include "kernel.h"

extern const struct rc4k rc4k_char_ref, rc4k_char_1x, rc4k_char_1x_ptr,
	rc4k_char_1x_preload, rc4k_char_4x, rc4k_char_8x_chunk, rc4k_int_1x,
	rc4k_int_1x_r64, rc4k_int_1x_ptr, rc4k_int_4x, rc4k_int_8x,
	rc4k_int_16x, rc4k_int_8x_chunk, rc4k_int_16x_chunk, rc4k_long_1x,
	rc4k_long_8x, rc4k_long_8x_chunk;
#ifdef RC4TUNE_X86_64
extern const struct rc4k rc4k_x86_char_1x_r32, rc4k_x86_char_1x_r64,
	rc4k_x86_char_1x_preload, rc4k_x86_int_8x_chunk,
	rc4k_x86_long_8x_chunk, rc4k_x86_int_16x_sse2, rc4k_x86_long_16x_sse2,
	rc4k_x86_char_16x_sse41, rc4k_x86_int_16x_sse41,
	rc4k_x86_long_16x_sse41;
#endif

const struct rc4k *const rc4k_registry[] = {
	&rc4k_char_ref, /* first: the reference */
	&rc4k_char_1x,
	&rc4k_char_1x_ptr,
	&rc4k_char_1x_preload,
	&rc4k_char_4x,
	&rc4k_char_8x_chunk,
	&rc4k_int_1x,
	&rc4k_int_1x_r64,
	&rc4k_int_1x_ptr,
	&rc4k_int_4x,
	&rc4k_int_8x,
	&rc4k_int_16x,
	&rc4k_int_8x_chunk,
	&rc4k_int_16x_chunk,
	&rc4k_long_1x,
	&rc4k_long_8x,
	&rc4k_long_8x_chunk,
#ifdef RC4TUNE_X86_64
	&rc4k_x86_char_1x_r32,
	&rc4k_x86_char_1x_r64,
	&rc4k_x86_char_1x_preload,
	&rc4k_x86_int_8x_chunk,
	&rc4k_x86_long_8x_chunk,
	&rc4k_x86_int_16x_sse2,
	&rc4k_x86_long_16x_sse2,
	&rc4k_x86_char_16x_sse41,
	&rc4k_x86_int_16x_sse41,
	&rc4k_x86_long_16x_sse41,
#endif
	NULL,
};

const struct rc4k *rc4k_find(const char *name)
{
	for (const struct rc4k *const *k = rc4k_registry; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

int rc4k_usable(const struct rc4k *k)
{
	return k->usable == NULL || k->usable();
}

/* Portable C, within 1 % of the best C loop on the CPUs measured so far
 * (tests/bench); 32-bit entries avoid the char layout's Core 2 / K8 traps. */
const struct rc4k *const rc4k_default = &rc4k_int_8x;

/* --- batch kernels (batch.h): many streams at once, one line each --- */
#include "batch.h"

extern const struct rc4k_batch rc4k_char_2lane, rc4k_char_4lane,
	rc4k_char_8lane, rc4k_int_2lane, rc4k_int_4lane, rc4k_int_8lane;
#ifdef RC4TUNE_X86_64
extern const struct rc4k_batch rc4k_x86_char_8lane;
#endif

const struct rc4k_batch *const rc4k_batch_registry[] = {
	&rc4k_char_2lane,
	&rc4k_char_4lane,
	&rc4k_char_8lane,
	&rc4k_int_2lane,
	&rc4k_int_4lane,
	&rc4k_int_8lane,
#ifdef RC4TUNE_X86_64
	&rc4k_x86_char_8lane,
#endif
	NULL,
};

const struct rc4k_batch *rc4k_batch_find(const char *name)
{
	for (const struct rc4k_batch *const *b = rc4k_batch_registry; *b; b++)
		if (strcmp((*b)->name, name) == 0)
			return *b;
	return NULL;
}

int rc4k_batch_usable(const struct rc4k_batch *b)
{
	return b->usable == NULL || b->usable();
}

/* Portable C: the C batch kernel with the most keys/s on Zen 4 (about
 * 20 % ahead of char-4lane, 10 % behind it over 8 streams; the int ones
 * trail both; tests/bench_batch), keys being the heaviest batch use. */
const struct rc4k_batch *const rc4k_batch_default = &rc4k_char_8lane;
