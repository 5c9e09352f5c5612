/* record.c - read, write and seal the record of a section the tuner wrote
 * (record.h; rc4tune.conf(5), THE RECORD). */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "conf.h"
#include "iniline.h"
#include "record.h"

#define SUM_FIELD "sum="
#define SUM_DIGITS 16

/* One line of a section: its bytes without the '\n' and trailing blanks
 * (a CR included), and what inih makes of it. */
struct line {
	const char *p;
	size_t n;
	struct rc4_ini_line l;
};

/* The line at *POS of SEC (LEN bytes), advancing *POS; false at the end. */
static bool next_line(const char *sec, size_t len, size_t *pos,
		      struct line *out)
{
	if (*pos >= len)
		return false;
	const char *p = sec + *pos, *nl = memchr(p, '\n', len - *pos);
	size_t n = nl ? (size_t)(nl - p) : len - *pos;

	bool first = *pos == 0;

	*pos += nl ? n + 1 : n;
	while (n > 0 && isspace((unsigned char)p[n - 1]))
		n--;
	out->p = p;
	out->n = n;
	rc4_ini_line(p, n, first, &out->l);
	return true;
}

/* A record line's text after the prefix, or NULL. */
static const char *record_text(const struct line *ln, size_t *n)
{
	size_t plen = sizeof RECORD_PREFIX - 1;

	if (ln->l.kind != RC4_INI_COMMENT || ln->n - ln->l.start < plen ||
	    memcmp(ln->p + ln->l.start, RECORD_PREFIX, plen) != 0)
		return NULL;
	*n = ln->n - ln->l.start - plen;
	return ln->p + ln->l.start + plen;
}

/* Whether the record text T (N bytes) is of TYPE. */
static bool is_type(const char *t, size_t n, const char *type)
{
	size_t k = strlen(type);
	return n >= k && memcmp(t, type, k) == 0 && (n == k || t[k] == ' ');
}

static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3u;
	return h;
}

/* FNV-1a over what a person could change that matters: every record line
 * but the one that holds the sum, and every line after the header that
 * is neither blank nor a comment, each trimmed.  The report's other
 * comments do not count.  It detects edits; it seals nothing (whoever can
 * edit the file can recompute it). */
static uint64_t checksum(const char *sec, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	size_t pos = 0, n;
	struct line ln;
	const char *t;

	next_line(sec, len, &pos, &ln); /* the header */
	while (next_line(sec, len, &pos, &ln)) {
		if ((t = record_text(&ln, &n)) != NULL) {
			if (is_type(t, n, "rc4tune"))
				continue;
		} else if (ln.l.kind == RC4_INI_BLANK ||
			   ln.l.kind == RC4_INI_COMMENT) {
			continue;
		} else {
			t = ln.p + ln.l.start;
			n = ln.n - ln.l.start;
		}
		h = fnv(fnv(h, t, n), "\n", 1);
	}
	return h;
}

/* The value of field NAME in the record text T (N bytes), into OUT (cut
 * to SIZE); false when the field is not there. */
static bool field(const char *t, size_t n, const char *name, char *out,
		  size_t size)
{
	size_t k = strlen(name);

	for (const char *p = t, *end = t + n; p < end;) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *w = sp ? sp : end;
		if ((size_t)(w - p) > k && memcmp(p, name, k) == 0 &&
		    p[k] == '=') {
			snprintf(out, size, "%.*s", (int)(w - p - k - 1),
				 p + k + 1);
			return true;
		}
		p = w + 1;
	}
	return false;
}

/* The key a result or history line is about, or NULL. */
static struct record_key *key_of(struct record *r, const char *t, size_t n)
{
	char key[RECORD_NAME_MAX];

	if (!field(t, n, "key", key, sizeof key))
		return NULL;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (strcmp(key, rc4k_kinds[k].key) == 0)
			return &r->key[k];
	return NULL;
}

static bool uncertain(const char *t, size_t n)
{
	char c[RECORD_NAME_MAX];
	return field(t, n, "confidence", c, sizeof c) && strcmp(c, "high") != 0;
}

/* "NAME:SCORE,NAME:SCORE..." into RUN. */
static void scores(struct record_run *run, const char *s)
{
	for (run->n = 0; *s != '\0' && run->n < RECORD_LEADERS;) {
		struct record_score *e = &run->lead[run->n];
		size_t len = strcspn(s, ":,");
		char *end;

		snprintf(e->name, sizeof e->name, "%.*s", (int)len, s);
		s += len;
		if (*s == ':') {
			e->score = strtod(s + 1, &end);
			if (end != s + 1 && e->score > 0)
				run->n++;
			s = end;
		}
		s += strcspn(s, ",");
		if (*s == ',')
			s++;
	}
}

