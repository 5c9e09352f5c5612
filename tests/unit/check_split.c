/* SPDX-License-Identifier: MIT */
/* check_split.c - the size split (rc4tune.conf(5), short_kernel;
 * librc4tune(3), SELECTION): the selection takes both keys of the
 * section that chose the kernel or neither, a short kernel of the
 * kernel's family only, and says why in the trail; the library runs the
 * short kernel below the threshold and the long one at and above it on
 * keys the long one set up (rc4_crypt_kernel, what rc4tune_crypt runs),
 * with RC4's bytes over calls of mixed sizes; rc4tune_use_kernel ends the
 * split; the record of a split reads back as written, and an edit to it
 * makes the section a person's. */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "key.h"
#include "rc4tune.h"
#include "select.h"
#include "testutil.h"
#include "tuner/record.h"

static char conf_path[sizeof test_dir + 16];
static char trail[RC4_TRAIL_MAX];

static void setup(void)
{
	test_dir_make("check_split");
	snprintf(conf_path, sizeof conf_path, "%s/rc4tune.conf", test_dir);
}

static void teardown(void)
{
	test_dir_remove();
}

static const struct rc4k *single(const char *name)
{
	const struct rc4k_info *k = rc4k_find(RC4K_SINGLE, name);
	ck_assert_ptr_nonnull(k);
	return rc4k_single(k);
}

/* The selection of the single kind from config TEXT ([default] only: no
 * CPU), into *HOW; the kernel's name. */
static const char *pick(const char *text, struct rc4_choice *how)
{
	struct rc4_select_in in = { .conf = conf_path, .cpu = NULL,
				    .cpu_why = "fixture", .find = rc4k_find };

	test_write_file(conf_path, text, 0644);
	return rc4_select(RC4K_SINGLE, &in, trail, sizeof trail, how)->name;
}

static void said(const char *part)
{
	ck_assert_msg(strstr(trail, part) != NULL, "trail lacks \"%s\":\n%s",
		      part, trail);
}

START_TEST(test_split_taken)
{
	struct rc4_choice how;

	ck_assert_str_eq(pick("[default]\nshort_kernel = int-1x\n"
			      "short_below = 64\nkernel = int-8x\n",
			      &how),
			 "int-8x");
	ck_assert_ptr_eq(how.split.long_kernel, single("int-8x"));
	ck_assert_ptr_eq(how.split.short_kernel, single("int-1x"));
	ck_assert_uint_eq(how.split.below, 64);
	ck_assert_int_eq(how.split.line, 2);
	said("split: calls shorter than 64 bytes run int-1x (config line 2), "
	     "longer ones int-8x");
}
END_TEST

/* What a split is passed over for: the kernel stays, no split. */
static const struct {
	const char *keys, *why;
	int line;
} refused[] = {
	{ "short_kernel = int-1x\n", "short_kernel without short_below", 2 },
	{ "short_below = 64\n", "short_below without short_kernel", 2 },
	{ "short_kernel = char-1x\nshort_below = 64\n",
	  "its cells are not the kernel's", 2 },
	{ "short_kernel = int-1x\nshort_below = 0x40\n",
	  "short_below = \"0x40\": not a whole number of bytes from 1 to "
	  "1073741824", 3 },
	{ "short_kernel = int-1x\nshort_below = 0\n",
	  "not a whole number", 3 },
	{ "short_kernel = no-such\nshort_below = 64\n", "unknown kernel", 2 },
};

START_TEST(test_split_refused)
{
	struct rc4_choice how;
	char text[256], line[64];

	snprintf(text, sizeof text, "[default]\n%skernel = int-8x\n",
		 refused[_i].keys);
	ck_assert_str_eq(pick(text, &how), "int-8x");
	ck_assert_uint_eq(how.split.below, 0);
	ck_assert_ptr_null(how.split.short_kernel);
	said(refused[_i].why);
	snprintf(line, sizeof line, "split: config line %d:", refused[_i].line);
	said(line);
	said("; no split");
}
END_TEST

/* A split in a section with no kernel splits nothing, and the trail
 * says so where the selection passes that section: in [pin] (whose
 * kernel would outrank the rest), or in [default] below the env. */
START_TEST(test_split_without_kernel)
{
	struct rc4_choice how;

	ck_assert_str_eq(pick("[pin]\nshort_below = 64\nshort_kernel = int-1x\n"
			      "[default]\nkernel = int-8x\n", &how),
			 "int-8x");
	ck_assert_uint_eq(how.split.below, 0);
	said("split: config line 3: short_kernel = \"int-1x\": no kernel in "
	     "its section");
	said("split: config line 2: short_below = \"64\": no kernel in its "
	     "section");
	pick("[default]\nshort_kernel = int-1x\nshort_below = 64\n", &how);
	ck_assert_int_ne(how.source, RC4_FROM_CONF + RC4_CONF_DEFAULT);
	ck_assert_uint_eq(how.split.below, 0);
	said("split: config line 2: short_kernel = \"int-1x\": no kernel");
}
END_TEST

/* The split of the section whose kernel is chosen, not another's: [pin]
 * chooses, [default]'s split does not apply. */
