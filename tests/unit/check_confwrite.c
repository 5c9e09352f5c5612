/* SPDX-License-Identifier: MIT */
/* check_confwrite.c - the root-run writer (rc4tune(1), LOCKING;
 * rc4tune.conf(5), WRITTEN BY THE TUNER): which paths it refuses before
 * measuring (other users' symlinks, hard links, oversized files, names too
 * long, lock files not the caller's alone), that it writes nothing the
 * library would refuse, and that concurrent runs on one file lose no
 * section. */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "conf.h"
#include "readfile.h"
#include "testutil.h"
#include "tuner/section.h"
#include "tuner/confwrite.h"

#define NOBODY 65534

/* The directory holds nothing: a probe left no file behind.  DIR is an
 * array, whose size bounds the command's. */
#define DIR_EMPTY(dir)                                                      \
	do {                                                                \
		char cmd_[sizeof "test -z \"$(ls -A '')\"" + sizeof(dir)];  \
		snprintf(cmd_, sizeof cmd_, "test -z \"$(ls -A '%s')\"", dir); \
		ck_assert_int_eq(system(cmd_), 0);                          \
	} while (0)

static char path[sizeof test_dir + 300];

static void setup(void)
{
	test_dir_make("check_confwrite");
	chmod(test_dir, 0755); /* other users may enter */
	snprintf(path, sizeof path, "%s/rc4tune.conf", test_dir);
}

static void teardown(void)
{
	test_dir_remove();
}

static void put(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* FILE's bytes (at most SIZE - 1), or "" when it does not exist. */
static const char *slurp(const char *file, char *buf, size_t size)
{
	size_t n = 0;
	bool more;
	char *text = rc4_read_file(file, size - 1, &n, &more);

	memcpy(buf, text ? text : "", n + 1);
	free(text);
	return buf;
}

/* Section SECTION of FILE read back while it is still locked, as the
 * tuner's check does: its kernel, named after the section, or -1. */
static int read_back(const char *file, const char *section)
{
	struct rc4_conf conf;
	char why[RC4_CONF_WHY_MAX];

	int r = rc4_conf_read(file, section, &conf, NULL, why, sizeof why);
	const char *got = conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].name;

	if (r == 0 && strcmp(got, section + 4) == 0)
		return 0;
	fprintf(stderr, "[%s] read back: %s\n", section,
		r != 0 ? why : got[0] ? got : "no kernel");
	return -1;
}

/* FILE with section SECTION's TEXT put in (rc4_section_replace), as the
 * tuner writes: under the lock, again while the file appears meanwhile,
 * and (CHECK) read back before the lock is let go. */
static int write_section(const char *file, const char *section,
			 const char *text, bool check)
{
	struct confwrite w;
	const char *old;
	size_t len, n;
	int r;

	if (confwrite_open(&w, file) != 0)
		return -1;
	if ((r = confwrite_lock(&w)) == 0)
		do {
			char *out = NULL;
			r = confwrite_read(&w, &old, &len);
			if (r == 0 && (out = rc4_section_replace(
					       old, len, section, text, "test",
					       &n)) == NULL)
				r = -1;
			if (r == 0)
				r = confwrite_replace(&w, out, n);
			if (r == 0 && check)
				r = read_back(file, section);
			free(out);
		} while (r == CONFWRITE_AGAIN);
	confwrite_close(&w);
	return r;
}

static int tune_into(const char *file, const char *section,
		     const char *text)
{
	return write_section(file, section, text, false);
}

/* confwrite_open(FILE) as uid NOBODY, in a child (the fixture's cleanup
 * needs root): its result. */
static int open_as_nobody(const char *file)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct confwrite w;
		if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
			_exit(2);
		_exit(confwrite_open(&w, file) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) != 2);
	return WEXITSTATUS(status) == 0 ? 0 : -1;
}

static bool root(const char *what)
{
	if (geteuid() == 0)
		return true;
	printf("not root: %s not checked\n", what);
	return false;
}

/* A symlink another user planted is not followed: /tmp/x.conf ->
 * /root/anything must not be created or rewritten by root. */
