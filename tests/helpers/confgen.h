/* SPDX-License-Identifier: MIT */
/* confgen.h - configs built from bytes: every kind of section a file can
 * hold for a CPU (this CPU's as a person or the tuner wrote it, with
 * blanks around its name, near misses of its name, other CPUs', [default],
 * [pin], records sealed, edited or out of bounds, a line the library
 * refuses), for the fuzzers (tests/fuzz/fuzz_conf.c, tests/fuzz/fuzz_merge.c) and
 * the differential test (tests/helpers/genconf.c, tests/cli/test_differ.sh). */
#ifndef RC4_CONFGEN_H
#define RC4_CONFGEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A config for the CPU whose section is LIVE, to OUT, every choice taken
 * from DATA's SIZE bytes in turn (zeros once they run out).  For each
 * section header, HEADERS (may be NULL) gets "LINE MINE\n": its line and
 * whether it names LIVE (1) or not (0). */
void confgen(FILE *out, FILE *headers, const uint8_t *data, size_t size,
	     const char *live);

#endif
