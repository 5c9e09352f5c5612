/* SPDX-License-Identifier: MIT */
/* section.h - the tuner's side of rc4tune.conf's sections: found in a
 * file's bytes, read into their keys and record (record.h), and put back.
 * The library only names sections (sectionname.h): none of this is
 * linked into it. */
#ifndef RC4_SECTION_H
#define RC4_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include "confkeys.h"
#include "record.h"
#include "sectionname.h"

/* One section of a file: from its header line up to the next header. */
struct rc4_section {
	const char *text; /* in the file's bytes */
	size_t len;
	int line;         /* its header's line, from 1 */
	char name[RC4_CONF_MAX_SECTION + 1]; /* rc4_section_key's */
	/* The last line of each key (rc4_keys) in it, and its value as inih
	 * reads it; "" and 0 when there is none. */
	struct rc4_conf_value key[RC4_KEYS];
	struct rc4_record record;
};

/* Read the section whose LEN bytes at TEXT start with its header line (as
 * rc4_section_walk gives them), LINE the header's line in its file. */
void rc4_section_parse(const char *text, size_t len, int line,
		       struct rc4_section *s);

/* Call FN with each section of the file BUF (LEN bytes), in order. */
typedef void rc4_section_fn(void *arg, const struct rc4_section *s);
void rc4_section_walk(const char *buf, size_t len, rc4_section_fn *fn,
		      void *arg);

/* Sections kept from files' bytes, in order, in an array that doubles:
 * S[0..N).  Their text points into the bytes they came from. */
struct rc4_sections {
	struct rc4_section *s;
	size_t n, cap;
	bool failed; /* out of memory: some were not kept */
};

/* Keep in SS each section of the file BUF (LEN bytes) that KEEP says to
 * keep.  Returns 0, or -1 when out of memory (SS->failed). */
typedef bool rc4_section_keep_fn(void *arg, const struct rc4_section *s);
int rc4_sections_collect(struct rc4_sections *ss, const char *buf,
			 size_t len, rc4_section_keep_fn *keep, void *arg);

void rc4_sections_free(struct rc4_sections *ss);

/* ITEMS, an array of *CAP items of SIZE bytes whose first N are in use,
 * with room for one more: itself, or realloc'ed to twice the room (FIRST
 * items at first); NULL when out of memory (ITEMS is then kept). */
void *rc4_grow(void *items, size_t *cap, size_t n, size_t size,
	       size_t first);

/* The sections of BUF (LEN bytes) named NAME: how many there are; FIRST
 * gets the first, THEIRS the first that is not the tuner's (theirs->line
 * 0 when none is): a later duplicate speaks too, since the library reads
 * its keys last. */
int rc4_section_find(const char *buf, size_t len, const char *name,
		     struct rc4_section *first, struct rc4_section *theirs);

/* OLD (LEN bytes, any bytes) with the section named NAME replaced by TEXT
 * (a whole section with '\n' line ends, kept so in a "\r\n" file: the
 * library reads either), or TEXT appended when there is none.  Later
 * sections of that name are removed, with a warning on stderr naming
 * PATH; a header indented right after one loses its indent (inih would
 * read it as part of the key line before).  Returns a malloc'ed buffer of
 * *OUTLEN bytes, or NULL (out of memory). */
char *rc4_section_replace(const char *old, size_t len, const char *name,
			  const char *text, const char *path, size_t *outlen);

/* One section for rc4_sections_put: its name (rc4_section_key's) and its
 * whole text, as rc4_section_replace's NAME and TEXT. */
struct rc4_section_put {
	const char *name;
	const char *text;
};

/* What rc4_section_replace does, for the N sections PUT (names distinct)
 * in one walk over OLD: each text in place of the first section of its
 * name, later ones of the name removed, the texts of names OLD does not
 * have appended in PUT's order.  Time O(LEN + N log N), not N walks. */
char *rc4_sections_put(const char *old, size_t len,
		       const struct rc4_section_put *put, size_t n,
		       const char *path, size_t *outlen);

#endif
