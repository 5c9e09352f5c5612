/* SPDX-License-Identifier: MIT */
/* check_inibuild.c - the config reader against an inih built otherwise
 * (rc4tune.conf(5), WHEN THE FILE IS IGNORED). A stand-in wraps the real
 * ini_parse_stream (linked with ld's --wrap=ini_parse_stream): it gives the
 * reader less room per line, as an inih with a smaller INI_MAX_LINE does,
 * or cuts section names, as one with a smaller MAX_SECTION does.  The file
 * is refused, saying so. */
#include <config.h>

#include <fcntl.h>
#include <ini.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"
#include "testutil.h"

int __real_ini_parse_stream(ini_reader reader, void *stream,
			    ini_handler handler, void *user);
int __wrap_ini_parse_stream(ini_reader reader, void *stream,
			    ini_handler handler, void *user);

/* The stand-in's build: 0 for the real one's. */
static int max_line, max_section;
static int calls;

struct wrapped {
	ini_reader reader;
	void *stream;
	ini_handler handler;
	void *user;
};

static char *small_reader(char *str, int num, void *stream)
{
	struct wrapped *w = stream;
	return w->reader(str, max_line && num > max_line ? max_line : num,
			 w->stream);
}

static int cutting_handler(void *user, const char *section, const char *name,
			   const char *value)
{
	struct wrapped *w = user;
	char cut[256];

	snprintf(cut, sizeof cut, "%.*s",
		 max_section ? max_section - 1 : (int)sizeof cut - 1, section);
	return w->handler(w->user, cut, name, value);
}

int __wrap_ini_parse_stream(ini_reader reader, void *stream,
			    ini_handler handler, void *user)
{
	struct wrapped w = { reader, stream, handler, user };

	calls++;
	return __real_ini_parse_stream(small_reader, &w, cutting_handler, &w);
}

/* A config the library takes from an inih built as assumed. */
static const char text[] = "[default]\nkernel = int-4x\n";
static char path[sizeof test_dir + 32];
static struct rc4_conf conf;
static char why[RC4_CONF_WHY_MAX];

static void setup(void)
{
	test_dir_make("check_inibuild");
	snprintf(path, sizeof path, "%s/rc4tune.conf", test_dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(fchmod(fd, 0644), 0);
	close(fd);
}

static void teardown(void)
{
	test_dir_remove();
}

/* The file is refused as a whole, and so are the same bytes before a
 * writer puts them there (rc4_conf_check); WHY names the build option. */
static void refused(const char *option)
{
	char want[64];
	int line = -1;

	snprintf(want, sizeof want, "inih built with a different %s: ", option);
	ck_assert_int_eq(rc4_conf_check(text, strlen(text), &line, why,
					sizeof why),
			 -1);
	ck_assert_msg(strncmp(why, want, strlen(want)) == 0, "why: %s", why);
	ck_assert_int_eq(line, 0);
	ck_assert_int_eq(rc4_conf_read(path, NULL, &conf, NULL, why, sizeof why),
			 -1);
	ck_assert_msg(strncmp(why, want, strlen(want)) == 0, "why: %s", why);
	ck_assert_int_eq(conf.bad_line, 0);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "");
}

/* inih as linked: the file is read, through the stand-in. */
START_TEST(test_as_built)
{
	ck_assert_int_eq(rc4_ini_build_check(why, sizeof why), 0);
	ck_assert_int_eq(rc4_conf_read(path, NULL, &conf, NULL, why, sizeof why),
			 0);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name,
			 "int-4x");
	ck_assert_int_gt(calls, 0);
}
END_TEST

/* Room for a line of 198 bytes with its newline and NUL, section names of
 * 49 bytes kept whole, no more: still the build assumed. */
START_TEST(test_at_the_limits)
{
	max_line = RC4_CONF_MAX_LINE + 2;
	max_section = RC4_CONF_MAX_SECTION + 1;
	ck_assert_int_eq(rc4_ini_build_check(why, sizeof why), 0);
}
END_TEST

/* One byte less, and a file of short lines is refused all the same. */
START_TEST(test_max_line_smaller)
{
	max_line = RC4_CONF_MAX_LINE + 1;
	ck_assert_int_eq(rc4_ini_build_check(why, sizeof why), -1);
	ck_assert_msg(strstr(why, "room for 199 ") != NULL, "why: %s", why);
	max_line = 100;
	refused("INI_MAX_LINE");
	ck_assert_msg(strstr(why, "room for 100 ") != NULL, "why: %s", why);
}
END_TEST

START_TEST(test_max_section_smaller)
{
	max_section = RC4_CONF_MAX_SECTION;
	refused("MAX_SECTION");
	ck_assert_msg(strstr(why, "keeps 48 bytes of a 49-byte") != NULL,
		      "why: %s", why);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("inibuild");
	TCase *tc = tcase_create("stand-in");

	/* A linker that took no --wrap (or LTO that bound the call before it)
	 * leaves nothing to test. */
	if (rc4_ini_build_check(why, sizeof why) != 0 || calls == 0) {
		printf("SKIP: the stand-in inih is not linked in (%s)\n",
		       calls == 0 ? "ld --wrap" : why);
		return 77;
	}

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_as_built);
	tcase_add_test(tc, test_at_the_limits);
	tcase_add_test(tc, test_max_line_smaller);
	tcase_add_test(tc, test_max_section_smaller);
	suite_add_tcase(s, tc);
	return test_run(s);
}
