/* SPDX-License-Identifier: MIT */
/* iniline.c - one line as inih (Debian's build: multi-line values, a BOM
 * skipped, inline comments after a blank) reads it. */
#include <config.h>

#include <ctype.h>
#include <string.h>
#include "iniline.h"

static bool blank(char c)
{
	return isspace((unsigned char)c);
}

/* From I, the first byte in STOP or of an inline comment (';' after a
 * blank), or N: inih's find_chars_or_comment. */
static size_t scan(const char *p, size_t i, size_t n, const char *stop)
{
	bool was_blank = false;

	for (; i < n; i++) {
		if (strchr(stop, p[i]) != NULL || (was_blank && p[i] == ';'))
			break;
		was_blank = blank(p[i]);
	}
	return i;
}

void rc4_ini_line(const char *p, size_t n, bool first, struct rc4_ini_line *l)
{
	size_t i = 0;

	memset(l, 0, sizeof *l);
	if (first && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		i = 3;
	while (n > i && blank(p[n - 1]))
		n--;
	l->end = n;
	while (i < n && blank(p[i]))
		i++;
	l->start = i;
	l->indented = i > 0;
	if (i == n) {
		l->kind = RC4_INI_BLANK;
	} else if (p[i] == ';' || p[i] == '#') {
		l->kind = RC4_INI_COMMENT;
	} else if (p[i] == '[') {
		size_t end = scan(p, i + 1, n, "]");
		if (end == n || p[end] != ']') {
			l->kind = RC4_INI_BAD;
			return;
		}
		l->kind = RC4_INI_HEADER;
		l->name = i + 1;
		l->name_len = end - i - 1;
		size_t rest = end + 1;
		while (rest < n && blank(p[rest]))
			rest++;
		if (rest < n && p[rest] != ';' && p[rest] != '#')
			l->ignored = rest;
	} else {
		size_t end = scan(p, i, n, "=:");
		if (end == n || (p[end] != '=' && p[end] != ':')) {
			l->kind = RC4_INI_BAD;
			return;
		}
		l->kind = RC4_INI_ENTRY;
		l->sep = p[end];
		size_t v = scan(p, end + 1, n, "");
		l->value = end + 1;
		while (l->value < v && blank(p[l->value]))
			l->value++;
		while (v > l->value && blank(p[v - 1]))
			v--;
		l->value_len = v - l->value;
		l->name = i;
		while (end > i && blank(p[end - 1]))
			end--;
		l->name_len = end - i;
	}
}

bool rc4_ini_next(const char *buf, size_t len, struct rc4_ini_text *t)
{
	if (t->next >= len)
		return false;
	const char *nl = memchr(buf + t->next, '\n', len - t->next);

	t->at = t->next;
	t->p = buf + t->at;
	t->n = nl ? (size_t)(nl - t->p) : len - t->at;
	t->next = t->at + t->n + (nl != NULL);
	t->num++;
	rc4_ini_line(t->p, t->n, t->at == 0, &t->l);
	return true;
}
