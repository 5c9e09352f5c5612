/* SPDX-License-Identifier: MIT */
/* json.h - JSON strings for the tuner's reports (--json, --explain
 * --json): the rest of each object is printed where it is made. */
#ifndef RC4_JSON_H
#define RC4_JSON_H

#include <stdio.h>

/* S as a JSON string: quotes and backslashes escaped, every byte outside
 * printable ASCII as \u00XX (names come from config files, the
 * environment and CPUID: any bytes). */
void json_string(FILE *f, const char *s);

/* S as a JSON string, or null when S is NULL. */
void json_string_or_null(FILE *f, const char *s);

#endif
