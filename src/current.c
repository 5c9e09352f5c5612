/* SPDX-License-Identifier: MIT */
/* current.c - the kernels this process uses, one per kind: all chosen at
 * the first use of any, the config read once, then read without a lock
 * (zlib-ng's functable pattern); switched by rc4tune_use_kernel and
 * rc4tune_use_batch_kernel (both batch calls). */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "select.h"

static _Atomic(const struct rc4k_info *) current[RC4K_KINDS];
/* No split: what a process has before its first use, and after
 * rc4tune_use_kernel; the first use's, written once before it is
 * published. */
static const struct rc4_split no_split;
static struct rc4_split first_split;
_Atomic(const struct rc4_split *) rc4_split_now = &no_split;
/* Held while the first use selects. */
static pthread_mutex_t choosing = PTHREAD_MUTEX_INITIALIZER;

/* Every kind's kernel at once, the config read once (rc4_select_all),
 * published; the lock held. */
static void choose_all(void)
{
	struct rc4_select_in in;
	struct rc4_cpu cpu;
	struct rc4_selection sel;
	const char *debug = secure_getenv("RC4TUNE_DEBUG");
	bool loud = debug != NULL && strcmp(debug, "1") == 0;
	static char trails[RC4K_KINDS][RC4_TRAIL_MAX];
	int saved = errno; /* a missing config is normal: no ENOENT leaks out */

	rc4_select_live(&in, &cpu);
	rc4_select_all(&in, &sel, loud ? trails : NULL);
	if (sel.how[RC4K_SINGLE].split.below > 0) {
		first_split = sel.how[RC4K_SINGLE].split;
		atomic_store_explicit(&rc4_split_now, &first_split,
				      memory_order_release);
	}
	for (int k = 0; k < RC4K_KINDS; k++) {
		if (loud)
			rc4_trail_print(stderr, "librc4tune: ", trails[k]);
		atomic_store_explicit(&current[k], sel.k[k],
				      memory_order_release);
	}
	errno = saved;
}

const struct rc4k_info *rc4_current(enum rc4k_kind kind)
{
	const struct rc4k_info *k =
		atomic_load_explicit(&current[kind], memory_order_acquire);

	if (k != NULL)
		return k;
	pthread_mutex_lock(&choosing);
	if (atomic_load_explicit(&current[kind], memory_order_relaxed) == NULL)
		choose_all();
	pthread_mutex_unlock(&choosing);
	return atomic_load_explicit(&current[kind], memory_order_acquire);
}

/* Switch KIND to the kernel NAME, unless it is unknown or may not run. */
static int use(enum rc4k_kind kind, const char *name)
{
	const char *why;
	const struct rc4k_info *k =
		rc4_key_kernel(kind, name, NULL, true, NULL, &why);

	rc4_current(kind); /* a later first-use selection must not undo this */
	if (k == NULL) {
		errno = name == NULL ? EINVAL : why ? ENOTSUP : ENOENT;
		return -1;
	}
	atomic_store_explicit(&current[kind], k, memory_order_release);
	/* one kernel named: no split (keys it set up run it at every size) */
	if (kind == RC4K_SINGLE)
		atomic_store_explicit(&rc4_split_now, &no_split,
				      memory_order_release);
	return 0;
}

const char *rc4tune_kernel_name(void)
{
	return rc4_current(RC4K_SINGLE)->name;
}

/* One name for two calls: rc4tune_crypt_many's, the call that runs
 * streams (rc4tune --explain shows both). */
const char *rc4tune_batch_kernel_name(void)
{
	return rc4_current(RC4K_CRYPT_MANY)->name;
}

int rc4tune_use_kernel(const char *name)
{
	return use(RC4K_SINGLE, name);
}

int rc4tune_use_batch_kernel(const char *name)
{
	/* both batch calls, or neither */
	int r = use(RC4K_SET_KEYS, name);
	return r == 0 ? use(RC4K_CRYPT_MANY, name) : r;
}

/* The I-th kernel of KIND, for the two public listings. */
static const char *info(enum rc4k_kind kind, size_t i, const char **summary,
			int *usable)
{
	const struct rc4k_info *k = rc4k_nth(kind, i);

	if (k == NULL)
		return NULL;
	if (summary)
		*summary = k->summary;
	if (usable)
		*usable = rc4k_usable(k);
	return k->name;
}

const char *rc4tune_kernel_info(size_t i, const char **summary, int *usable)
{
	return info(RC4K_SINGLE, i, summary, usable);
}

const char *rc4tune_batch_kernel_info(size_t i, const char **summary,
				      int *usable)
{
	return info(RC4K_BATCH, i, summary, usable);
}
