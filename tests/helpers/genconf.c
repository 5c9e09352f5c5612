/* SPDX-License-Identifier: MIT */
/* genconf.c - for tests/cli/test_differ.sh: genconf SEED SECTION FILE writes
 * to FILE a config that confgen (confgen.h) builds from SEED's bytes (a
 * splitmix64 stream, testutil.h's), for the CPU whose section is
 * SECTION, and FILE.headers its section headers' lines. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include "confgen.h"
#include "tests/unit/testutil.h"

int main(int argc, char **argv)
{
	uint8_t data[256];
	char path[4096];

	if (argc != 4) {
		fprintf(stderr, "usage: genconf SEED SECTION FILE\n");
		return 2;
	}
	uint64_t s = strtoull(argv[1], NULL, 10);
	test_fill(&s, data, sizeof data);
	snprintf(path, sizeof path, "%s.headers", argv[3]);
	FILE *out = fopen(argv[3], "w"), *headers = fopen(path, "w");
	if (out == NULL || headers == NULL) {
		perror("genconf");
		return 1;
	}
	confgen(out, headers, data, sizeof data, argv[2]);
	return fclose(out) != 0 || fclose(headers) != 0;
}
