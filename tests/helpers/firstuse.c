/* SPDX-License-Identifier: MIT */
/* firstuse.c - for tests/cli/test_fleet.sh: the time of the library's first
 * use in this process (RC4TUNE_CONF names the config: read, trusted,
 * parsed, a kernel chosen and self-tested), in microseconds, on stdout.
 * "firstuse all": then the other three calls a program makes, each with
 * a kernel of its own (for tests/cli/test_faults_reader.sh: the config is read
 * once for all). */
#include <stdio.h>
#include <string.h>
#include <rc4tune.h>
#include "tuner/timing.h"

/* rc4tune_crypt, rc4tune_set_keys and rc4tune_crypt_many on two keys. */
static int other_calls(void)
{
	static rc4tune_key k[2];
	unsigned char in[2][16] = { { 0 } }, out[2][16];
	const void *data[2] = { "key", "yek" }, *ip[2] = { in[0], in[1] };
	void *op[2] = { out[0], out[1] };
	size_t len[2] = { 3, 3 };

	if (rc4tune_set_key(&k[0], "key", 3) != 0 ||
	    rc4tune_set_keys(k, 2, data, len) != 0)
		return 1;
	rc4tune_crypt(&k[0], 16, in[0], out[0]);
	rc4tune_crypt_many(k, 2, 16, ip, op);
	rc4tune_wipe(&k[0]);
	rc4tune_wipe(&k[1]);
	return 0;
}

int main(int argc, char **argv)
{
	double start = timing_clock();
	const char *name = rc4tune_kernel_name();
	printf("%ld %s\n", (long)((timing_clock() - start) * 1e6), name);
	return argc > 1 && strcmp(argv[1], "all") == 0 ? other_calls() : 0;
}