START_TEST(test_foreign_symlink)
{
	char target[sizeof path + 16], buf[64];

	if (!root("a symlink owned by another user"))
		return;
	snprintf(target, sizeof target, "%s/victim", test_dir);
	ck_assert_int_eq(symlink(target, path), 0);
	ck_assert_int_eq(lchown(path, NOBODY, NOBODY), 0);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_int_ne(access(target, F_OK), 0); /* not created */

	put(target, "precious\n");
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_str_eq(slurp(target, buf, sizeof buf), "precious\n");
}
END_TEST

/* fs.protected_symlinks' rule, whatever the sysctl says: in a sticky,
 * world-writable directory, a link owned by neither the caller nor the
 * directory's owner is not followed, even a root-owned one. */
START_TEST(test_protected_symlink)
{
	char dir[sizeof path], link[sizeof path + 8], target[sizeof path + 8];

	if (!root("the sticky-directory rule (needs a uid switch)"))
		return;
	snprintf(dir, sizeof dir, "%s/tmp", test_dir);
	snprintf(link, sizeof link, "%s/x.conf", dir);
	snprintf(target, sizeof target, "%s/elsewhere", test_dir);
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_int_eq(chown(dir, 1000, 1000), 0);
	ck_assert_int_eq(symlink(target, link), 0); /* root's */
	ck_assert_int_eq(chmod(test_dir, 0777), 0);
	/* as a third user, neither the link's nor the directory's */
	ck_assert_int_eq(open_as_nobody(link), -1);
	ck_assert_int_ne(access(target, F_OK), 0);
	/* the link's owner is the caller: followed, to a target whose
	 * directory only the caller can write (see test_writable_dirs) */
	ck_assert_int_eq(chmod(test_dir, 0755), 0);
	struct confwrite w;
	ck_assert_int_eq(confwrite_open(&w, link), 0);
	confwrite_close(&w);
}
END_TEST

/* Where another user can write in the target's own directory, root would
 * merge what they planted there (a [pin] for every program), so the run
 * is refused, file or not, whoever runs it (sshd's StrictModes): a sticky
 * directory like /tmp too. */
START_TEST(test_writable_dirs)
{
	char dir[sizeof path], file[sizeof path + 16], buf[64];
	char sub[sizeof dir + sizeof "/sub"];
	const char planted[] = "[pin]\nkernel = char-ref\n";

	snprintf(dir, sizeof dir, "%s/tmp", test_dir);
	snprintf(file, sizeof file, "%s/x.conf", dir);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_int_ne(access(file, F_OK), 0);
	put(file, planted);
	if (geteuid() == 0)
		ck_assert_int_eq(chown(file, NOBODY, NOBODY), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_str_eq(slurp(file, buf, sizeof buf), planted);
	/* group-writable, not sticky: on the way, too */
	ck_assert_int_eq(unlink(file), 0);
	ck_assert_int_eq(chmod(dir, 0775), 0);
	snprintf(file, sizeof file, "%s/sub/x.conf", dir);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_int_ne(access(file, F_OK), 0);
	/* sticky on the way (/tmp/DIR/x.conf), DIR the caller's: written */
	ck_assert_int_eq(chmod(dir, 01777), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), 0);
}
END_TEST

/* Every component of the path is checked, not only its end: a symlinked
 * directory or a directory that another user owns, earlier in the path,
 * sends nothing of root's there; a file another user owns is not merged
 * into root's, even where only root can write. */
START_TEST(test_foreign_on_the_way)
{
	char link[sizeof path + 16], victim[sizeof path + 16];
	char file[sizeof path + 32], buf[64];

	if (!root("another user's directories and links on the way"))
		return;
	snprintf(victim, sizeof victim, "%s/victim", test_dir);
	snprintf(link, sizeof link, "%s/d", test_dir);
	snprintf(file, sizeof file, "%s/x.conf", link);
	ck_assert_int_eq(mkdir(victim, 0755), 0);
	ck_assert_int_eq(symlink(victim, link), 0);
	ck_assert_int_eq(lchown(link, NOBODY, NOBODY), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	DIR_EMPTY(victim);
	/* the same link, root's: followed */
	ck_assert_int_eq(lchown(link, 0, 0), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), 0);
	ck_assert_int_eq(unlink(file), 0);
	/* a directory another user owns */
	ck_assert_int_eq(chown(victim, NOBODY, NOBODY), 0);
	ck_assert_int_eq(tune_into(file, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	DIR_EMPTY(victim);
	/* another user's file in root's directory */
	put(path, "[pin]\nkernel = char-ref\n");
	ck_assert_int_eq(chown(path, NOBODY, NOBODY), 0);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_str_eq(slurp(path, buf, sizeof buf),
			 "[pin]\nkernel = char-ref\n");
}
END_TEST

/* Links owned by root (the fleet case: /etc/rc4tune.conf -> a shared file
 * not there yet) are followed; the link stays a link. */
START_TEST(test_own_symlink)
{
	char target[sizeof path + 16], buf[256];

	snprintf(target, sizeof target, "%s/fleet.conf", test_dir);
	ck_assert_int_eq(symlink("fleet.conf", path), 0);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2",
				   "[cpu X 1 2]\nkernel = int-8x\n"),
			 0);
	ck_assert_str_eq(slurp(target, buf, sizeof buf),
			 "[cpu X 1 2]\nkernel = int-8x\n");
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
}
END_TEST

