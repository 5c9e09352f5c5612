/* SPDX-License-Identifier: MIT */
/* iniline.h - what inih makes of one line, the one reading the config
 * reader, --check-conf and the merge share: none sees a file otherwise. */
#ifndef RC4_INILINE_H
#define RC4_INILINE_H

#include <stdbool.h>
#include <stddef.h>

enum rc4_ini_kind {
	RC4_INI_BLANK,
	RC4_INI_COMMENT, /* first non-blank ';' or '#' */
	RC4_INI_HEADER,  /* '[' NAME ']' */
	RC4_INI_ENTRY,   /* KEY '=' VALUE or KEY ':' VALUE */
	RC4_INI_BAD,     /* none of these: inih reports the line */
};

struct rc4_ini_line {
	enum rc4_ini_kind kind;
	/* Offset of the first non-blank byte.  INDENTED: blanks (or line
	 * 1's BOM) before it; after a key such a line, whatever it holds,
	 * continues that key's value. */
	size_t start;
	bool indented;
	/* HEADER: the section name as inih keeps it, from after '[' to the
	 * first ']' (blanks included); ENTRY: the key, trimmed. */
	size_t name, name_len;
	/* HEADER: where text after ']' starts that inih ignores and that is
	 * not a comment (';' or '#'), or 0 when there is none. */
	size_t ignored;
	/* ENTRY: '=' or ':', and the value as inih gives it: from after
	 * SEP, without blanks at the ends or an inline comment. */
	char sep;
	size_t value, value_len;
	/* The end of the line's text: without blanks (a CR too) at its end. */
	size_t end;
};

/* Classify the N bytes at P (a line without its '\n'); FIRST: the file's
 * first line, where inih skips a UTF-8 byte order mark. */
void rc4_ini_line(const char *p, size_t n, bool first, struct rc4_ini_line *l);

/* One line of a buffer, as rc4_ini_next walks it. */
struct rc4_ini_text {
	const char *p;  /* its first byte */
	size_t n;       /* its length, without the '\n' */
	size_t at, next; /* its offset in the buffer, and the next line's */
	int num;        /* its number, from 1 */
	struct rc4_ini_line l;
};

/* The line of BUF (LEN bytes) after T's (T zeroed: the first), into T;
 * false past the last.  The one walk over a config's lines. */
bool rc4_ini_next(const char *buf, size_t len, struct rc4_ini_text *t);

#endif
