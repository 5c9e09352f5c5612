/* SPDX-License-Identifier: MIT */
/* check_conf.c - reading rc4tune.conf, trusted whole or not at all
 * (rc4tune.conf(5), WHEN THE FILE IS IGNORED): what is used, what is
 * refused as a whole (and at which line), what --check-conf hears about. */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"
#include "cpu.h"
#include "sectionname.h"
#include "testutil.h"
#include "tuner/checkconf.h"

static char path[sizeof test_dir + 32];
static struct rc4_conf conf;
static char why[512];

static void setup(void)
{
	test_dir_make("check_conf");
	snprintf(path, sizeof path, "%s/rc4tune.conf", test_dir);
}

static void teardown(void)
{
	test_dir_remove();
}

/* Write LEN bytes of DATA as the config, mode 0644. */
static void put(const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, 0644), 0);
	close(fd);
}

static int read_text(const char *text, const char *section)
{
	put(text, strlen(text));
	return rc4_conf_read(path, section, &conf, NULL, why, sizeof why);
}

#define CPU "cpu GenuineIntel 6 207"

START_TEST(test_sections)
{
	ck_assert_int_eq(read_text("; comment\n# comment too\n"
				   "[default]\nkernel = int-4x ; inline\n\n"
				   "[" CPU "]\r\nkernel=long-8x\r\n"
				   "[cpu AuthenticAMD 25 17]\nkernel = char-1x\n",
				   CPU),
			 0);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, "int-4x");
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].line, 4);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].name, "long-8x");
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line, 7);

	/* no section for this CPU: only [default] */
	ck_assert_int_eq(read_text("[default]\nkernel = int-4x\n", CPU), 0);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].name, "");
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line, 0);
	/* CPU not identified: no section applies */
	ck_assert_int_eq(read_text("[" CPU "]\nkernel = int-4x\n", NULL), 0);
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line, 0);
}
END_TEST

/* Trimmed, then exactly "cpu VENDOR FAMILY MODEL" with single spaces. */
START_TEST(test_section_match)
{
	ck_assert_int_eq(read_text("[  " CPU "\t]\nkernel = int-4x\n", CPU), 0);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].name, "int-4x");
	ck_assert_int_eq(read_text("[cpu  GenuineIntel 6 207]\nkernel = x\n"
				   "[cpu GenuineIntel 6 0207]\nkernel = y\n"
				   "[CPU GenuineIntel 6 207]\nkernel = z\n",
				   CPU),
			 0);
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line, 0);
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
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].name, "long-8x");
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line, 7);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, "b");
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
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].line + conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].line,
			 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, NULL, why, sizeof why),
			 1);
}
END_TEST

/* A refused file: -1, no kernel kept from lines before the fault, the
 * line at fault and the reason given. */
static void refused(int line, const char *reason)
{
	ck_assert_int_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].line, 0);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, "");
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
			ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, value);
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
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, "int-4x");
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_CPU].name, "long-8x");
}
END_TEST

/* What --check-conf is told, and the reader's entry hook. */
struct heard {
	int n;
	struct {
		int line;
		bool error;
		char msg[256];
	} notes[16];
	int kernels[16];
	int nkernels;
};

static void on_note(void *arg, int line, bool error, const char *msg)
{
	struct heard *h = arg;
	ck_assert_int_lt(h->n, 16);
	h->notes[h->n].line = line;
	h->notes[h->n].error = error;
	snprintf(h->notes[h->n].msg, sizeof h->notes[h->n].msg, "%s", msg);
	h->n++;
}

/* The reader's entry hook: the lines of "kernel" keys. */
static void on_entry(void *arg, int line, const char *section,
		     const char *key, const char *value)
{
	struct heard *h = arg;
	(void)section;
	(void)value;
	ck_assert_int_lt(h->nkernels, 16);
	if (strcmp(key, "kernel") == 0)
		h->kernels[h->nkernels++] = line;
}

