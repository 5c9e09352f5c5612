/* SPDX-License-Identifier: MIT */
/* record.c - the record of a section the tuner wrote: read, checked,
 * written and sealed (record.h; rc4tune.conf(5), THE RECORD). */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iniline.h"
#include "conf.h" /* RC4_CONF_MAX_LINE, the split's keys */
#include "record.h"
#include "memstream.h"

#define SUM_FIELD "sum="
#define SUM_DIGITS 16

/* A record line's text after the prefix, or NULL. */
static const char *record_text(const struct rc4_ini_text *t, size_t *n)
{
	size_t plen = sizeof RC4_RECORD_PREFIX - 1;
	const char *p = t->p + t->l.start;

	if (t->l.kind != RC4_INI_COMMENT || t->l.end - t->l.start < plen ||
	    memcmp(p, RC4_RECORD_PREFIX, plen) != 0)
		return NULL;
	*n = t->l.end - t->l.start - plen;
	return p + plen;
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

/* The next line of BUF (LEN bytes) after T that the record's grammar
 * covers: a record line or a key line (not blank, not a plain comment). */
static bool next_covered(const char *buf, size_t len, struct rc4_ini_text *t)
{
	size_t n;

	while (rc4_ini_next(buf, len, t))
		if (record_text(t, &n) != NULL ||
		    (t->l.kind != RC4_INI_BLANK &&
		     t->l.kind != RC4_INI_COMMENT))
			return true;
	return false;
}

/* FNV-1a over the lines a person could change that matter, as
 * rc4tune.conf(5) says: it detects edits; it seals nothing. */
static uint64_t checksum(const char *sec, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u;
	struct rc4_ini_text ln = { 0 };
	const char *t;
	size_t n;

	rc4_ini_next(sec, len, &ln); /* the header */
	while (next_covered(sec, len, &ln)) {
		if ((t = record_text(&ln, &n)) == NULL) {
			t = ln.p + ln.l.start;
			n = ln.l.end - ln.l.start;
		} else if (is_type(t, n, "rc4tune")) {
			continue;
		}
		h = fnv(fnv(h, t, n), "\n", 1);
	}
	return h;
}

/* The value of field NAME in the record text T (N bytes), into OUT (SIZE
 * bytes); false when the field is not there, or *CUT when it does not
 * fit. */
static bool field(const char *t, size_t n, const char *name, char *out,
		  size_t size, bool *cut)
{
	size_t k = strlen(name);

	for (const char *p = t, *end = t + n; p < end;) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *w = sp ? sp : end;
		if ((size_t)(w - p) > k && memcmp(p, name, k) == 0 &&
		    p[k] == '=') {
			size_t v = (size_t)(w - p) - k - 1;
			*cut |= v >= size;
			snprintf(out, size, "%.*s", (int)v, p + k + 1);
			return true;
		}
		p = w + 1;
	}
	return false;
}

/* What a record's parse has found. */
struct reading {
	struct rc4_record *r;
	bool found, bad; /* a header line; a value rc4tune never writes */
	bool shared;     /* a line of an earlier version's shared key */
	char sum[SUM_DIGITS + 2];
};

/* The kind a result or history line is about, from FROM on (a shared
 * key, batch_kernel in records of earlier versions, is about each batch
 * call), or RC4K_KINDS. */
static int kind_of_line(struct reading *g, const char *t, size_t n, int from)
{
	char key[RC4_RECORD_NAME_MAX];

	if (!field(t, n, "key", key, sizeof key, &g->bad))
		return RC4K_KINDS;
	enum rc4_key r = rc4_key_named(key);
	int k = rc4_key_next_kind(r, from);
	g->shared |= k < RC4K_KINDS && rc4_keys[r].role == RC4_ROLE_STAND_IN;
	return k;
}

/* Whether the line T (N bytes) says uncertain: its confidence field is
 * "high" or "uncertain", as the tuner writes it, or the record is not the
 * tuner's. */
