/* SPDX-License-Identifier: MIT */
/* check_conf_trust.c - a file is trusted whole or not at all
 * (rc4tune.conf(5), WHEN THE FILE IS IGNORED): parse errors, long lines,
 * NULs and other bytes inih would misread, a file too big, not a regular
 * file, writable by others, owned by another user, in a directory others
 * can write, text after a header: each refused as a whole, at its line,
 * with the reason, and the writer's check refuses exactly the same. */
#include <config.h>

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conffile.h"
#include "sectionname.h"

/* A refused file: -1, no kernel kept from lines before the fault, the
 * line at fault and the reason given. */
static void refused(int line, const char *reason)
{
	ck_assert_int_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].line, 0);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "");
	ck_assert_int_eq(conf.bad_line, line);
	ck_assert_msg(strstr(why, reason) != NULL, "\"%s\" lacks \"%s\"", why,
		      reason);
}

START_TEST(test_parse_errors)
{
	static const struct {
		const char *text;
		int line;
		const char *reason;
	} cases[] = {
		{ "[default]\nkernel = int-4x\nkernel int-8x\n", 3,
		  "key = value" },
		{ "[default]\nkernel = int-4x\n[cpu GenuineIntel 6 207\n", 3,
		  "closing ']'" },
		/* inih would append "int-8x" to the value */
		{ "[default]\nkernel = int-4x\n  int-8x\n", 3, "indented" },
		{ "[default]\nkernel = int-4x\n\n\t[" CPU "]\n", 4, "indented" },
		/* inih would cut it to 49 bytes, the rest unseen */
		{ "[default]\nkernel = int-4x\n[cpu GenuineIntel 6 207   "
		  "                          x]\nkernel = char-1x\n",
		  3, "section name longer" },
		/* a parse error after the useful lines still refuses them */
		{ "[default]\nkernel = int-4x\n[oops\n", 3, "closing ']'" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(read_text(cases[i].text, CPU), -1);
		refused(cases[i].line, cases[i].reason);
	}
}
END_TEST

/* Lines up to 198 bytes are read whole; inih would split longer ones. */
START_TEST(test_line_length)
{
	char text[512], value[RC4_CONF_MAX_LINE + 2];

	for (int extra = 0; extra <= 1; extra++) {
		size_t n = RC4_CONF_MAX_LINE - strlen("kernel = ") + extra;
		memset(value, 'x', n);
		value[n] = '\0';
		snprintf(text, sizeof text, "[default]\nkernel = %s\n", value);
		if (extra == 0) {
			ck_assert_int_eq(read_text(text, CPU), 0);
			ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, value);
		} else {
			ck_assert_int_eq(read_text(text, CPU), -1);
			refused(2, "longer than 198 bytes");
		}
	}

	char line300[400];
	memset(line300, ';', 300);
	snprintf(line300 + 300, 100, "\n[default]\nkernel = int-4x\n");
	ck_assert_int_eq(read_text(line300, CPU), -1);
	refused(1, "longer than 198 bytes");
}
END_TEST

/* rc4_conf_check on the LEN bytes of TEXT says what rc4_conf_read of
 * them as a file just said (RC, conf.bad_line, why): the writer refuses
 * exactly what the library would. */
static void agrees(const char *text, size_t len, int rc)
{
	char why2[sizeof why];
	int line;

	ck_assert_int_eq(rc4_conf_check(text, len, &line, why2, sizeof why2),
			 rc);
	if (rc != 0) {
		ck_assert_int_eq(line, conf.bad_line);
		ck_assert_str_eq(why2, why);
	}
}

START_TEST(test_binary)
{
	static const char nul[] = "[default]\nkernel = int\0-4x\n";
	uint8_t junk[4096];
	uint64_t seed = 6229;

	put(nul, sizeof nul - 1);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 -1);
	refused(2, "NUL");
	agrees(nul, sizeof nul - 1, -1);

	/* whatever the bytes, refused or read, never a crash; half the
	 * rounds from INI's own characters, to get past the line checks */
	static const char ini[] = "[]=:;# \t\r\n\n\nkernel-81\xff";
	for (int round = 0; round < 400; round++) {
		size_t n = test_below(&seed, sizeof junk);
		test_fill(&seed, junk, n);
		for (size_t i = 0; round % 2 && i < n; i++)
			junk[i] = (uint8_t)ini[junk[i] % (sizeof ini - 1)];
		put((const char *)junk, n);
		int rc = rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why);
		ck_assert(rc == 0 || rc == -1);
		agrees((const char *)junk, n, rc);
	}
}
END_TEST