static void heard(const struct heard *h, int i, int line, bool error,
		  const char *part)
{
	ck_assert_int_gt(h->n, i);
	ck_assert_int_eq(h->notes[i].line, line);
	ck_assert_int_eq(h->notes[i].error, error);
	ck_assert_msg(strstr(h->notes[i].msg, part) != NULL,
		      "note %d \"%s\" lacks \"%s\"", i, h->notes[i].msg, part);
}

START_TEST(test_hooks)
{
	struct heard h = { 0 };
	struct rc4_conf_hooks hooks = { NULL, on_entry, &h };

	static const char text[] = "orphan = 1\n"              /* 1 */
				   "[default]\nkernel = int-4x\n" /* 2, 3 */
				   "colour = blue\n"             /* 4 */
				   "[cpu GenuineIntel six 207]\n" /* 5 */
				   "kernel = int-8x\n"           /* 6 */
				   "[future]\nkernel = long-8x\n" /* 7, 8 */
				   "[default]\nkernel = int-8x\n"; /* 9, 10 */

	put(text, sizeof text - 1);
	ck_assert_int_eq(checkconf(path, CPU, on_note, &h, &conf, why,
				   sizeof why),
			 0);
	heard(&h, 0, 1, false, "outside any section");
	heard(&h, 1, 1, false, "unknown key \"orphan\"");
	heard(&h, 2, 4, false, "unknown key \"colour\"");
	/* at the header's line, not its first key's */
	heard(&h, 3, 5, true, "malformed section [cpu GenuineIntel six 207]");
	heard(&h, 4, 7, false, "unknown section [future]");
	heard(&h, 5, 9, false, "section [default] repeated (first at line 2)");
	heard(&h, 6, 10, false, "kernel set again in [default]");
	ck_assert_int_eq(h.n, 7);
	/* the reader's entry hook sees every key, kernel keys among them */
	ck_assert_int_eq(rc4_conf_read(path, CPU, &conf, &hooks, why,
				       sizeof why),
			 0);
	ck_assert_int_eq(h.nkernels, 4);
	ck_assert_int_eq(h.kernels[0], 3);
	ck_assert_int_eq(h.kernels[3], 10);
	ck_assert_str_eq(conf.value[RC4K_SINGLE][RC4_CONF_DEFAULT].name, "int-8x");
}
END_TEST

/* Sections without keys are checked too: inih only tells of a section
 * with its first key. */
START_TEST(test_headers_without_keys)
{
	struct heard h = { 0 };

	static const char text[] = "[default]\n"                 /* 1 */
				   "[cpu AuthenticAMD 025 17]\n" /* 2 */
				   "; [commented]\n"            /* 3 */
				   "  [ foo ]  ; why\n"         /* 4 */
				   "[default]\n";               /* 5 */

	put(text, sizeof text - 1);
	ck_assert_int_eq(checkconf(path, CPU, on_note, &h, &conf, why,
				   sizeof why),
			 0);
	heard(&h, 0, 2, true, "malformed section [cpu AuthenticAMD 025 17]");
	heard(&h, 1, 4, false, "unknown section [foo]");
	heard(&h, 2, 5, false, "section [default] repeated (first at line 1)");
	ck_assert_int_eq(h.n, 3);
}
END_TEST

/* What rc4_section_name writes on every architecture is a well-formed
 * [cpu ...] section; near misses are not (they could never match). */