static bool uncertain(struct reading *g, const char *t, size_t n)
{
	char c[RC4_RECORD_NAME_MAX];
	bool got = field(t, n, "confidence", c, sizeof c, &g->bad);

	g->bad |= !got || (strcmp(c, "high") != 0 &&
			   strcmp(c, "uncertain") != 0);
	return got && strcmp(c, "uncertain") == 0;
}

/* Whether AT is a real UTC time as rc4_record_now writes it. */
static bool time_ok(const char *at)
{
	struct tm tm = { 0 };
	char back[RC4_RECORD_TIME_MAX];
	const char *end = strptime(at, "%Y-%m-%dT%H:%M:%SZ", &tm);
	time_t t;

	if (end == NULL || *end != '\0' || strlen(at) != 20)
		return false;
	t = timegm(&tm);
	return gmtime_r(&t, &tm) != NULL &&
	       strftime(back, sizeof back, "%Y-%m-%dT%H:%M:%SZ", &tm) == 20 &&
	       strcmp(back, at) == 0;
}

/* The field "at" of T (N bytes) into AT, a real time or the record is
 * not the tuner's. */
static void time_field(struct reading *g, const char *t, size_t n, char *at)
{
	g->bad |= !field(t, n, "at", at, RC4_RECORD_TIME_MAX, &g->bad) ||
		  !time_ok(at);
}

/* Whether WHY is the reason code the tuner writes with that confidence:
 * "-" when confident, else one of the codes of rc4tune.conf(5). */
static bool why_ok(const char *why, bool uncertain)
{
	static const char *const codes[] = { "rounds", "busy", "noise",
					     "phases" };

	if (!uncertain)
		return strcmp(why, "-") == 0;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strcmp(why, codes[i]) == 0)
			return true;
	return false;
}

/* Whether S starts with a score as the writer writes it: "D.DDD". */
static bool score_ok(const char *s)
{
	return s[0] >= '0' && s[0] <= '1' && s[1] == '.' &&
	       strspn(s + 2, "0123456789") == 3;
}

/* Whether S is a name as the writer writes them: a kernel's, lowercase
 * letters, digits and '-', from a letter or a digit. */
static bool name_ok(const char *s)
{
	return s[0] != '\0' && s[0] != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s);
}

/* Whether S is a version as the writer writes PACKAGE_VERSION: from a
 * digit, then digits, letters and ".+~-". */
static bool version_ok(const char *s)
{
	return s[0] >= '0' && s[0] <= '9' &&
	       strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-") == strlen(s);
}

/* "NAME:SCORE,NAME:SCORE..." into RUN: each score as the tuner writes
 * them, finite and in (0, 1], or the record is not the tuner's. */
static void scores(struct reading *g, struct rc4_record_run *run,
		   const char *s)
{
	for (run->n = 0; *s != '\0' && run->n < RC4_RECORD_LEADERS;) {
		struct rc4_record_score *e = &run->lead[run->n];
		size_t len = strcspn(s, ":,");
		char *end;

		g->bad |= len >= sizeof e->name || s[len] != ':';
		snprintf(e->name, sizeof e->name, "%.*s", (int)len, s);
		g->bad |= !name_ok(e->name);
		s += len;
		if (*s == ':') {
			e->score = strtod(s + 1, &end);
			g->bad |= !score_ok(s + 1) || end != s + 6 ||
				  (*end != ',' && *end) ||
				  !isfinite(e->score) || e->score <= 0 ||
				  e->score > 1;
			run->n += !g->bad;
			s = end;
		}
		s += strcspn(s, ",");
		if (*s == ',')
			s++;
	}
}

/* Whether S starts with a number as the writer writes a ratio: digits, a
 * point and three digits, below 1000; *END after it. */
static bool decimal_ok(const char *s, double *v, char **end)
{
	size_t d = strspn(s, "0123456789");

	*v = strtod(s, end);
	return d >= 1 && d <= 3 && s[d] == '.' &&
	       strspn(s + d + 1, "0123456789") == 3 && *end == s + d + 4;
}

