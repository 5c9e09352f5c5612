/* SPDX-License-Identifier: MIT */
/* merge.h - rc4tune --merge: one config from many hosts' files, each
 * CPU's section chosen as rc4tune(1) says, written as --generate-conf
 * writes (tuner/confwrite.h). */
#ifndef RC4_MERGE_H
#define RC4_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The file at PATH, as read for a merge: its LEN bytes. */
struct merge_input {
	const char *path;
	char *buf;
	size_t len;
};

/* The merge of OUT's bytes (OLD, LEN bytes; LEN 0: no file yet) and the
 * N files IN, as rc4tune(1) says: for each CPU's [cpu ...] section a
 * person's, then a confident one, then the newer record, then the first
 * (OUT's first, then IN's in order); [pin] and [default] from OUT if it
 * has them, else from the first file that has them; every section of
 * the name in the file chosen, which the library reads as one; OUT's
 * other lines kept.  Memory grows linearly with the bytes merged.  Warnings (files that disagree on [pin] or [default], a person's
 * section left out, sections that are not merged) go to stderr naming
 * OUTPATH and each file; what each CPU's section came from to NOTES (may
 * be NULL).  Returns the new file, malloc'ed, *OUTLEN bytes, or NULL when
 * out of memory. */
char *merge_sections(const char *old, size_t len, const char *outpath,
		     const struct merge_input *in, int n, FILE *notes,
		     size_t *outlen);

/* rc4tune --merge FILES... --output OUT (N files; OUT standard output
 * by confwrite_is_stdout):
 * the inputs read and checked as the library reads them, the result
 * checked, locked and written as --generate-conf writes.  QUIET: no
 * notes.  Returns the exit status. */
int merge_files(const char *const *files, int n, const char *out, bool quiet);

#endif