static void parse_line(struct record *r, const char *t, size_t n,
		       bool *found, char *sum, size_t sumsize)
{
	struct record_key *k;
	char buf[RC4_CONF_MAX_LINE + 1];

	if (is_type(t, n, "rc4tune")) {
		*found = true;
		field(t, n, "at", r->at, sizeof r->at);
		field(t, n, "by", r->by, sizeof r->by);
		field(t, n, "sum", sum, sumsize);
	} else if (is_type(t, n, "result") && (k = key_of(r, t, n)) != NULL) {
		k->present = field(t, n, "value", k->value, sizeof k->value);
		k->uncertain = uncertain(t, n);
		if (!field(t, n, "why", k->why, sizeof k->why))
			snprintf(k->why, sizeof k->why, "-");
	} else if (is_type(t, n, "history") && (k = key_of(r, t, n)) != NULL &&
		   k->nruns < RECORD_RUNS &&
		   field(t, n, "scores", buf, sizeof buf)) {
		struct record_run *run = &k->run[k->nruns];
		field(t, n, "at", run->at, sizeof run->at);
		run->uncertain = uncertain(t, n);
		scores(run, buf);
		k->nruns += run->n > 0;
	}
}

void record_parse(const char *sec, size_t len, struct record *r)
{
	char sum[SUM_DIGITS + 2] = "", want[SUM_DIGITS + 1];
	bool found = false;
	size_t pos = 0, n;
	struct line ln;
	const char *t;

	memset(r, 0, sizeof *r);
	next_line(sec, len, &pos, &ln); /* the header */
	while (next_line(sec, len, &pos, &ln))
		if ((t = record_text(&ln, &n)) != NULL)
			parse_line(r, t, n, &found, sum, sizeof sum);
	snprintf(want, sizeof want, "%016" PRIx64, checksum(sec, len));
	r->owner = !found		     ? RECORD_HAND
		   : strcmp(sum, want) == 0 ? RECORD_TUNER
					    : RECORD_EDITED;
}

void record_walk(const char *buf, size_t len,
		 void (*fn)(void *arg, int line, const char *name,
			    const struct record *r),
		 void *arg)
{
	const char *sec = NULL;
	char name[RC4_CONF_MAX_SECTION + 1] = "";
	int line = 0, sec_line = 0;
	struct record r;

	for (size_t pos = 0, start; pos <= len; line++) {
		struct line ln;
		start = pos;
		bool more = next_line(buf, len, &pos, &ln);
		if (more && ln.l.kind != RC4_INI_HEADER)
			continue;
		if (sec != NULL) {
			record_parse(sec, (size_t)(buf + start - sec), &r);
			fn(arg, sec_line, name, &r);
		}
		if (!more)
			break;
		sec = buf + start;
		sec_line = line + 1;
		/* blanks as the merge counts them: runs as one, none at
		 * the ends */
		size_t k = 0;
		for (size_t i = 0; i < ln.l.name_len && k < RC4_CONF_MAX_SECTION;
		     i++) {
			char ch = ln.p[ln.l.name + i];
			if (!isspace((unsigned char)ch))
				name[k++] = ch;
			else if (k > 0 && name[k - 1] != ' ')
				name[k++] = ' ';
		}
		k -= k > 0 && name[k - 1] == ' ';
		name[k] = '\0';
	}
}

void record_now(char at[RECORD_TIME_MAX])
{
	time_t t = time(NULL);
	struct tm tm;

	strftime(at, RECORD_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
}

void record_write(FILE *f, const struct record *r, const char *at)
{
	fprintf(f, RECORD_PREFIX "rc4tune v=%d at=%s by=%s " SUM_FIELD "%0*d\n",
		RECORD_VERSION, at, PACKAGE_VERSION, SUM_DIGITS, 0);
	for (int k = 0; k < RC4K_KINDS; k++)
		if (r->key[k].present)
			fprintf(f, RECORD_PREFIX "result key=%s value=%s "
				   "confidence=%s why=%s\n",
				rc4k_kinds[k].key, r->key[k].value,
				r->key[k].uncertain ? "uncertain" : "high",
				r->key[k].why);
	for (int k = 0; k < RC4K_KINDS; k++)
		for (int i = 0; i < r->key[k].nruns; i++) {
			const struct record_run *run = &r->key[k].run[i];
			fprintf(f, RECORD_PREFIX "history key=%s at=%s "
				   "confidence=%s scores=",
				rc4k_kinds[k].key, run->at,
				run->uncertain ? "uncertain" : "high");
			for (int j = 0; j < run->n; j++)
				fprintf(f, "%s%s:%.3f", j ? "," : "",
					run->lead[j].name, run->lead[j].score);
			fputc('\n', f);
		}
}

void record_seal(char *sec, size_t len)
{
	char sum[SUM_DIGITS + 1];
	size_t pos = 0, n;
	struct line ln;
	const char *t;

	snprintf(sum, sizeof sum, "%016" PRIx64, checksum(sec, len));
	while (next_line(sec, len, &pos, &ln))
		if ((t = record_text(&ln, &n)) != NULL && is_type(t, n, "rc4tune")) {
			char *at = memmem(sec + (t - sec), n, " " SUM_FIELD,
					  sizeof SUM_FIELD);
			if (at != NULL && (size_t)(t + n - at) >=
						  sizeof SUM_FIELD + SUM_DIGITS)
				memcpy(at + sizeof SUM_FIELD, sum, SUM_DIGITS);
			return;
		}
}

const char *record_owner_name(enum record_owner o)
{
	return o == RECORD_TUNER ? "the tuner's"
	       : o == RECORD_HAND ? "a person's: no rc4tune record"
				  : "a person's: edited since rc4tune wrote "
				    "it (its checksum differs)";
}
