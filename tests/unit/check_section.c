/* SPDX-License-Identifier: MIT */
/* check_section.c - sections named (src/sectionname.h: one identity;
 * rc4tune.conf(5), CPU IDENTITY) and the tuner's sections (tuner/section.h;
 * rc4tune.conf(5), THE RECORD): the sections of a file and whose they are,
 * a section built, sealed and read back, record values the tuner never
 * writes, an earlier version's records held to its grammar, record lines
 * within the reader's line limit. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "tuner/section.h"
#include "testutil.h"

#define CPU "cpu AuthenticAMD 23 1"

/* Whether the header name RAW (N bytes) names the section NAME: its key
 * (rc4_section_key) is NAME byte for byte. */
static bool names(const char *raw, size_t n, const char *name)
{
	char key[RC4_CONF_MAX_SECTION + 1];

	rc4_section_key(raw, n, key);
	return strcmp(key, name) == 0;
}

/* One identity: blanks at the ends do not count, blanks inside do
 * ("[cpu  X 6 15]", two blanks, is another section). */
START_TEST(test_identity)
{
	static const struct rc4_cpu via = { .vendor = "VIA VIA VIA ",
					    .family = 6, .model = 15 };
	char name[RC4_SECTION_MAX];

	ck_assert(names(CPU, strlen(CPU), CPU));
	ck_assert(names(" " CPU "\t", strlen(CPU) + 2, CPU));
	ck_assert(!names("cpu  AuthenticAMD 23 1", 22, CPU));
	ck_assert(!names("cpu\tAuthenticAMD 23 1", 21, CPU));
	ck_assert(!names("CPU AuthenticAMD 23 1", 21, CPU));
	rc4_section_name(&via, name);
	ck_assert_str_eq(name, "cpu VIA_VIA_VIA 6 15");
	/* A blank vendor (all blanks or all NULs, as some hypervisors give)
	 * is "_": a name --check-conf's grammar takes. */
	static const struct rc4_cpu blank = { .vendor = "            ",
					      .family = 6, .model = 15 };
	static const struct rc4_cpu nul = { .family = 6, .model = 15 };
	rc4_section_name(&blank, name);
	ck_assert_str_eq(name, "cpu _ 6 15");
	ck_assert(rc4_section_cpu_ok(name));
	rc4_section_name(&nul, name);
	ck_assert_str_eq(name, "cpu _ 6 15");
	ck_assert(rc4_section_cpu_ok(name));
}
END_TEST

/* R: a result for the single kind, and NRUNS runs of four leaders each
 * named PREFIX and a digit. */
static void record(struct rc4_record *r, bool uncertain, int nruns,
		   const char *prefix)
{
	memset(r, 0, sizeof *r);
	snprintf(r->at, sizeof r->at, "2026-12-01T00:00:00Z");
	struct rc4_record_key *k = &r->key[RC4K_SINGLE];
	k->present = true;
	snprintf(k->value, sizeof k->value, "int-4x");
	k->uncertain = uncertain;
	snprintf(k->why, sizeof k->why, "%s", uncertain ? "busy" : "-");
	k->nruns = nruns;
	for (int i = 0; i < nruns; i++) {
		struct rc4_record_run *run = &k->run[i];
		snprintf(run->at, sizeof run->at, "%s", r->at);
		run->n = RC4_RECORD_LEADERS;
		for (int j = 0; j < run->n; j++) {
			snprintf(run->lead[j].name, sizeof run->lead[j].name,
				 "%s%d", prefix, j);
			run->lead[j].score = 1.0 - 0.1 * j;
		}
	}
}

/* Built, sealed, read back: the tuner's, its key as inih reads it; an
 * edit makes it a person's. */
