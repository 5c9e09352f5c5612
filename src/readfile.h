/* SPDX-License-Identifier: MIT */
/* readfile.h - a whole small file into memory: the config's, the CPU
 * files' and the tests' one reader. */
#ifndef RC4_READFILE_H
#define RC4_READFILE_H

#include <stdbool.h>
#include <stddef.h>

/* FD from where it stands to its end, at most MAX bytes: malloc'ed, with a
 * NUL after them, *LEN bytes; *MORE set when FD held more than MAX (the
 * first MAX are kept).  NULL with errno set on a read error or when out
 * of memory. */
char *rc4_read_fd(int fd, size_t max, size_t *len, bool *more);

/* The same of the file PATH, opened read-only without waiting (a FIFO)
 * and without becoming a controlling terminal. */
char *rc4_read_file(const char *path, size_t max, size_t *len, bool *more);

#endif
