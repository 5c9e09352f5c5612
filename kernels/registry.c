/* SPDX-License-Identifier: MIT */
/* registry.c - the list of every kernel this build compiled (one line
 * each, in registry.def), the kinds, and lookups. */
#include <config.h>

#include <string.h>
#include "batch.h"
#include "selftest.h"

/* Declare every descriptor, then list them. */
#define SINGLE(id) extern const struct rc4k rc4k_##id;
#define ASM(id, ...) SINGLE(id)
#define BATCH(id) extern const struct rc4k_batch rc4k_##id;
#define LANES(id, ...) BATCH(id)
#include "registry.def"

const struct rc4k_info *const rc4k_registry[] = {
#define SINGLE(id) &rc4k_##id.info,
#define ASM(id, ...) SINGLE(id)
#define BATCH(id) SINGLE(id)
#define LANES(id, ...) SINGLE(id)
#include "registry.def"
	NULL,
};

const struct rc4k_kind_info rc4k_kinds[RC4K_KINDS] = {
	/* int-8x: portable C, within 1 % of the best C loop on the CPUs
	 * measured (doc/cpus/AuthenticAMD-25-17.md, "Single stream, quiet
	 * host"); 32-bit entries avoid the char layout's partial-register
	 * traps on older CPUs (doc/cpus/published.md). */
	[RC4K_SINGLE] = { "kernel", RC4K_SINGLE, "RC4TUNE_KERNEL", "",
			  &rc4k_int_8x.info, rc4k_selftest_single },
	/* serial: the single-stream kernel key by key, of whatever family,
	 * so never slower than one key at a time (family.h). */
	[RC4K_SET_KEYS] = { "set_keys kernel", RC4K_BATCH, NULL, "set_keys: ",
			    &rc4k_serial.info, rc4k_selftest_batch },
	[RC4K_CRYPT_MANY] = { "crypt_many kernel", RC4K_BATCH, NULL,
			      "crypt_many: ", &rc4k_serial.info,
			      rc4k_selftest_batch },
};

const struct rc4k_info *rc4k_find(enum rc4k_kind kind, const char *name)
{
	for (const struct rc4k_info *const *k = rc4k_registry; *k; k++)
		if ((*k)->kind == rc4k_kinds[kind].type &&
		    strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

const struct rc4k_info *rc4k_nth(enum rc4k_kind kind, size_t i)
{
	for (const struct rc4k_info *const *k = rc4k_registry; *k; k++)
		if ((*k)->kind == rc4k_kinds[kind].type && i-- == 0)
			return *k;
	return NULL;
}

int rc4k_selftest(const struct rc4k_info *k)
{
	return rc4k_kinds[k->kind].selftest(k);
}
