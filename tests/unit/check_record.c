/* SPDX-License-Identifier: MIT */
/* check_record.c - one record grammar both ways (rc4tune.conf(5), THE
 * RECORD), a property over random records: every record the writer builds
 * (rc4_section_build) reads back (rc4_section_parse) as the tuner's with
 * the values it was built from, as the writer writes them; and every
 * sealed record the reader calls the tuner's, among records mutated from
 * the writer's, as an earlier version wrote them (key=batch_kernel), and
 * the sections confgen.h (the fuzzers' generator) builds, is byte for byte
 * what the writer builds from the values read, in the record's layout. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests/helpers/confgen.h"
#include "iniline.h"
#include "tuner/section.h"
#include "testutil.h"

#define CPU "cpu AuthenticAMD 25 33"
#define CASES 3000

static uint64_t seed = 36;

/* A random real time, as the writer writes one. */
static void random_time(char at[RC4_RECORD_TIME_MAX])
{
	time_t t = (time_t)test_below(&seed, 4102444800u); /* 1970..2099 */
	struct tm tm;

	strftime(at, RC4_RECORD_TIME_MAX, "%Y-%m-%dT%H:%M:%SZ",
		 gmtime_r(&t, &tm));
}

/* A kernel of KIND's type from this build's registry. */
static const char *random_kernel(int kind)
{
	size_t n = 0;

	while (rc4k_nth((enum rc4k_kind)kind, n) != NULL)
		n++;
	return rc4k_nth((enum rc4k_kind)kind, test_below(&seed, n))->name;
}

/* A share of a run's best: any in (0, 1], tiny ones, and ones a rounding
 * step away from the next three-decimal value. */
static double random_score(void)
{
	switch (test_below(&seed, 4)) {
	case 0:
		return 1e-7 + 1e-3 * (double)test_below(&seed, 1000) / 1000;
	case 1:
		return (double)(1 + test_below(&seed, 1000)) / 1000 + 0.0005;
	default:
		return (double)(1 + test_below(&seed, 1000000)) / 1000000;
	}
}

/* A basis as the tuner makes one (tuner/decide.c), or none: a lower
 * bound from 0 up (none: no other finalist), a window of 2 to 3 %. */
static void random_basis(struct rc4_record_basis *b)
{
	*b = (struct rc4_record_basis){
		.present = test_below(&seed, 3) != 0,
		.lower = test_below(&seed, 5) == 0
				 ? -1
				 : (double)test_below(&seed, 3000000) / 1e6,
		.window = 0.02 + (double)test_below(&seed, 10000) / 1e6,
		.finalists = 1 + (int)test_below(&seed, 40),
		.rounds = (int)test_below(&seed, 400),
	};
}

/* A record as the tuner makes one (tuner/result.c): some kinds' results,
 * each with up to RC4_RECORD_RUNS runs of leaders. */
static void random_record(struct rc4_record *r)
{
	static const char *const whys[] = { "rounds", "busy", "noise", "phases" };

	memset(r, 0, sizeof *r);
	random_time(r->at);
	for (int k = 0; k < RC4K_KINDS; k++) {
		struct rc4_record_key *key = &r->key[k];
		if (!(key->present = k == 0 || test_below(&seed, 3) != 0))
			continue;
		snprintf(key->value, sizeof key->value, "%s", random_kernel(k));
		key->uncertain = test_below(&seed, 3) == 0;
		snprintf(key->why, sizeof key->why, "%s",
			 key->uncertain ? whys[test_below(&seed, 4)] : "-");
		random_basis(&key->basis);
		key->nruns = (int)test_below(&seed, RC4_RECORD_RUNS + 1);
		for (int i = 0; i < key->nruns; i++) {
			struct rc4_record_run *run = &key->run[i];
			random_time(run->at);
			run->uncertain = test_below(&seed, 2);
			run->n = 1 + (int)test_below(&seed, RC4_RECORD_LEADERS);
			for (int j = 0; j < run->n; j++) {
				snprintf(run->lead[j].name,
					 sizeof run->lead[j].name, "%s",
					 random_kernel(k));
				run->lead[j].score = j ? random_score() : 1.0;
			}
		}
	}
}

/* SCORE as the writer writes it, read back. */
static double as_written(double score)
{
	char buf[16];

	snprintf(buf, sizeof buf, "%.3f", score < 0.001 ? 0.001 : score);
	return strtod(buf, NULL);
}

/* V as the writer writes a basis figure (three decimals), read back. */
static double decimal(double v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%.3f", v);
	return strtod(buf, NULL);
}

/* Whether basis B, read back as A, holds B's values as written. */
static bool same_basis(const struct rc4_record_basis *b,
		       const struct rc4_record_basis *a)
{
	return a->present == b->present &&
	       (!b->present ||
		((b->lower < 0 ? a->lower < 0 : decimal(b->lower) == a->lower) &&
		 decimal(b->window) == a->window &&
		 a->finalists == b->finalists && a->rounds == b->rounds));
}

/* Whether GOT, read back, holds WANT's values as the writer wrote them
 * (a history line may keep fewer leaders, those that fit a line). */