START_TEST(test_split_of_its_section)
{
	struct rc4_choice how;

	ck_assert_str_eq(pick("[pin]\nkernel = int-4x\n[default]\n"
			      "short_kernel = int-1x\nshort_below = 64\n"
			      "kernel = int-8x\n",
			      &how),
			 "int-4x");
	ck_assert_uint_eq(how.split.below, 0);
	/* an unusable kernel passed over: the next section's split */
	ck_assert_str_eq(pick("[pin]\nkernel = no-such\nshort_kernel = int-4x\n"
			      "short_below = 9\n[default]\n"
			      "short_kernel = int-1x\nshort_below = 64\n"
			      "kernel = int-8x\n",
			      &how),
			 "int-8x");
	ck_assert_ptr_eq(how.split.short_kernel, single("int-1x"));
}
END_TEST

/* Calls of these sizes in turn: below, at and above the threshold. */
static const size_t sizes[] = { 1, 63, 64, 65, 7, 200, 3, 1000, 16, 4096 };

/* The live library: a split in the config; the short kernel below 64
 * bytes, the long one at 64 and above, on keys the long one set up; the
 * bytes of one reference run over the whole stream. */
START_TEST(test_library_switches)
{
	static uint8_t in[4096], out[4096], ref[4096];
	struct test_rc4 r;
	rc4tune_key key;
	uint64_t seed = 7;

	test_write_file(conf_path, "[default]\nshort_kernel = int-1x\n"
				   "short_below = 64\nkernel = int-8x\n", 0644);
	setenv("RC4TUNE_CONF", conf_path, 1);
	unsetenv("RC4TUNE_KERNEL");
	ck_assert_int_eq(rc4tune_set_key(&key, "Key", 3), 0);
	ck_assert_str_eq(rc4tune_kernel_name(), "int-8x");
	test_rc4_key(&r, (const uint8_t *)"Key", 3);
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		size_t n = sizes[i];
		ck_assert_ptr_eq(rc4_crypt_kernel(&key, n),
				 single(n < 64 ? "int-1x" : "int-8x"));
		test_fill(&seed, in, n);
		rc4tune_crypt(&key, n, in, out);
		test_rc4_ks(&r, n, ref);
		for (size_t j = 0; j < n; j++)
			ck_assert_uint_eq(out[j], in[j] ^ ref[j]);
	}
	/* a key another kernel set up runs its own at every size */
	rc4_key_set(single("long-8x"), &key, "Key", 3);
	ck_assert_ptr_eq(rc4_crypt_kernel(&key, 1), single("long-8x"));
	/* one kernel named: no split */
	ck_assert_int_eq(rc4tune_use_kernel("int-8x"), 0);
	ck_assert_int_eq(rc4tune_set_key(&key, "Key", 3), 0);
	ck_assert_ptr_eq(rc4_crypt_kernel(&key, 1), single("int-8x"));
}
END_TEST

/* The record of a split: built, read back as the tuner's with its values;
 * its key lines edited, a person's; a format 1 record line with a split
 * is none the tuner writes. */
START_TEST(test_record_round_trip)
{
	struct rc4_record r = { 0 }, back;

	snprintf(r.at, sizeof r.at, "2026-12-01T00:23:05Z");
	r.key[RC4K_SINGLE].present = true;
	snprintf(r.key[RC4K_SINGLE].value, RC4_RECORD_NAME_MAX, "int-8x");
	snprintf(r.key[RC4K_SINGLE].why, RC4_RECORD_NAME_MAX, "-");
	r.split = (struct rc4_record_split){
		true, "int-1x", 256, 1.093, 2, { { 16, 1.3 }, { 64, 1.2 } }
	};
	size_t len;
	char *text = rc4_section_build("cpu X 1 2", &r, NULL, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(strstr(text, ";@ rc4tune v=2 "));
	ck_assert_ptr_nonnull(strstr(text, ";@ split short=int-1x below=256 "
					   "gain=1.093 ratios=16:1.300,"
					   "64:1.200\n"));
	ck_assert_ptr_nonnull(strstr(text, "short_below = 256\nshort_kernel = "
					   "int-1x\nkernel = int-8x\n"));
	rc4_record_parse(text, len, &back);
	ck_assert_int_eq(back.owner, RC4_OWNER_TUNER);
	ck_assert(back.split.present);
	ck_assert_str_eq(back.split.value, "int-1x");
	ck_assert_uint_eq(back.split.below, 256);
	ck_assert_int_eq(back.split.n, 2);
	char *at = strstr(text, "short_below = 256");
	memcpy(at, "short_below = 128", 17);
	rc4_record_parse(text, len, &back);
	ck_assert_int_eq(back.owner, RC4_OWNER_EDITED);
	memcpy(at, "short_below = 256", 17);
	memcpy(strstr(text, "v=2"), "v=1", 3);
	rc4_section_seal(text, len);
	rc4_record_parse(text, len, &back);
	ck_assert_int_eq(back.owner, RC4_OWNER_UNTRUSTED);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("split");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_split_taken);
	tcase_add_loop_test(tc, test_split_refused, 0,
			    sizeof refused / sizeof refused[0]);
	tcase_add_test(tc, test_split_of_its_section);
	tcase_add_test(tc, test_split_without_kernel);
	tcase_add_test(tc, test_library_switches);
	tcase_add_test(tc, test_record_round_trip);
	suite_add_tcase(s, tc);
	return test_run(s);
}
