/* SPDX-License-Identifier: MIT */
/* firstuse.c - for tests/test_fleet.sh: the time of the library's first
 * use in this process (RC4TUNE_CONF names the config: read, trusted,
 * parsed, a kernel chosen and self-tested), in microseconds, on stdout. */
#include <stdio.h>
#include <time.h>
#include <rc4tune.h>

int main(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	const char *name = rc4tune_kernel_name();
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld %s\n",
	       (long)((b.tv_sec - a.tv_sec) * 1000000 +
		      (b.tv_nsec - a.tv_nsec) / 1000),
	       name);
	return 0;
}