/* A split's ratio: a decimal above 0. */
static bool ratio_ok(const char *s, double *v, char **end)
{
	return decimal_ok(s, v, end) && *v > 0;
}

/* Whether S is a count as the writer writes one, into *N: digits, no
 * leading zero, below a million. */
static bool count_ok(const char *s, int *n)
{
	size_t d = strspn(s, "0123456789");

	*n = atoi(s);
	return d >= 1 && d <= 6 && s[d] == '\0' && (s[0] != '0' || d == 1);
}

/* Whether S is a number of bytes as the writer writes one: short_below's
 * (rc4_conf_bytes), with no leading zero, into *N. */
static bool bytes_ok(const char *s, unsigned long *n)
{
	size_t b = 0;
	bool ok = s[0] != '0' && rc4_conf_bytes(s, &b) == 0;

	*n = b;
	return ok;
}

/* "BYTES:RATIO,BYTES:RATIO..." into SP, in increasing BYTES below its
 * threshold, or the record is not the tuner's. */
static void split_cells(struct reading *g, struct rc4_record_split *sp,
			const char *s)
{
	char num[16];
	char *end;

	for (sp->n = 0; *s != '\0' && !g->bad; s = end + (*end == ',')) {
		size_t len = strcspn(s, ":");
		struct rc4_record_cell *e = &sp->cell[sp->n];
		g->bad |= sp->n == RC4_RECORD_SPLIT_CELLS || len >= sizeof num ||
			  s[len] != ':';
		if (g->bad)
			return;
		snprintf(num, sizeof num, "%.*s", (int)len, s);
		g->bad |= !bytes_ok(num, &e->bytes) ||
			  !ratio_ok(s + len + 1, &e->ratio, &end) ||
			  (*end != ',' && *end != '\0') || e->bytes >= sp->below ||
			  (sp->n > 0 && e->bytes <= sp->cell[sp->n - 1].bytes);
		sp->n++;
	}
	g->bad |= sp->n == 0;
}

/* The split line T (N bytes) into SP. */
static void split_line(struct reading *g, struct rc4_record_split *sp,
		       const char *t, size_t n)
{
	char buf[RC4_CONF_MAX_LINE + 1], *end;

	g->bad |= sp->present; /* one split line a record */
	sp->present = true;
	g->bad |= !field(t, n, "short", sp->value, sizeof sp->value, &g->bad) ||
		  !name_ok(sp->value) ||
		  !field(t, n, "below", buf, sizeof buf, &g->bad) ||
		  !bytes_ok(buf, &sp->below) ||
		  !field(t, n, "gain", buf, sizeof buf, &g->bad) ||
		  !ratio_ok(buf, &sp->gain, &end) || *end != '\0' ||
		  !field(t, n, "ratios", buf, sizeof buf, &g->bad);
	if (!g->bad)
		split_cells(g, sp, buf);
}

/* The basis line T (N bytes) into B: a decimal, or "-" for none, as the
 * lower bound; a window in (0, 1); at least one finalist. */
static void basis_line(struct reading *g, struct rc4_record_basis *b,
		       const char *t, size_t n)
{
	char lower[16], buf[16], *end;

	g->bad |= b->present; /* one basis line a key */
	b->present = true;
	b->lower = -1;
	g->bad |= !field(t, n, "lower", lower, sizeof lower, &g->bad) ||
		  (strcmp(lower, "-") != 0 &&
		   (!decimal_ok(lower, &b->lower, &end) || *end != '\0')) ||
		  !field(t, n, "window", buf, sizeof buf, &g->bad) ||
		  !ratio_ok(buf, &b->window, &end) || *end != '\0' ||
		  b->window >= 1 ||
		  !field(t, n, "finalists", buf, sizeof buf, &g->bad) ||
		  !count_ok(buf, &b->finalists) || b->finalists < 1 ||
		  !field(t, n, "rounds", buf, sizeof buf, &g->bad) ||
		  !count_ok(buf, &b->rounds);
}