static bool same_values(const struct rc4_record *want,
			const struct rc4_record *got, const char **what)
{
	*what = "at or by";
	if (strcmp(want->at, got->at) != 0 || strcmp(got->by, PACKAGE_VERSION))
		return false;
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct rc4_record_key *a = &want->key[k], *b = &got->key[k];
		*what = "a result";
		if (a->present != b->present ||
		    (a->present && (strcmp(a->value, b->value) ||
				    a->uncertain != b->uncertain ||
				    strcmp(a->why, b->why) || a->nruns != b->nruns)))
			return false;
		*what = "a basis line";
		if (a->present && !same_basis(&a->basis, &b->basis))
			return false;
		for (int i = 0; a->present && i < a->nruns; i++) {
			const struct rc4_record_run *x = &a->run[i], *y = &b->run[i];
			*what = "a history line";
			if (strcmp(x->at, y->at) || x->uncertain != y->uncertain ||
			    y->n < 1 || y->n > x->n)
				return false;
			for (int j = 0; j < y->n; j++)
				if (strcmp(x->lead[j].name, y->lead[j].name) ||
				    as_written(x->lead[j].score) != y->lead[j].score)
					return false;
		}
	}
	return true;
}

/* Writer to reader: built, read back as the tuner's, the same values. */
START_TEST(test_written_read)
{
	struct rc4_record r;
	struct rc4_section s;
	const char *what;
	size_t len;

	for (int i = 0; i < CASES; i++) {
		random_record(&r);
		char *text = rc4_section_build(CPU, &r, i % 2 ? "; a table\n" : NULL,
					       &len);
		ck_assert_ptr_nonnull(text);
		rc4_section_parse(text, len, 1, &s);
		ck_assert_msg(s.record.owner == RC4_OWNER_TUNER,
			      "case %d: built, read as %s:\n%s", i,
			      rc4_owner_name(s.record.owner), text);
		ck_assert_msg(same_values(&r, &s.record, &what),
			      "case %d: %s read back otherwise:\n%s", i, what,
			      text);
		for (int k = 0; k < RC4K_KINDS; k++)
			ck_assert_str_eq(s.key[k].name, r.key[k].value);
		free(text);
	}
	printf("writer to reader: %d records built, each read back as the "
	       "tuner's with its values\n", CASES);
}
END_TEST

/* TEXT (LEN bytes) as the record and the keys: its lines that are
 * neither blank nor plain comments, trimmed, malloc'ed. */
static char *record_and_keys(const char *text, size_t len)
{
	struct rc4_ini_text t = { 0 };
	char *out = malloc(len + 1);
	size_t n = 0;

	while (out != NULL && rc4_ini_next(text, len, &t)) {
		bool rec = t.l.kind == RC4_INI_COMMENT &&
			   strncmp(t.p + t.l.start, RC4_RECORD_PREFIX, 3) == 0;
		if (t.l.kind == RC4_INI_BLANK ||
		    (t.l.kind == RC4_INI_COMMENT && !rec))
			continue;
		memcpy(out + n, t.p + t.l.start, t.l.end - t.l.start);
		n += t.l.end - t.l.start;
		out[n++] = '\n';
	}
	if (out != NULL)
		out[n] = '\0';
	return out;
}

/* The writer's section TEXT (*LEN bytes) as an earlier version wrote it,
 * as .ci/deb makes one: set_keys_kernel's lines under the key the batch
 * calls shared, crypt_many_kernel's left out.  Not resealed. */
static void to_earlier(char *text, size_t *len)
{
	static const char own[] = "set_keys_kernel", shared[] = "batch_kernel";
	size_t o = 0, n;

	for (size_t i = 0; i < *len; i += n) {
		size_t line = strcspn(text + i, "\n");
		n = line + (i + line < *len); /* with its '\n' */
		if (memmem(text + i, n, "crypt_many_kernel", 17) != NULL)
			continue;
		char *hit = memmem(text + i, n, own, sizeof own - 1);
		size_t pre = hit ? (size_t)(hit - text) - i : n;
		memmove(text + o, text + i, pre);
		o += pre;
		if (hit == NULL)
			continue;
		memcpy(text + o, shared, sizeof shared - 1);
		o += sizeof shared - 1;
		memmove(text + o, hit + sizeof own - 1, n - pre - (sizeof own - 1));
		o += n - pre - (sizeof own - 1);
	}
	text[o] = '\0';
	*len = o;
}

/* Reader to writer: if the sealed section TEXT is the tuner's to the
 * reader, the writer builds the same record and keys from its values (as
 * an earlier version wrote them, for a record with its shared key).
 * Returns whether it was the tuner's. */
