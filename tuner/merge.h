/* SPDX-License-Identifier: MIT */
/* merge.h - rc4tune --merge: one config from many hosts' files, each
 * CPU's section chosen and written as rc4tune(1) says. */
#ifndef RC4_MERGE_H
#define RC4_MERGE_H

#include <stdbool.h>

/* rc4tune --merge FILES... --output OUT (N files; OUT standard output
 * by confwrite_is_stdout).  QUIET: no notes.  Returns the exit status. */
int merge_files(const char *const *files, int n, const char *out, bool quiet);

#endif
