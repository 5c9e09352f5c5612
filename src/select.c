/* select.c - which kernel new keys use: chosen once, on first use, then
 * read without a lock (zlib-ng's functable pattern). */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include "rc4tune.h"
#include "select.h"

static _Atomic(const struct rc4k *) current;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void choose(void)
{
	atomic_store_explicit(&current, rc4k_default, memory_order_release);
}

const struct rc4k *rc4_current(void)
{
	const struct rc4k *k =
		atomic_load_explicit(&current, memory_order_acquire);
	if (k == NULL) {
		pthread_once(&once, choose);
		k = atomic_load_explicit(&current, memory_order_acquire);
	}
	return k;
}

const char *rc4tune_kernel_name(void)
{
	return rc4_current()->name;
}

int rc4tune_use_kernel(const char *name)
{
	const struct rc4k *k = name ? rc4k_find(name) : NULL;

	rc4_current(); /* a later first-use selection must not undo this */
	if (k == NULL) {
		errno = ENOENT;
		return -1;
	}
	if (!rc4k_usable(k) || rc4k_selftest(k) != 0) {
		errno = ENOTSUP;
		return -1;
	}
	atomic_store_explicit(&current, k, memory_order_release);
	return 0;
}

const char *rc4tune_kernel_info(size_t i, const char **summary, int *usable)
{
	size_t n = 0;

	while (rc4k_registry[n] != NULL && n < i)
		n++;
	const struct rc4k *k = rc4k_registry[n];
	if (k == NULL)
		return NULL;
	if (summary)
		*summary = k->summary;
	if (usable)
		*usable = rc4k_usable(k);
	return k->name;
}
