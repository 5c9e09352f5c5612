/* SPDX-License-Identifier: MIT */
/* check_conf.c - the config's keys as the library uses them
 * (rc4tune.conf(5), FORMAT): this CPU's section and [default] found,
 * section names matched exactly, the last of repeated keys, other CPUs'
 * sections counted, an empty or missing file, the file's path.  What is
 * refused is check_conf_trust.c's, what --check-conf hears
 * check_checkconf.c's. */
#include <config.h>

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conffile.h"
#include "sectionname.h"

START_TEST(test_sections)
{
	ck_assert_int_eq(read_text("; comment\n# comment too\n"
				   "[default]\nkernel = int-4x ; inline\n\n"
				   "[" CPU "]\r\nkernel=long-8x\r\n"
				   "[cpu AuthenticAMD 25 17]\nkernel = char-1x\n",
				   CPU),
			 0);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "int-4x");
	ck_assert_int_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].line, 4);
	ck_assert_str_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name, "long-8x");
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line, 7);

	/* no section for this CPU: only [default] */
	ck_assert_int_eq(read_text("[default]\nkernel = int-4x\n", CPU), 0);
	ck_assert_str_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name, "");
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line, 0);
	/* CPU not identified: no section applies */
	ck_assert_int_eq(read_text("[" CPU "]\nkernel = int-4x\n", NULL), 0);
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line, 0);
}
END_TEST

/* Trimmed, then exactly "cpu VENDOR FAMILY MODEL" with single spaces. */
START_TEST(test_section_match)
{
	ck_assert_int_eq(read_text("[  " CPU "\t]\nkernel = int-4x\n", CPU), 0);
	ck_assert_str_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name, "int-4x");
	ck_assert_int_eq(read_text("[cpu  GenuineIntel 6 207]\nkernel = x\n"
				   "[cpu GenuineIntel 6 0207]\nkernel = y\n"
				   "[CPU GenuineIntel 6 207]\nkernel = z\n",
				   CPU),
			 0);
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line, 0);
}
END_TEST

/* Repeated keys and sections: the last value in the file wins. */
START_TEST(test_duplicates)
{
	ck_assert_int_eq(read_text("[" CPU "]\nkernel = int-4x\n"
				   "kernel = int-8x\n[default]\nkernel = a\n"
				   "[" CPU "]\nkernel = long-8x\n"
				   "[default]\nkernel = b\n",
				   CPU),
			 0);
	ck_assert_str_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name, "long-8x");
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line, 7);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "b");
}
END_TEST

/* Other CPUs' sections that set a key are counted as sections: one that
 * sets it three times is one; [default] and this CPU's are not others. */
START_TEST(test_other_sections)
{
	ck_assert_int_eq(read_text("[cpu X 1 2]\nkernel = a\nkernel = b\n"
				   "kernel = c\nbatch_kernel = d\n"
				   "[default]\nkernel = e\n[" CPU "]\n"
				   "kernel = f\n",
				   CPU),
			 0);
	ck_assert_int_eq(conf.others[RC4K_SINGLE], 1);
	ck_assert_int_eq(conf.others[RC4K_BATCH], 1);
	ck_assert_int_eq(read_text("[cpu X 1 2]\nkernel = a\n[cpu Y 1 2]\n"
				   "kernel = b\nkernel = c\n[x]\nkernel = d\n",
				   CPU),
			 0);
	ck_assert_int_eq(conf.others[RC4K_SINGLE], 2);
	ck_assert_int_eq(conf.others[RC4K_BATCH], 0);
}
END_TEST

START_TEST(test_empty_and_missing)
{
	ck_assert_int_eq(read_text("", CPU), 0);
	ck_assert_int_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line + conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].line,
			 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 1);
}
END_TEST


START_TEST(test_path)
{
	unsetenv("RC4TUNE_CONF");
	ck_assert_str_eq(rc4_conf_path(), SYSCONFDIR "/rc4tune.conf");
	setenv("RC4TUNE_CONF", "", 1);
	ck_assert_str_eq(rc4_conf_path(), SYSCONFDIR "/rc4tune.conf");
	setenv("RC4TUNE_CONF", "/elsewhere.conf", 1);
	ck_assert_str_eq(rc4_conf_path(), "/elsewhere.conf");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conf");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* Check's 4 s is no hang guard under valgrind beside busy loops. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sections);
	tcase_add_test(tc, test_section_match);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_other_sections);
	tcase_add_test(tc, test_empty_and_missing);
	tcase_add_test(tc, test_path);
	suite_add_tcase(s, tc);
	return test_run(s);
}
