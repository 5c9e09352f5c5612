/* registry.c - the lists of every kernel this build compiled (one line
 * each, in registry.def), which tests and the tuner iterate, and lookups. */
#include <config.h>

#include <string.h>
#include "kernel.h"

#include "batch.h"

/* Declare every descriptor, then list them. */
#define SINGLE(id) extern const struct rc4k rc4k_##id;
#define BATCH(id) extern const struct rc4k_batch rc4k_##id;
#include "registry.def"
#undef SINGLE
#undef BATCH

const struct rc4k *const rc4k_registry[] = {
#define SINGLE(id) &rc4k_##id,
#define BATCH(id)
#include "registry.def"
#undef SINGLE
#undef BATCH
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

/* --- batch kernels (batch.h): many streams at once --- */
const struct rc4k_batch *const rc4k_batch_registry[] = {
#define SINGLE(id)
#define BATCH(id) &rc4k_##id,
#include "registry.def"
#undef SINGLE
#undef BATCH
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