static bool rebuilt_same(const char *text, size_t len, const char *where)
{
	struct rc4_section s;
	size_t blen;

	rc4_section_parse(text, len, 1, &s);
	if (s.record.owner != RC4_OWNER_TUNER)
		return false;
	char *built = rc4_section_build(s.name, &s.record, NULL, &blen);
	if (built != NULL && memmem(text, len, "key=batch_kernel ", 17) != NULL) {
		to_earlier(built, &blen);
		rc4_section_seal(built, blen);
	}
	char *a = record_and_keys(text, len);
	char *b = built ? record_and_keys(built, blen) : NULL;
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(strcmp(a, b) == 0, "%s: the reader's, but the writer "
		      "builds from its values\n%s\nnot\n%s", where, b, a);
	free(a);
	free(b);
	free(built);
	return true;
}

/* One mutation of a record line of TEXT (*LEN bytes, room for 64 more):
 * a byte changed, dropped or added, or the line doubled, dropped or
 * swapped with the next. */
static void mutate(char *text, size_t *len)
{
	static const char alphabet[] = "0123456789abcdefz-.:,=_ ~TZ;@";
	const char *lines[64];
	size_t nl = 0;

	for (char *p = text; p && nl < 64; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, RC4_RECORD_PREFIX, 3) == 0)
			lines[nl++] = p;
	if (nl == 0)
		return;
	char *l = (char *)lines[test_below(&seed, nl)];
	size_t ll = (size_t)(strchr(l, '\n') - l) + 1, at = l - text;
	if (ll < 5)
		return;
	size_t i = 3 + test_below(&seed, ll - 4);
	char c = alphabet[test_below(&seed, sizeof alphabet - 1)];
	char *next = l + ll, *end = text + *len;
	size_t nextl = next < end ? (size_t)(strchr(next, '\n') - next) + 1 : 0;

	switch (test_below(&seed, 6)) {
	case 0: l[i] = c; break;
	case 1: memmove(l + i, l + i + 1, (size_t)(end - l - i)); (*len)--; break;
	case 2: memmove(l + i + 1, l + i, (size_t)(end - l - i) + 1);
		l[i] = c; (*len)++; break;
	case 3: if (ll < 64) { memmove(l + ll, l, *len - at + 1); *len += ll; }
		break;
	case 4: memmove(l, next, (size_t)(end - next) + 1); *len -= ll; break;
	default:
		if (nextl > 0 && nextl < 256) {
			char tmp[256];
			memcpy(tmp, next, nextl);
			memmove(l + nextl, l, ll);
			memcpy(l, tmp, nextl);
		}
	}
	text[*len] = '\0';
}

/* Reader to writer over mutated records, resealed; every other one first
 * made an earlier version's, and read as the tuner's. */
START_TEST(test_read_written)
{
	struct rc4_record r;
	int tuners = 0, others = 0;
	char where[64];

	for (int i = 0; i < CASES; i++) {
		random_record(&r);
		for (int k = 0; i % 2 && k < RC4K_KINDS; k++)
			r.key[k].basis.present = false; /* they wrote none */
		size_t len;
		char *built = rc4_section_build(CPU, &r, "; a table\n", &len);
		ck_assert_ptr_nonnull(built);
		char *text = malloc(len + 256);
		ck_assert_ptr_nonnull(text);
		memcpy(text, built, len + 1);
		if (i % 2) {
			to_earlier(text, &len);
			rc4_section_seal(text, len);
			snprintf(where, sizeof where, "earlier case %d", i);
			ck_assert_msg(rebuilt_same(text, len, where),
				      "%s: not the tuner's:\n%s", where, text);
		}
		for (int m = 1 + (int)test_below(&seed, 2); m > 0; m--)
			mutate(text, &len);
		rc4_section_seal(text, len);
		snprintf(where, sizeof where, "mutated case %d", i);
		if (rebuilt_same(text, len, where))
			tuners++;
		else
			others++;
		free(text);
		free(built);
	}
	printf("reader to writer: %d mutated sealed records (half of them an "
	       "earlier version's), %d the tuner's (each rebuilt byte for "
	       "byte), %d a person's\n", CASES, tuners, others);
}
END_TEST

struct walked {
	int tuners, sections;
};

static void each(void *arg, const struct rc4_section *s)
{
	struct walked *w = arg;

	w->sections++;
	w->tuners += rebuilt_same(s->text, s->len, "a confgen section");
}

/* Reader to writer over the sections of confgen's files. */
START_TEST(test_confgen)
{
	struct walked w = { 0, 0 };
	uint8_t data[256];

	for (int i = 0; i < CASES / 10; i++) {
		char *buf = NULL;
		size_t len;
		FILE *f = open_memstream(&buf, &len);
		ck_assert_ptr_nonnull(f);
		test_fill(&seed, data, sizeof data);
		confgen(f, NULL, data, sizeof data, CPU);
		ck_assert_int_eq(fclose(f), 0);
		rc4_section_walk(buf, len, each, &w);
		free(buf);
	}
	printf("reader to writer: %d confgen files, %d sections, %d the "
	       "tuner's (each rebuilt byte for byte)\n",
	       CASES / 10, w.sections, w.tuners);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("record");
	TCase *tc = tcase_create("grammar");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_written_read);
	tcase_add_test(tc, test_read_written);
	tcase_add_test(tc, test_confgen);
	suite_add_tcase(s, tc);
	return test_run(s);
}