START_TEST(test_oversized)
{
	size_t n = RC4_CONF_MAX_SIZE + 1;
	char *big = malloc(n);

	ck_assert_ptr_nonnull(big);
	memset(big, '\n', n);
	put(big, n);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 -1);
	refused(0, "larger than");
	agrees(big, n, -1);
	/* a byte less is a file the library takes */
	agrees(big, n - 1, 0);
	free(big);
}
END_TEST

START_TEST(test_not_regular)
{
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 -1);
	refused(0, "a directory");
	ck_assert_int_eq(rmdir(path), 0);

	/* nobody writes to it: opening it must not wait (Check's timeout
	 * would fail the test) */
	ck_assert_int_eq(mkfifo(path, 0644), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 -1);
	refused(0, "a FIFO");
}
END_TEST

START_TEST(test_permissions)
{
	static const mode_t bad[] = { 0664, 0646, 0666, 0620 };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		read_text("[default]\nkernel = int-4x\n", CPU);
		ck_assert_int_eq(chmod(path, bad[i]), 0);
		ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why,
					       sizeof why),
				 -1);
		refused(0, "writable by group or others");
	}
	/* read-only for everyone is fine */
	ck_assert_int_eq(chmod(path, 0444), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 0);

	/* root reads mode 000 files: only an unprivileged run sees EACCES */
	ck_assert_int_eq(chmod(path, 0), 0);
	int rc = rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why);
	if (geteuid() == 0) {
		ck_assert_int_eq(rc, 0);
	} else {
		ck_assert_int_eq(rc, -1);
		refused(0, "cannot open");
	}
}
END_TEST

/* As sshd's StrictModes: the owner must be root or the reader. */
START_TEST(test_owner)
{
	read_text("[default]\nkernel = int-4x\n", CPU);
	if (geteuid() != 0) {
		printf("not root: a file of another owner not checked\n");
		return;
	}
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 -1);
	refused(0, "owned by uid 65534, neither root nor this program's user");
	ck_assert_int_eq(chown(path, 0, 65534), 0); /* the group does not matter */
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 0);
}
END_TEST

/* No directory on the file's resolved path may be writable by others
 * unless sticky (they could swap the file); a link from a safe place does
 * not launder a file in an unsafe one. */
START_TEST(test_directories)
{
	char dir[sizeof path], file[sizeof path + 16], link[sizeof path + 16];

	snprintf(dir, sizeof dir, "%s/d", test_dir);
	snprintf(file, sizeof file, "%s/rc4tune.conf", dir);
	snprintf(link, sizeof link, "%s/link.conf", test_dir);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(symlink(file, link), 0);
	int fd = open(file, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "[default]\nkernel = int-4x\n", 26), 26);
	close(fd);
	static const struct {
		mode_t mode;
		int rc;
	} cases[] = { { 0777, -1 }, { 0757, -1 }, { 01777, 0 }, { 0775, 0 },
		      { 0755, 0 } };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ck_assert_int_eq(chmod(dir, cases[i].mode), 0);
		for (int via_link = 0; via_link < 2; via_link++) {
			int rc = rc4_conf_read(via_link ? link : file, CPU, &conf,
					       NULL, why, sizeof why);
			ck_assert_msg(rc == cases[i].rc, "mode %o: %d (%s)",
				      (unsigned)cases[i].mode, rc, why);
			if (rc != 0)
				refused(0, "is writable by others and not sticky");
		}
	}
}
END_TEST

/* A header with more on its line, which inih drops silently, makes the
 * file refused: an old Mac's CR line ends, a key after the ']'.  A
 * comment there is fine; "key : value" is inih's other form of a key. */
START_TEST(test_header_line)
{
	ck_assert_int_eq(read_text("[default]\rkernel = long-8x\r", CPU), -1);
	refused(1, "text after the section header's ']'");
	ck_assert_int_eq(read_text("; x\n[default] kernel = long-8x\n", CPU), -1);
	refused(2, "text after the section header's ']'");
	ck_assert_int_eq(read_text("[default] ; a comment\nkernel = int-4x\n"
				   "[" CPU "]# another\nkernel : long-8x\n",
				   CPU),
			 0);
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "int-4x");
	ck_assert_str_eq(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name, "long-8x");
}
END_TEST


int main(void)
{
	Suite *s = suite_create("conf_trust");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* Check's 4 s is no hang guard under valgrind beside busy loops. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_line_length);
	tcase_add_test(tc, test_binary);
	tcase_add_test(tc, test_oversized);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_permissions);
	tcase_add_test(tc, test_owner);
	tcase_add_test(tc, test_directories);
	tcase_add_test(tc, test_header_line);
	suite_add_tcase(s, tc);
	return test_run(s);
}
