/* confwrite.h - put one section into a config file, keeping every other
 * byte, atomically. */
#ifndef RC4_CONFWRITE_H
#define RC4_CONFWRITE_H

/* Replace the section named SECTION in the file PATH by TEXT (the whole
 * section: header line first, '\n' line ends; they become "\r\n" in a file
 * whose first line ends so), or append TEXT when the file has no such
 * section.  Later sections of the same name are removed, with a warning.
 * A regular file is replaced atomically (temporary file in its directory,
 * fsync, rename, fsync of the directory), mode 0644.  "-" or a file that is
 * not a regular one (a device, a pipe) gets TEXT alone, written directly.
 * Returns 0, or -1 after printing the path and the reason on stderr; the
 * old file is then untouched. */
int confwrite(const char *path, const char *section, const char *text);

#endif