START_TEST(test_build_parse)
{
	struct rc4_record r;
	struct rc4_section s;
	size_t len;

	record(&r, true, 2, "k");
	char *text = rc4_section_build(CPU, &r, "; a table\n", &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(len, strlen(text));
	rc4_section_parse(text, len, 7, &s);
	ck_assert_str_eq(s.name, CPU);
	ck_assert_int_eq(s.record.owner, RC4_OWNER_TUNER);
	ck_assert_str_eq(s.key[RC4_KEY_KERNEL].name, "int-4x");
	ck_assert_int_eq(s.key[RC4_KEY_KERNEL].line, 7 + 6);
	ck_assert(s.record.key[RC4K_SINGLE].uncertain);
	ck_assert_str_eq(s.record.key[RC4K_SINGLE].why, "busy");
	ck_assert_int_eq(s.record.key[RC4K_SINGLE].nruns, 2);
	ck_assert_str_eq(s.record.key[RC4K_SINGLE].run[1].lead[3].name, "k3");
	memcpy(strstr(text, "kernel = int-4x") + 9, "int-8x", 6);
	rc4_section_parse(text, len, 1, &s);
	ck_assert_int_eq(s.record.owner, RC4_OWNER_EDITED);
	ck_assert_str_eq(s.key[RC4_KEY_KERNEL].name, "int-8x");
	free(text);
}
END_TEST

/* Sealed, a history score the tuner never writes makes the record one it
 * cannot trust: a person's section. */
START_TEST(test_untrusted)
{
	static const struct {
		const char *score;
		enum rc4_owner owner;
	} cases[] = {
		{ "1.000", RC4_OWNER_TUNER },	  { "0.050", RC4_OWNER_TUNER },
		{ "1e300", RC4_OWNER_UNTRUSTED }, { "inf", RC4_OWNER_UNTRUSTED },
		{ "nan", RC4_OWNER_UNTRUSTED },	  { "0", RC4_OWNER_UNTRUSTED },
		{ "-1", RC4_OWNER_UNTRUSTED },	  { "1.5", RC4_OWNER_UNTRUSTED },
		{ "0.5x", RC4_OWNER_UNTRUSTED },
	};
	struct rc4_record r;
	char text[512];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "[" CPU "]\n"
			 ";@ rc4tune v=1 at=2026-01-01T00:00:00Z by=0.1.0 "
			 "sum=0000000000000000\n"
			 ";@ result key=kernel value=int-4x confidence=high "
			 "why=-\n"
			 ";@ history key=kernel at=2026-01-01T00:00:00Z "
			 "confidence=high scores=int-4x:%s\n"
			 "kernel = int-4x\n",
			 cases[i].score);
		rc4_section_seal(text, strlen(text));
		rc4_record_parse(text, strlen(text), &r);
		ck_assert_msg(r.owner == cases[i].owner, "score %s: owner %d",
			      cases[i].score, (int)r.owner);
	}
}
END_TEST

/* Whose the section TEXT is once sealed, read into SEC. */
static enum rc4_owner sealed_owner(char *text, struct rc4_section *sec)
{
	rc4_section_seal(text, strlen(text));
	rc4_section_parse(text, strlen(text), 1, sec);
	return sec->record.owner;
}

/* One grammar both ways (issue 36): a sealed record with a time, a
 * confidence, a reason or a result the tuner never writes is a person's;
 * a score the writer writes reads back as the tuner's. */
START_TEST(test_grammar)
{
	static const struct {
		const char *at, *conf, *why, *value, *score;
		enum rc4_owner owner;
	} cases[] = {
		{ "2026-01-01T00:00:00Z", "high", "-", "int-4x", "0.500", RC4_OWNER_TUNER },
		{ "2026-01-01T00:00:00Z", "uncertain", "busy", "int-4x", "0.001", RC4_OWNER_TUNER },
		{ "not-a-time", "high", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "~~~~", "high", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-02-30T00:00:00Z", "high", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00", "high", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "maybe", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "busy", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "uncertain", "-", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "uncertain", "why", "int-4x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "-", "int-8x", "0.500", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "-", "int-4x", "0.0004", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "-", "int-4x", "0.000", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "-", "int-4x", "1", RC4_OWNER_UNTRUSTED },
		{ "2026-01-01T00:00:00Z", "high", "-", "int-4x", ".500", RC4_OWNER_UNTRUSTED },
	};
	struct rc4_section sec;
	char text[512];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "[" CPU "]\n"
			 ";@ rc4tune v=1 at=%s by=0.1.0 sum=0000000000000000\n"
			 ";@ result key=kernel value=%s confidence=%s why=%s\n"
			 ";@ history key=kernel at=2026-01-01T00:00:00Z "
			 "confidence=high scores=int-4x:%s\n"
			 "kernel = int-4x\n",
			 cases[i].at, cases[i].value, cases[i].conf,
			 cases[i].why, cases[i].score);
		ck_assert_msg(sealed_owner(text, &sec) == cases[i].owner,
			      "case %zu: owner %d", i, (int)sec.record.owner);
	}
	/* a score of 0.0004 measured: written 0.001, read back the tuner's */
	struct rc4_record r;
	record(&r, false, 1, "k");
	r.key[RC4K_SINGLE].run[0].lead[3].score = 0.0004;
	size_t len;
	char *built = rc4_section_build(CPU, &r, NULL, &len);
	ck_assert_ptr_nonnull(built);
	rc4_section_parse(built, len, 1, &sec);
	ck_assert_int_eq(sec.record.owner, RC4_OWNER_TUNER);
	ck_assert(sec.record.key[RC4K_SINGLE].run[0].lead[3].score == 0.001);
	free(built);
}
END_TEST