/* A result, basis or history line T into K. */
static void key_line(struct reading *g, struct rc4_record_key *k,
		     const char *t, size_t n)
{
	char buf[RC4_CONF_MAX_LINE + 1];

	if (is_type(t, n, "result")) {
		k->present = field(t, n, "value", k->value, sizeof k->value,
				   &g->bad);
		k->uncertain = uncertain(g, t, n);
		g->bad |= !field(t, n, "why", k->why, sizeof k->why, &g->bad) ||
			  !why_ok(k->why, k->uncertain) || !k->present ||
			  !name_ok(k->value);
	} else if (is_type(t, n, "basis")) {
		basis_line(g, &k->basis, t, n);
	} else if (is_type(t, n, "history") && k->nruns < RC4_RECORD_RUNS &&
		   field(t, n, "scores", buf, sizeof buf, &g->bad)) {
		struct rc4_record_run *run = &k->run[k->nruns];
		time_field(g, t, n, run->at);
		run->uncertain = uncertain(g, t, n);
		scores(g, run, buf);
		k->nruns += run->n > 0;
	}
}

static void parse_line(struct reading *g, const char *t, size_t n)
{
	struct rc4_record *r = g->r;

	if (is_type(t, n, "rc4tune")) {
		g->found = true;
		time_field(g, t, n, r->at);
		g->bad |= !field(t, n, "by", r->by, sizeof r->by, &g->bad) ||
			  !version_ok(r->by);
		field(t, n, "sum", g->sum, sizeof g->sum, &g->bad);
		return;
	}
	if (is_type(t, n, "split")) {
		split_line(g, &r->split, t, n);
		return;
	}
	if (!is_type(t, n, "result") && !is_type(t, n, "basis") &&
	    !is_type(t, n, "history"))
		return;
	for (int k = kind_of_line(g, t, n, 0); k < RC4K_KINDS;
	     k = kind_of_line(g, t, n, k + 1))
		key_line(g, &r->key[k], t, n);
}

void rc4_record_now(char at[RC4_RECORD_TIME_MAX])
{
	time_t t = time(NULL);
	struct tm tm;

	strftime(at, RC4_RECORD_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&t, &tm));
}

/* RUN's history line for KEY, with as many of its leaders as fit the
 * reader's line limit: 0, or -1 when the write failed. */
static int history_line(FILE *f, const char *key,
			 const struct rc4_record_run *run)
{
	char line[RC4_CONF_MAX_LINE + 1];
	int len = snprintf(line, sizeof line, RC4_RECORD_PREFIX "history "
			   "key=%s at=%s confidence=%s scores=", key, run->at,
			   run->uncertain ? "uncertain" : "high");

	for (int j = 0; j < run->n && len >= 0 && len < (int)sizeof line; j++) {
		/* a score the reader takes back: 0.001 to 1.000 */
		double score = run->lead[j].score < 0.001 ? 0.001
			       : run->lead[j].score > 1.0 ? 1.0
							  : run->lead[j].score;
		int more = snprintf(line + len, sizeof line - (size_t)len,
				    "%s%s:%.3f", j ? "," : "",
				    run->lead[j].name, score);
		if (more < 0 || len + more >= (int)sizeof line) {
			line[len] = '\0';
			break;
		}
		len += more;
	}
	return fprintf(f, "%s\n", line) < 0 ? -1 : 0;
}

/* The key that kind K's lines are written under: its own; or, SHARED (as
 * an earlier version wrote them), the key it shares, for the first kind
 * that shares it, and NULL (not written) for the others. */
static const char *key_of(int k, bool shared)
{
	enum rc4_key also = rc4_key_stand_in((enum rc4k_kind)k);

	if (!shared || also == RC4_KEY_NONE)
		return rc4_keys[k].name;
	return rc4_key_next_kind(also, 0) == k ? rc4_keys[also].name : NULL;
}

