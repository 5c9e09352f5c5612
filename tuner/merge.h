/* merge.h - one section of a config replaced or added, every other byte
 * kept: what --generate-conf writes, apart from the file handling so that
 * the fuzzer can run it (tests/fuzz_merge.c). */
#ifndef RC4_MERGE_H
#define RC4_MERGE_H

#include <stddef.h>

/* OLD (LEN bytes, any bytes) with the section named SECTION replaced by
 * TEXT (the whole section: header line first, '\n' line ends; they become
 * "\r\n" in a file whose first line ends so), or TEXT appended when there
 * is none.  Later sections of the same name are removed, with a warning
 * naming PATH.  A section header indented right after a removed section
 * loses its indent (after a key line inih would read it as part of that
 * value).  Returns a malloc'ed buffer of *OUTLEN bytes, or NULL (out of
 * memory). */
char *confwrite_merge(const char *old, size_t len, const char *section,
		      const char *text, const char *path, size_t *outlen);

/* The first section of OLD (LEN bytes) named SECTION as the merge names
 * it: from its header line up to the next header; *SECLEN bytes.  NULL
 * when there is none. */
const char *merge_find(const char *old, size_t len, const char *section,
		       size_t *seclen);

#endif
