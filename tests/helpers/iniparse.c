/* SPDX-License-Identifier: MIT */
/* iniparse.c - a config as inih reads it: "[SECTION] KEY=VALUE", one line
 * per key; exit 1 naming the first bad line.  The CLI tests use it to show
 * that what rc4tune writes parses as the library will parse it. */
#include <stdio.h>
#include <ini.h>

static int put(void *user, const char *section, const char *key,
	       const char *value)
{
	(void)user;
	printf("[%s] %s=%s\n", section, key, value);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: iniparse FILE\n");
		return 2;
	}
	int r = ini_parse(argv[1], put, NULL);
	if (r < 0)
		fprintf(stderr, "iniparse: %s: cannot open\n", argv[1]);
	else if (r > 0)
		fprintf(stderr, "iniparse: %s:%d: parse error\n", argv[1], r);
	return r == 0 ? 0 : 1;
}
