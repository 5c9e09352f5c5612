/* merge.c - one section of a config replaced or added, every other byte
 * kept.
 *
 * Lines are read as inih reads them (iniline.h).  A section spans from
 * its header to its last line that is neither blank nor a comment: the
 * comments after it usually describe the next section, so they stay. */
#include <config.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iniline.h"
#include "merge.h"

/* Whether the N-byte section name at P names SECTION.  Runs of blanks
 * count as one and blanks at the ends do not count, on both sides:
 * "[ cpu X  6 15 ]" was meant for the same CPU, and leaving it would make
 * a duplicate; and a vendor string may hold blanks ("  Shanghai  "). */
static bool names_section(const char *p, size_t n, const char *section)
{
	const char *end = p + n, *s = section;

	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		while (isspace((unsigned char)*s))
			s++;
		if (p == end || *s == '\0')
			return p == end && *s == '\0';
		while (p < end && !isspace((unsigned char)*p) && *s != '\0' &&
		       !isspace((unsigned char)*s))
			if (*p++ != *s++)
				return false;
		/* A word of one side went on where the other's ended. */
		if ((p < end && !isspace((unsigned char)*p)) ||
		    (*s != '\0' && !isspace((unsigned char)*s)))
			return false;
	}
}

/* TEXT with each '\n' written as EOL. */
static void put_text(FILE *f, const char *text, const char *eol)
{
	for (; *text; text++)
		if (*text == '\n')
			fputs(eol, f);
		else
			fputc(*text, f);
}

const char *merge_find(const char *old, size_t len, const char *section,
		       size_t *seclen)
{
	const char *start = NULL;

	for (size_t pos = 0, end; pos < len; pos = end) {
		const char *nl = memchr(old + pos, '\n', len - pos);
		struct rc4_ini_line l;

		end = nl ? (size_t)(nl - old) + 1 : len;
		rc4_ini_line(old + pos, (nl ? end - 1 : end) - pos, pos == 0, &l);
		if (l.kind != RC4_INI_HEADER)
			continue;
		if (start != NULL) {
			*seclen = (size_t)(old + pos - start);
			return start;
		}
		if (names_section(old + pos + l.name, l.name_len, section))
			start = old + pos;
	}
	if (start != NULL)
		*seclen = (size_t)(old + len - start);
	return start;
}

char *confwrite_merge(const char *old, size_t len, const char *section,
		      const char *text, const char *path, size_t *outlen)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, outlen);
	const char *nl = memchr(old, '\n', len);
	const char *eol = nl && nl > old && nl[-1] == '\r' ? "\r\n" : "\n";
	size_t copied = 0;   /* old[0..copied) is dealt with */
	size_t span_end = 0; /* end of the live section's last content line */
	bool in_live = false, last_blank = true;
	unsigned found = 0, lineno = 0;

	if (f == NULL)
		return NULL;
	for (size_t pos = 0, end; pos < len; pos = end) {
		struct rc4_ini_line l;

		nl = memchr(old + pos, '\n', len - pos);
		end = nl ? (size_t)(nl - old) + 1 : len;
		lineno++;
		rc4_ini_line(old + pos, (nl ? end - 1 : end) - pos, pos == 0, &l);
		last_blank = l.kind == RC4_INI_BLANK;
		if ((l.kind == RC4_INI_ENTRY || l.kind == RC4_INI_BAD) && in_live)
			span_end = end;
		if (l.kind != RC4_INI_HEADER)
			continue;
		bool named = names_section(old + pos + l.name, l.name_len,
					   section);
		if (in_live) {
			copied = span_end; /* drop the section, keep the rest */
			in_live = false;
			/* An indented header now follows a key line (ours, or
			 * one before a dropped duplicate): inih would append
			 * it to that key's value.  It loses its indent. */
			if (!named && l.indented) {
				fwrite(old + copied, 1, pos - copied, f);
				copied = pos + l.start;
			}
		}
		if (!named)
			continue;
		/* A UTF-8 BOM before the first line (inih skips it) stays
		 * in front of whatever replaces that line. */
		size_t bom = pos == 0 && len >= 3 &&
					     memcmp(old, "\xef\xbb\xbf", 3) == 0
				     ? 3
				     : 0;
		fwrite(old + copied, 1, pos + bom - copied, f);
		if (found++ == 0)
			put_text(f, text, eol);
		else
			fprintf(stderr, "rc4tune: %s: removed another [%s] "
					"section at line %u (the library would "
					"read its kernel last)\n",
				path, section, lineno);
		copied = pos;
		span_end = end;
		in_live = true;
	}
	if (in_live)
		copied = span_end;
	fwrite(old + copied, 1, len - copied, f);
	if (!found) {
		if (len > 0 && old[len - 1] != '\n')
			fprintf(f, "%s%s", eol, eol);
		else if (!last_blank)
			fputs(eol, f);
		put_text(f, text, eol);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}