/* SP's split line: 0, or -1 when the write failed. */
static int split_write(FILE *f, const struct rc4_record_split *sp)
{
	int bad = fprintf(f, RC4_RECORD_PREFIX "split short=%s below=%lu "
			  "gain=%.3f ratios=",
			  sp->value, sp->below, sp->gain) < 0;

	for (int i = 0; i < sp->n; i++)
		bad |= fprintf(f, "%s%lu:%.3f", i ? "," : "", sp->cell[i].bytes,
			       sp->cell[i].ratio) < 0;
	return (bad | (fputc('\n', f) == EOF)) ? -1 : 0;
}

/* B's basis line for KEY: below 0 when the write failed. */
static int basis_write(FILE *f, const char *key,
		       const struct rc4_record_basis *b)
{
	char lower[16] = "-";

	if (b->lower >= 0)
		snprintf(lower, sizeof lower, "%.3f", fmin(b->lower, 999.999));
	return fprintf(f, RC4_RECORD_PREFIX "basis key=%s lower=%s window=%.3f "
		       "finalists=%d rounds=%d\n",
		       key, lower, b->window, b->finalists, b->rounds);
}

/* R's record lines, written AT, with a checksum of zeros, each kind's
 * under key_of(SHARED): 0, or -1 when a write failed.  The basis lines
 * after the results, then the split line. */
static int record_write(FILE *f, const struct rc4_record *r, bool shared)
{
	/* the format: 3 with a basis line, else 2 with a split, else 1 */
	int v = r->split.present ? RC4_RECORD_VERSION_SPLIT : RC4_RECORD_VERSION;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (r->key[k].present && r->key[k].basis.present)
			v = RC4_RECORD_VERSION_BASIS;
	int bad = fprintf(f, RC4_RECORD_PREFIX "rc4tune v=%d at=%s by=%s " SUM_FIELD
		   "%0*d\n",
		v, r->at, r->by[0] ? r->by : PACKAGE_VERSION,
		SUM_DIGITS, 0) < 0;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (r->key[k].present && key_of(k, shared) != NULL)
			bad |= fprintf(f, RC4_RECORD_PREFIX "result key=%s value=%s "
				   "confidence=%s why=%s\n",
				key_of(k, shared), r->key[k].value,
				r->key[k].uncertain ? "uncertain" : "high",
				r->key[k].why) < 0;
	for (int k = 0; k < RC4K_KINDS; k++)
		if (r->key[k].present && r->key[k].basis.present &&
		    key_of(k, shared) != NULL)
			bad |= basis_write(f, key_of(k, shared),
					   &r->key[k].basis) < 0;
	if (r->split.present)
		bad |= split_write(f, &r->split) < 0;
	for (int k = 0; k < RC4K_KINDS; k++)
		for (int i = 0; i < r->key[k].nruns; i++)
			/* a run without leaders: nothing to read */
			if (r->key[k].run[i].n > 0 && key_of(k, shared) != NULL)
				bad |= history_line(f, key_of(k, shared),
						    &r->key[k].run[i]) < 0;
	return bad ? -1 : 0;
}

void rc4_section_seal(char *sec, size_t len)
{
	char sum[SUM_DIGITS + 1];
	struct rc4_ini_text ln = { 0 };
	const char *t;
	size_t n;

	snprintf(sum, sizeof sum, "%016" PRIx64, checksum(sec, len));
	while (rc4_ini_next(sec, len, &ln))
		if ((t = record_text(&ln, &n)) != NULL &&
		    is_type(t, n, "rc4tune")) {
			char *at = memmem(sec + (t - sec), n, " " SUM_FIELD,
					  sizeof SUM_FIELD);
			if (at != NULL && (size_t)(t + n - at) >=
						  sizeof SUM_FIELD + SUM_DIGITS)
				memcpy(at + sizeof SUM_FIELD, sum, SUM_DIGITS);
			return;
		}
}

