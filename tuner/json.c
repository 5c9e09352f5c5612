/* SPDX-License-Identifier: MIT */
/* json.c - JSON strings for the tuner's reports. */
#include <config.h>

#include "json.h"

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void json_string_or_null(FILE *f, const char *s)
{
	if (s)
		json_string(f, s);
	else
		fputs("null", f);
}
