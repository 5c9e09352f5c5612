/* SPDX-License-Identifier: MIT */
/* check_checkconf.c - what rc4tune --check-conf hears (rc4tune(1),
 * OPTIONS, --check-conf): the library's own reader, its hooks told of
 * every line and key, sections without keys, every architecture's section
 * name well-formed, as many sections as fit in a file. */
#include <config.h>

#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conffile.h"
#include "cpu.h"
#include "sectionname.h"
#include "tuner/checkconf.h"

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
	ck_assert_str_eq(conf.value[RC4_CONF_DEFAULT][RC4_KEY_KERNEL].name, "int-8x");
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
 * once: every header is tracked, in a tree by name (a linear search a
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


int main(void)
{
	Suite *s = suite_create("checkconf");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* Check's 4 s is no hang guard under valgrind: test_many_sections
	 * took 1.4 s there alone, past 4 s beside busy loops. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hooks);
	tcase_add_test(tc, test_headers_without_keys);
	tcase_add_test(tc, test_cpu_section_forms);
	tcase_add_test(tc, test_many_sections);
	suite_add_tcase(s, tc);
	return test_run(s);
}