/* rc4_section_build, each kind's lines under key_of(SHARED). */
static char *build(const char *name, const struct rc4_record *r,
		   const char *comment, size_t *len, bool shared)
{
	char *text = NULL;
	size_t n;
	FILE *f = open_memstream(&text, &n);

	if (f == NULL)
		return NULL;
	int bad = fprintf(f, "[%s]\n", name) < 0;
	bad |= record_write(f, r, shared) < 0;
	if (comment != NULL)
		bad |= fputs(comment, f) < 0;
	/* `kernel = NAME` last: the line people and scripts look for; its
	 * split just before it. */
	for (int k = RC4K_KINDS - 1; k >= 0; k--) {
		if (k == RC4K_SINGLE && r->split.present)
			bad |= fprintf(f, "%s = %lu\n%s = %s\n",
				       rc4_keys[RC4_KEY_SHORT_BELOW].name,
				       r->split.below,
				       rc4_keys[RC4_KEY_SHORT_KERNEL].name,
				       r->split.value) < 0;
		if (r->key[k].present && key_of(k, shared) != NULL)
			bad |= fprintf(f, "%s = %s\n", key_of(k, shared),
				       r->key[k].value) < 0;
	}
	if ((rc4_memstream_close(f) != 0) | bad || text == NULL) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	rc4_section_seal(text, n);
	if (len != NULL)
		*len = n;
	return text;
}

/* Whether the section SEC (LEN bytes) holds, after its header, exactly
 * the record lines and key lines that the writer writes from R (trimmed;
 * plain comments and blank lines apart): one grammar both ways.  SHARED:
 * as an earlier version's writer wrote R (a key shared by kinds, once). */
static bool as_written(const char *sec, size_t len, const struct rc4_record *r,
		       bool shared)
{
	size_t blen;
	char *b = build("-", r, NULL, &blen, shared);
	struct rc4_ini_text x = { 0 }, y = { 0 };
	bool same = b != NULL, mx, my;

	if (!same)
		return false;
	rc4_ini_next(sec, len, &x); /* the headers */
	rc4_ini_next(b, blen, &y);
	do {
		mx = next_covered(sec, len, &x);
		my = next_covered(b, blen, &y);
		same = mx == my &&
		       (!mx || (x.l.end - x.l.start == y.l.end - y.l.start &&
				memcmp(x.p + x.l.start, y.p + y.l.start,
				       x.l.end - x.l.start) == 0));
	} while (same && mx);
	free(b);
	return same;
}

void rc4_record_parse(const char *sec, size_t len, struct rc4_record *r)
{
	struct reading g = { .r = r };
	char want[SUM_DIGITS + 1];
	struct rc4_ini_text ln = { 0 };
	const char *t;
	size_t n;

	memset(r, 0, sizeof *r);
	rc4_ini_next(sec, len, &ln); /* the header */
	while (rc4_ini_next(sec, len, &ln))
		if ((t = record_text(&ln, &n)) != NULL)
			parse_line(&g, t, n);
	snprintf(want, sizeof want, "%016" PRIx64, checksum(sec, len));
	r->owner = !g.found		       ? RC4_OWNER_HAND
		   : strcmp(g.sum, want) != 0 ? RC4_OWNER_EDITED
		   : g.bad		       ? RC4_OWNER_UNTRUSTED
					       : RC4_OWNER_TUNER;
	/* line for line, as this version or an earlier one wrote it */
	if (r->owner == RC4_OWNER_TUNER && !as_written(sec, len, r, g.shared))
		r->owner = RC4_OWNER_UNTRUSTED;
}

char *rc4_section_build(const char *name, const struct rc4_record *r,
			const char *comment, size_t *len)
{
	return build(name, r, comment, len, false);
}

const char *rc4_owner_name(enum rc4_owner o)
{
	return o == RC4_OWNER_TUNER  ? "the tuner's"
	       : o == RC4_OWNER_HAND ? "a person's: no rc4tune record"
	       : o == RC4_OWNER_EDITED
		   ? "a person's: edited since rc4tune wrote it (its "
		     "checksum differs)"
		   : "a person's: its record holds values rc4tune never "
		     "writes";
}
