/* confwrite.h - put one section into a config file, keeping every other
 * byte, atomically. */
#ifndef RC4_CONFWRITE_H
#define RC4_CONFWRITE_H

#include <stddef.h>

/* Replace the section named SECTION in the file PATH by TEXT (the whole
 * section: header line first, '\n' line ends; they become "\r\n" in a file
 * whose first line ends so), or append TEXT when the file has no such
 * section.  Later sections of the same name are removed, with a warning.
 * A section header indented right after a removed section loses its
 * indent (after a key line inih would read it as part of that value).
 * A regular file is replaced atomically (temporary file in its directory,
 * fsync, rename, fsync of the directory); it keeps its mode less group and
 * other write (with a warning), and as root its owner; a new file is 0644.
 * A symlink chain is followed to its end, even to a file not there yet:
 * that file is written and the links stay.  "-" or a file that is not a
 * regular one (a device, a pipe) gets TEXT alone, written directly; a FIFO
 * with no reader is an error, not a wait.  A failed fsync of the directory
 * after the rename is a warning: the new file is in place.
 * Returns 0, or -1 after printing the path and the reason on stderr; the
 * old file is then untouched. */
int confwrite(const char *path, const char *section, const char *text);

/* What confwrite writes: OLD (LEN bytes, any bytes) with SECTION replaced
 * by TEXT, or TEXT appended; PATH only names the file in warnings.
 * Returns a malloc'ed buffer of *OUTLEN bytes, or NULL (out of memory).
 * Apart from confwrite, for the fuzzer (tests/fuzz_merge.c). */
char *confwrite_merge(const char *old, size_t len, const char *section,
		      const char *text, const char *path, size_t *outlen);

#endif