/* Replacing a file with two names would silently split them. */
START_TEST(test_hard_link)
{
	char other[sizeof path + 16], buf[64];

	snprintf(other, sizeof other, "%s/other-name", test_dir);
	put(path, "[default]\n");
	ck_assert_int_eq(link(path, other), 0);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", "[cpu X 1 2]\n"), -1);
	ck_assert_str_eq(slurp(other, buf, sizeof buf), "[default]\n");
	ck_assert_str_eq(slurp(path, buf, sizeof buf), "[default]\n");
}
END_TEST

/* A 200 MB sparse target is refused as it is, before any reading: no
 * memory for it, no blocks written. */
START_TEST(test_oversized)
{
	struct stat before, after;
	struct confwrite w;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 200 << 20), 0);
	close(fd);
	ck_assert_int_eq(stat(path, &before), 0);
	ck_assert_int_eq(confwrite_open(&w, path), -1);
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_int_eq(after.st_size, before.st_size);
	ck_assert_int_eq(after.st_blocks, before.st_blocks);
	ck_assert_int_eq(after.st_ino, before.st_ino);
}
END_TEST

/* A name that fits NAME_MAX but not with the temporary file's ".NAME.XXXXXX"
 * is refused up front, not after the budget is spent. */
START_TEST(test_name_too_long)
{
	char name[sizeof path];
	struct confwrite w;
	size_t n = strlen(test_dir) + 1;

	memcpy(name, test_dir, n - 1);
	name[n - 1] = '/';
	memset(name + n, 'n', 250);
	name[n + 250] = '\0';
	ck_assert_int_eq(confwrite_open(&w, name), -1);
	ck_assert_int_ne(access(name, F_OK), 0);
}
END_TEST

/* A directory that takes no file is refused before measuring: the probe
 * there leaves nothing behind. */
START_TEST(test_directory_refuses)
{
	char dir[sizeof path], file[sizeof path + 16];
	struct confwrite w;

	snprintf(dir, sizeof dir, "%s/ro", test_dir);
	snprintf(file, sizeof file, "%s/rc4tune.conf", dir);
	ck_assert_int_eq(mkdir(dir, 0555), 0);
	/* permission bits do not stop root */
	if (geteuid() == 0)
		ck_assert_int_eq(open_as_nobody(file), -1);
	else
		ck_assert_int_eq(confwrite_open(&w, file), -1);
	ck_assert_int_ne(access(file, F_OK), 0);
	DIR_EMPTY(dir);
}
END_TEST

/* The lock file ".rc4tune.conf.lock" is the caller's alone, or the run
 * is refused before measuring: another user's (they could hold it), a
 * symlink, one others may open, one with two names.  Without it, or with
 * the caller's own, the run goes on, and leaves no lock file behind. */
START_TEST(test_lock_file)
{
	char lock[sizeof path + 32], other[sizeof path + 32], buf[64];
	struct confwrite w;

	snprintf(lock, sizeof lock, "%s/.rc4tune.conf.lock", test_dir);
	snprintf(other, sizeof other, "%s/elsewhere", test_dir);
	put(path, "[default]\n");
	put(other, "");
	ck_assert_int_eq(symlink(other, lock), 0);
	ck_assert_int_eq(confwrite_open(&w, path), -1);
	ck_assert_int_eq(unlink(lock), 0);

	ck_assert_int_eq(link(other, lock), 0);
	ck_assert_int_eq(chmod(lock, 0600), 0);
	ck_assert_int_eq(confwrite_open(&w, path), -1);
	ck_assert_int_eq(unlink(lock), 0);

	put(lock, ""); /* 0644: others could open it and hold it */
	ck_assert_int_eq(confwrite_open(&w, path), -1);
	ck_assert_int_eq(chmod(lock, 0600), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(lock, NOBODY, NOBODY), 0);
		ck_assert_int_eq(confwrite_open(&w, path), -1);
		ck_assert_int_eq(chown(lock, 0, 0), 0);
	}
	/* the caller's own, left by a killed run: taken and removed */
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", "[cpu X 1 2]\n"), 0);
	ck_assert_int_ne(access(lock, F_OK), 0);
	ck_assert_str_eq(slurp(path, buf, sizeof buf),
			 "[default]\n\n[cpu X 1 2]\n");
}
END_TEST

