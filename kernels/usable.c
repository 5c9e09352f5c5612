/* SPDX-License-Identifier: MIT */
/* usable.c - whether a kernel may run here: this CPU can run it and its
 * self-test passed.  Verdicts are kept, so a kernel is tested at most once
 * per process, whoever asks (the library's selection, the tuner). */
#include <config.h>

#include <pthread.h>
#include <stdbool.h>
#include "kernel.h"

int rc4k_usable(const struct rc4k_info *k)
{
	return k->usable == NULL || k->usable();
}

/* Self-test verdicts (a registry larger than the table only costs
 * repeated tests). */
static pthread_mutex_t verdict_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const struct rc4k_info *k;
	bool ok;
} verdicts[64];
static size_t nverdicts;

static bool passes(const struct rc4k_info *k)
{
	size_t i = 0;
	bool ok;

	pthread_mutex_lock(&verdict_lock);
	while (i < nverdicts && verdicts[i].k != k)
		i++;
	if (i < nverdicts) {
		ok = verdicts[i].ok;
	} else {
		ok = rc4k_selftest(k) == 0;
		if (nverdicts < sizeof verdicts / sizeof verdicts[0]) {
			verdicts[nverdicts].k = k;
			verdicts[nverdicts].ok = ok;
			nverdicts++;
		}
	}
	pthread_mutex_unlock(&verdict_lock);
	return ok;
}

const char *rc4k_refused(const struct rc4k_info *k)
{
	if (!rc4k_usable(k))
		return "this CPU cannot run it";
	if (!passes(k))
		return "it failed its self-test";
	return NULL;
}
