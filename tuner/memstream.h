/* SPDX-License-Identifier: MIT */
/* memstream.h - the end of an open_memstream text. */
#ifndef RC4_MEMSTREAM_H
#define RC4_MEMSTREAM_H

#include <stdio.h>

/* Close F: 0 when every write reached the text.  A write whose buffer
 * could not grow fails alone, with no error flag (callers count failed
 * writes), and later ones may still land, leaving a hole; and glibc's
 * fclose can lose its last realloc yet return 0 (then the caller's text
 * pointer is NULL): both are no text. */
static inline int rc4_memstream_close(FILE *f)
{
	int bad = ferror(f);
	return (fclose(f) != 0 || bad) ? -1 : 0;
}

#endif