/* A record of an earlier version (key=batch_kernel, for both batch calls)
 * is the tuner's only as that version's writer wrote it: its record lines
 * and key lines line for line, no other (rc4tune.conf(5), THE RECORD). */
START_TEST(test_earlier_grammar)
{
#define SINGLE ";@ result key=kernel value=int-4x confidence=high why=-\n"
#define BATCH ";@ result key=batch_kernel value=char-8lane confidence=high " \
	      "why=-"
#define KEYS "batch_kernel = char-8lane\nkernel = int-4x\n"
	static const struct {
		const char *v, *results, *keys;
		enum rc4_owner owner;
	} cases[] = {
		/* as the earlier writer wrote it: for both batch calls */
		{ "1", SINGLE BATCH "\n", KEYS, RC4_OWNER_TUNER },
		{ "1", BATCH "\n", "batch_kernel = char-8lane\n",
		  RC4_OWNER_TUNER },
		/* a key line that no result names */
		{ "1", BATCH "\n", "batch_kernel = char-8lane\n"
				   "kernel = int-ring4\n", RC4_OWNER_UNTRUSTED },
		/* a later format, an unknown field, an unknown line */
		{ "2", SINGLE BATCH "\n", KEYS, RC4_OWNER_UNTRUSTED },
		{ "1", SINGLE BATCH " lanes=8\n", KEYS, RC4_OWNER_UNTRUSTED },
		{ "1", SINGLE BATCH "\n;@ phase key=batch_kernel n=3\n", KEYS,
		  RC4_OWNER_UNTRUSTED },
		/* a call's own key beside the shared one: neither writer's */
		{ "1", SINGLE BATCH "\n;@ result key=crypt_many_kernel "
				    "value=serial confidence=high why=-\n",
		  "crypt_many_kernel = serial\n" KEYS, RC4_OWNER_UNTRUSTED },
	};
#undef SINGLE
#undef BATCH
#undef KEYS
	struct rc4_section sec;
	char text[1024];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "[" CPU "]\n;@ rc4tune v=%s "
			 "at=2026-01-01T00:00:00Z by=0.1.0 sum=0000000000000000"
			 "\n%s;@ history key=batch_kernel at=2026-01-01T00:00:00Z"
			 " confidence=high scores=char-8lane:1.000,serial:0.500"
			 "\n; a table\n%s",
			 cases[i].v, cases[i].results, cases[i].keys);
		enum rc4_owner owner = sealed_owner(text, &sec);
		ck_assert_msg(owner == cases[i].owner, "case %zu: owner %d, "
			      "not %d", i, (int)owner, (int)cases[i].owner);
		if (owner != RC4_OWNER_TUNER)
			continue;
		/* read as each batch call's result and history */
		for (int k = RC4K_SET_KEYS; k <= RC4K_CRYPT_MANY; k++) {
			ck_assert_str_eq(sec.record.key[k].value, "char-8lane");
			ck_assert_int_eq(sec.record.key[k].nruns, 1);
		}
	}
}
END_TEST

/* Names of the longest a record keeps: each history line keeps the
 * leaders that fit the reader's limit, and the file stays one the
 * library reads. */