START_TEST(test_cpu_section_forms)
{
	struct heard h = { 0 };
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX], text[2048];
	size_t len = 0;
	static const uint32_t intel[3] = { 0x756e6547, 0x49656e69,
					   0x6c65746e };

	rc4_cpu_decode(&cpu, intel, 0x000c06f2);
	rc4_section_name(&cpu, section);
	len += snprintf(text + len, sizeof text - len, "[%s]\n", section);
	rc4_cpu_from_midr(&cpu, 0x410fd083);
	rc4_section_name(&cpu, section);
	len += snprintf(text + len, sizeof text - len, "[%s]\n", section);
	ck_assert_int_eq(rc4_cpu_from_cpuinfo(&cpu, "arm",
					      "CPU implementer\t: 0x41\n"
					      "CPU architecture: 7\n"
					      "CPU part\t: 0xc09\n"),
			 0);
	rc4_section_name(&cpu, section);
	len += snprintf(text + len, sizeof text - len, "[%s]\n", section);
	ck_assert_int_eq(rc4_cpu_from_cpuinfo(&cpu, "s390x",
					      "vendor_id : IBM/S390\n"
					      "processor 0: version = FF,  "
					      "identification = 0133E8,  "
					      "machine = 2964\n"),
			 0);
	rc4_section_name(&cpu, section);
	len += snprintf(text + len, sizeof text - len, "[%s]\n", section);
	rc4_cpu_from_machine(&cpu, "riscv64");
	rc4_section_name(&cpu, section);
	len += snprintf(text + len, sizeof text - len, "[%s]\n", section);
	len += snprintf(text + len, sizeof text - len,
			"[cpu x 0x0 0xffffffff]\n" /* 6 */
			"[cpu arm64-0x41 8 0xD08]\n" /* 7 */
			"[cpu arm64-0x41 8 0x]\n"
			"[cpu arm64-0x41 08 0xd08]\n"
			"[cpu x 0 0x123456789]\n"
			"[cpu x 0 0X1]\n");
	put(text, len);
	ck_assert_int_eq(checkconf(path, CPU, on_note, &h, &conf, why,
				   sizeof why),
			 0);
	heard(&h, 0, 7, true, "malformed section [cpu arm64-0x41 8 0xD08]");
	heard(&h, 1, 8, true, "malformed section [cpu arm64-0x41 8 0x]");
	heard(&h, 2, 9, true, "malformed section [cpu arm64-0x41 08 0xd08]");
	heard(&h, 3, 10, true, "malformed section [cpu x 0 0x123456789]");
	heard(&h, 4, 11, true, "malformed section [cpu x 0 0X1]");
	ck_assert_int_eq(h.n, 5);
}
END_TEST

/* As many sections as fit in a file, none with a key, each repeated
 * once: every header is tracked, through a hash table (a linear search a
 * header took seconds for such a file under sanitizers). */
static void count_repeats(void *arg, int line, bool error, const char *msg)
{
	int *repeats = arg;

	(void)line;
	(void)error;
	if (strstr(msg, "repeated") != NULL)
		++*repeats;
}

START_TEST(test_many_sections)
{
	enum { N = 18000 }; /* "[4650]\n" at most, twice: within 256 KiB */
	size_t size = RC4_CONF_MAX_SIZE, len = 0;
	char *text = malloc(size);
	int repeats = 0;

	ck_assert_ptr_nonnull(text);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < N; i++) {
			int n = snprintf(text + len, size - len, "[%x]\n", i);
			ck_assert_int_lt(n, (int)(size - len));
			len += (size_t)n;
		}
	put(text, len);
	free(text);
	ck_assert_int_eq(checkconf(path, CPU, count_repeats, &repeats, &conf,
				   why, sizeof why),
			 0);
	ck_assert_int_eq(repeats, N);
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
	/* Check's 4 s is no hang guard under valgrind: test_many_sections
	 * took 1.4 s there alone, past 4 s beside busy loops. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sections);
	tcase_add_test(tc, test_section_match);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_other_sections);
	tcase_add_test(tc, test_empty_and_missing);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_line_length);
	tcase_add_test(tc, test_binary);
	tcase_add_test(tc, test_oversized);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_permissions);
	tcase_add_test(tc, test_owner);
	tcase_add_test(tc, test_directories);
	tcase_add_test(tc, test_header_line);
	tcase_add_test(tc, test_hooks);
	tcase_add_test(tc, test_headers_without_keys);
	tcase_add_test(tc, test_cpu_section_forms);
	tcase_add_test(tc, test_many_sections);
	tcase_add_test(tc, test_path);
	suite_add_tcase(s, tc);
	return test_run(s);
}