/* A file the library takes, that the new section would push past its
 * size limit: refused, the old file byte for byte as it was. */
START_TEST(test_merged_too_big)
{
	static const char line[] = "; a fleet's comments and sections\n";
	enum { LINE = sizeof line - 1, N = RC4_CONF_MAX_SIZE / LINE };
	static char big[RC4_CONF_MAX_SIZE + 1], after[sizeof big];
	int line_no;

	for (int i = 0; i < N; i++)
		memcpy(big + i * LINE, line, LINE);
	ck_assert_int_eq(rc4_conf_check(big, N * LINE, &line_no, after,
					sizeof after),
			 0);
	put(path, big);
	const char text[] = "[cpu X 1 2]\nkernel = int-8x\n";
	ck_assert_int_gt(N * LINE + sizeof text, RC4_CONF_MAX_SIZE);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", text), -1);
	ck_assert_str_eq(slurp(path, after, sizeof after), big);
	/* one section that fits is written */
	big[RC4_CONF_MAX_SIZE - sizeof text - 1] = '\0';
	put(path, big);
	ck_assert_int_eq(tune_into(path, "cpu X 1 2", text), 0);
}
END_TEST

enum { WRITERS = 8, ROUNDS = 10 };

/* Writers at once, each with its own CPU's section (a fleet file on shared
 * storage), and each reading back its own kernel: none is lost, none sees
 * another's write instead of its own. */
START_TEST(test_concurrent_writers)
{
	pid_t pid[WRITERS];

	put(path, "[default]\nkernel = int-8x\n");
	for (int i = 0; i < WRITERS; i++) {
		ck_assert_int_ge(pid[i] = fork(), 0);
		if (pid[i] > 0)
			continue;
		int bad = 0;
		for (int r = 0; r < ROUNDS; r++) {
			char section[32], text[96];
			/* the kernel named after the section, to read back */
			snprintf(section, sizeof section, "cpu W%d 6 %d", i, r);
			snprintf(text, sizeof text, "[%s]\nkernel = W%d 6 %d\n",
				 section, i, r);
			bad |= write_section(path, section, text, true) != 0;
		}
		_exit(bad);
	}
	for (int i = 0; i < WRITERS; i++) {
		int status;
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "writer %d failed (wait status 0x%x)", i, status);
	}
	for (int i = 0; i < WRITERS; i++)
		for (int r = 0; r < ROUNDS; r++) {
			char section[32];
			struct rc4_conf conf;
			char why[RC4_CONF_WHY_MAX];

			snprintf(section, sizeof section, "cpu W%d 6 %d", i, r);
			ck_assert_int_eq(rc4_conf_read(path, section, &conf,
						       NULL, why, sizeof why),
					 0);
			ck_assert_msg(conf.value[RC4_CONF_CPU][RC4_KEY_KERNEL].line
					      != 0,
				      "[%s] lost", section);
		}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("confwrite");
	TCase *tc = tcase_create("writer");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_foreign_symlink);
	tcase_add_test(tc, test_protected_symlink);
	tcase_add_test(tc, test_own_symlink);
	tcase_add_test(tc, test_writable_dirs);
	tcase_add_test(tc, test_foreign_on_the_way);
	tcase_add_test(tc, test_hard_link);
	tcase_add_test(tc, test_oversized);
	tcase_add_test(tc, test_name_too_long);
	tcase_add_test(tc, test_directory_refuses);
	tcase_add_test(tc, test_lock_file);
	tcase_add_test(tc, test_merged_too_big);
	tcase_add_test(tc, test_concurrent_writers);
	suite_add_tcase(s, tc);
	return test_run(s);
}