START_TEST(test_line_limit)
{
	struct rc4_record r;
	char why[RC4_CONF_WHY_MAX], prefix[RC4_RECORD_NAME_MAX - 1];
	size_t len;
	int line;

	memset(prefix, 'n', sizeof prefix - 1);
	prefix[sizeof prefix - 1] = '\0';
	record(&r, false, RC4_RECORD_RUNS, prefix);
	char *text = rc4_section_build(CPU, &r, NULL, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(rc4_conf_check(text, len, &line, why, sizeof why) == 0,
		      "line %d: %s", line, why);
	rc4_record_parse(text, len, &r);
	ck_assert_int_eq(r.owner, RC4_OWNER_TUNER);
	ck_assert_int_eq(r.key[RC4K_SINGLE].nruns, RC4_RECORD_RUNS);
	ck_assert_int_lt(r.key[RC4K_SINGLE].run[0].n, RC4_RECORD_LEADERS);
	ck_assert_int_gt(r.key[RC4K_SINGLE].run[0].n, 0);
	free(text);
}
END_TEST

/* A file's sections: how many are this CPU's, the first, and the first
 * that is not the tuner's (a later duplicate speaks too). */
START_TEST(test_find)
{
	struct rc4_record r;
	struct rc4_section first, theirs;
	char file[2048];

	record(&r, true, 0, "k");
	char *text = rc4_section_build(CPU, &r, NULL, NULL);
	ck_assert_ptr_nonnull(text);
	snprintf(file, sizeof file, "[default]\nkernel = int-8x\n%s"
		 "[cpu  AuthenticAMD 23 1]\nkernel = char-1x\n"
		 "[ " CPU " ]\nkernel = long-1x ; a person's\n", text);
	ck_assert_int_eq(rc4_section_find(file, strlen(file), CPU, &first,
					  &theirs), 2);
	ck_assert_int_eq(first.line, 3);
	ck_assert_int_eq(first.record.owner, RC4_OWNER_TUNER);
	ck_assert_int_eq(theirs.record.owner, RC4_OWNER_HAND);
	ck_assert_str_eq(theirs.key[RC4_KEY_KERNEL].name, "long-1x");
	ck_assert_str_eq(theirs.name, CPU);
	/* the tuner's four lines, then the near miss's two */
	ck_assert_int_eq(theirs.line, first.line + 4 + 2);
	ck_assert_int_eq(rc4_section_find(file, strlen(file), "cpu X 1 2",
					  &first, &theirs), 0);
	ck_assert_int_eq(first.line, 0);
	ck_assert_int_eq(theirs.line, 0);
	free(text);
}
END_TEST

/* Replaced in place, a duplicate dropped, other bytes kept; added at the
 * end where there is none. */
START_TEST(test_replace)
{
	const char *old = "[default]\r\nkernel = int-8x\r\n[" CPU "]\r\n"
			  "kernel = char-1x\r\n; next\r\n[cpu X 1 2]\r\n"
			  "kernel = int-1x\r\n";
	size_t len;
	char *out = rc4_section_replace(old, strlen(old), CPU,
					"[" CPU "]\nkernel = int-4x\n", "t",
					&len);

	ck_assert_ptr_nonnull(out);
	/* the section put in with its own '\n' line ends (rc4tune(1)) */
	ck_assert_str_eq(out, "[default]\r\nkernel = int-8x\r\n[" CPU "]\n"
			      "kernel = int-4x\n; next\r\n[cpu X 1 2]\r\n"
			      "kernel = int-1x\r\n");
	free(out);
	out = rc4_section_replace("[cpu X 1 2]\nkernel = a\n", 23, CPU,
				  "[" CPU "]\nkernel = b\n", "t", &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, "[cpu X 1 2]\nkernel = a\n\n[" CPU "]\nkernel = b\n");
	free(out);
}
END_TEST

/* Several sections put in one walk: as rc4_section_replace one after
 * the other would, names OLD lacks appended in the order given. */
START_TEST(test_put_many)
{
	const char *old = "; top\n[cpu A 1 1]\nkernel = a\n; about B\n"
			  "[cpu B 1 1]\nkernel = b\n[cpu A 1 1]\nkernel = c\n"
			  "  [cpu C 1 1]\nkernel = d\n";
	struct rc4_section_put put[] = {
		{ "cpu D 1 1", "[cpu D 1 1]\nkernel = x\n" },
		{ "cpu A 1 1", "[cpu A 1 1]\nkernel = y\n" },
		{ "cpu E 1 1", "[cpu E 1 1]\nkernel = z\n" },
	};
	size_t len, len1, len2, len3;
	char *out = rc4_sections_put(old, strlen(old), put, 3, "t", &len);
	char *one = rc4_section_replace(old, strlen(old), put[0].name,
					put[0].text, "t", &len1);
	char *two = rc4_section_replace(one, len1, put[1].name, put[1].text,
					"t", &len2);
	char *three = rc4_section_replace(two, len2, put[2].name, put[2].text,
					  "t", &len3);

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(three);
	ck_assert_str_eq(out, "; top\n[cpu A 1 1]\nkernel = y\n; about B\n"
			      "[cpu B 1 1]\nkernel = b\n[cpu C 1 1]\n"
			      "kernel = d\n\n[cpu D 1 1]\nkernel = x\n\n"
			      "[cpu E 1 1]\nkernel = z\n");
	ck_assert_str_eq(out, three);
	free(out);
	free(one);
	free(two);
	free(three);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("section");
	TCase *tc = tcase_create("module");

	tcase_add_test(tc, test_identity);
	tcase_add_test(tc, test_build_parse);
	tcase_add_test(tc, test_untrusted);
	tcase_add_test(tc, test_grammar);
	tcase_add_test(tc, test_earlier_grammar);
	tcase_add_test(tc, test_line_limit);
	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_replace);
	tcase_add_test(tc, test_put_many);
	suite_add_tcase(s, tc);
	return test_run(s);
}
