/* SPDX-License-Identifier: MIT */
/* check_select.c - which kernel the library picks, in which order, and why
 * (librc4tune(3), SELECTION); the CPUID heuristic on CPU fixtures
 * (heuristic_cases: a new CPU rule gets a case here); the live first use
 * from many threads.  The CPU's identity is check_cpu.c's.  Fixtures
 * (configs, CPUs, kernels that cannot run or fail their self-test) make the
 * results independent of this machine's CPU. */
#include <config.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cpu.h"
#include "heuristic.h"
#include "sectionname.h"
#include "rc4tune.h"
#include "select.h"
#include "testutil.h"

static char conf_path[sizeof test_dir + 16];

static void setup(void)
{
	test_dir_make("check_select");
	snprintf(conf_path, sizeof conf_path, "%s/rc4tune.conf", test_dir);
}

static void teardown(void)
{
	test_dir_remove();
}

/* --- fixture kernels, found by name through the selection's find ------ */

static int never(void)
{
	return 0;
}

static int broken_setups; /* how often the broken kernel was keyed */

static void broken_set_key(struct rc4k_state *st, const uint8_t *key,
			   size_t len)
{
	broken_setups++;
	rc4k_single(rc4k_kinds[RC4K_SINGLE].fallback)->set_key(st, key, len);
}

/* One wrong bit per call: every known answer fails. */
static void broken_crypt(struct rc4k_state *st, size_t len, const uint8_t *in,
			 uint8_t *out)
{
	rc4k_single(rc4k_kinds[RC4K_SINGLE].fallback)->crypt(st, len, in, out);
	if (len > 0)
		out[0] ^= 1;
}

static const struct rc4k fx_unusable = {
	.info = { .name = "fx-unusable", .summary = "cannot run here",
		  .usable = never, .kind = RC4K_SINGLE, .width = 4 },
	.set_key = broken_set_key, .crypt = broken_crypt,
};
static const struct rc4k fx_broken = {
	.info = { .name = "fx-broken", .summary = "fails its self-test",
		  .kind = RC4K_SINGLE, .width = 4 },
	.set_key = broken_set_key, .crypt = broken_crypt,
};

/* Names that find() maps to the fixtures: tests may point them at real
 * kernel names, e.g. to make the heuristic's choice unusable. */
static const char *unusable_name = "fx-unusable", *broken_name = "fx-broken";
/* A real kernel's name that find() does not know, as in a build without
 * it (tests set it). */
static const char *hidden_name = "";

static const struct rc4k_info *find(enum rc4k_kind kind, const char *name)
{
	if (strcmp(name, hidden_name) == 0)
		return NULL;
	if (kind == RC4K_SINGLE && strcmp(name, unusable_name) == 0)
		return &fx_unusable.info;
	if (kind == RC4K_SINGLE && strcmp(name, broken_name) == 0)
		return &fx_broken.info;
	return rc4k_find(kind, name);
}

static const char *fallback(void)
{
	return rc4k_kinds[RC4K_SINGLE].fallback->name;
}

/* --- CPU fixtures: vendor, display family and model ------------------- */

#define FX(v, f, m) { .vendor = v, .family = f, .model = m }

static const struct rc4_cpu p4 = FX("GenuineIntel", 15, 2);
/* dual-core K8: its rule names a portable kernel */
static const struct rc4_cpu k8 = FX("AuthenticAMD", 15, 35);

static char trail[RC4_TRAIL_MAX];

/* Select with RC4TUNE_KERNEL=ENV (or unset), the config TEXT (NULL: no
 * file), on CPU (NULL: not identified). */
static const char *pick(const char *env, const char *text,
			const struct rc4_cpu *cpu)
{
	struct rc4_select_in in = {
		.env = { [RC4K_SINGLE] = env }, .conf = conf_path, .cpu = cpu,
		.cpu_why = "fixture: no CPUID", .find = find,
	};
	if (text != NULL)
		test_write_file(conf_path, text, 0644);
	const struct rc4k_info *k =
		rc4_select(RC4K_SINGLE, &in, trail, sizeof trail, NULL);
	ck_assert_ptr_nonnull(k);
	return k->name;
}

static void said(const char *part)
{
	ck_assert_msg(strstr(trail, part) != NULL, "trail lacks \"%s\":\n%s",
		      part, trail);
}

/* Every step set, each with its own kernel. */
static const char full[] = "[default]\nkernel = int-4x\n"
			   "[cpu GenuineIntel 15 2]\nkernel = long-8x\n";

/* A trail in a buffer of any size: written within it, ended, and whole
 * where it fits (a batch call's, whose lines carry a tag).  The bytes past
 * the buffer are checked in one assertion: each of Check's is a message
 * down a pipe, and one a byte took this test past Check's 4 s under
 * valgrind. */
START_TEST(test_trail_cut)
{
	static char buf[RC4_TRAIL_MAX + 16];
	struct rc4_select_in in = {
		.conf = conf_path, .cpu = &p4, .cpu_why = "fixture: no CPUID",
		.find = find,
	};
	test_write_file(conf_path, full, 0644);
	rc4_select(RC4K_SET_KEYS, &in, trail, sizeof trail, NULL);
	size_t len = strlen(trail);
	ck_assert_uint_gt(len, 0);
	for (size_t size = 1; size <= len + 1; size++) {
		memset(buf, 0x5a, sizeof buf);
		rc4_select(RC4K_SET_KEYS, &in, buf, size, NULL);
		size_t i = size;
		while (i < sizeof buf && buf[i] == 0x5a)
			i++;
		ck_assert_msg(i == sizeof buf, "size %zu: byte %zu written",
			      size, i);
		ck_assert_msg(memchr(buf, '\0', size) != NULL,
			      "size %zu: not ended", size);
	}
	ck_assert_str_eq(buf, trail);
}
END_TEST

START_TEST(test_env_first)
{
	ck_assert_str_eq(pick("long-1x", full, &p4), "long-1x");
	said("chosen: long-1x (RC4TUNE_KERNEL)");
}
END_TEST

/* A step whose kernel is unknown, cannot run here or fails its self-test
 * is skipped, at every step, and the trail says why. */
static const struct {
	const char *name, *why;
} bad[] = {
	{ "no-such-kernel", "unknown kernel" },
	{ "fx-unusable", "this CPU cannot run it" },
	{ "fx-broken", "it failed its self-test" },
};

static char text[512];

START_TEST(test_env_skipped)
{
	ck_assert_str_eq(pick(bad[_i].name, full, &p4), "long-8x");
	said(bad[_i].why);
	said("chosen: long-8x (config line 4 [cpu GenuineIntel 15 2])");
}
END_TEST

START_TEST(test_cpu_section_skipped)
{
	snprintf(text, sizeof text,
		 "[default]\nkernel = int-4x\n"
		 "[cpu GenuineIntel 15 2]\nkernel = %s\n",
		 bad[_i].name);
	ck_assert_str_eq(pick(NULL, text, &p4), "int-4x");
	said(bad[_i].why);
	said("chosen: int-4x (config line 2 [default])");
}
END_TEST

START_TEST(test_default_skipped)
{
	snprintf(text, sizeof text, "[default]\nkernel = %s\n", bad[_i].name);
	ck_assert_str_eq(pick(NULL, text, &p4), "char-1x");
	said(bad[_i].why);
	said("chosen: char-1x (heuristic)");
}
END_TEST

/* The heuristic's own kernel made unusable or broken: the default. */
START_TEST(test_heuristic_skipped)
{
	if (_i == 0)
		unusable_name = "char-1x";
	else
		broken_name = "char-1x";
	ck_assert_str_eq(pick(NULL, NULL, &p4), fallback());
	said(_i == 0 ? "this CPU cannot run it" : "failed its self-test");
	said("(portable default)");
}
END_TEST

/* The heuristic's kernel not in this build (x86-64 assembly elsewhere):
 * the trail says so, and the portable default applies. */
START_TEST(test_heuristic_not_in_build)
{
	hidden_name = "char-1x";
	ck_assert_str_eq(pick(NULL, NULL, &p4), fallback());
	said("heuristic: Intel family 15 (Pentium 4): ");
	said("heuristic: \"char-1x\": not in this build; none left\n");
	said("chosen: int-8x (portable default)");
	hidden_name = "";
}
END_TEST

START_TEST(test_other_cpu_section)
{
	ck_assert_str_eq(pick(NULL, full, &k8), "int-4x");
	said("cpu: AuthenticAMD 15 35");
	said("no kernel in [cpu AuthenticAMD 15 35]");
	ck_assert_str_eq(pick(NULL, "[cpu GenuineIntel 15 2]\nkernel = int-4x\n",
			      &k8),
			 "int-8x");
	said("chosen: int-8x (heuristic)");
}
END_TEST

START_TEST(test_cpu_unknown)
{
	/* not identified: no section applies, [default] still does */
	ck_assert_str_eq(pick(NULL, full, NULL), "int-4x");
	said("cpu: not identified (fixture: no CPUID)");
	ck_assert_str_eq(pick(NULL, "", NULL), fallback());
	said("heuristic: CPU not identified");
	said("(portable default)");

	/* identified, but no vendor's rule: the features decide, the first
	 * of the any-CPU rule's kernels that this build has and this CPU
	 * runs (AVX-512, else SSE4.1, ...) */
	static const struct rc4_cpu via = FX("CentaurHauls", 6, 15);
	static const char *const any[] = { "char-ring4-avx512",
					   "long-16x-sse41", "long-16x-sse2",
					   "int-8x" };
	const char *want = fallback();
	for (size_t i = sizeof any / sizeof *any; i-- > 0;) {
		const struct rc4k_info *k = rc4k_find(RC4K_SINGLE, any[i]);
		if (k && rc4k_usable(k))
			want = any[i];
	}
	ck_assert_str_eq(pick(NULL, NULL, &via), want);
	said("heuristic: a CPU no rule names: ");
}
END_TEST

START_TEST(test_config_missing_or_refused)
{
	ck_assert_str_eq(pick(NULL, NULL, &p4), "char-1x");
	said("no such file");

	test_write_file(conf_path, full, 0664);
	ck_assert_str_eq(pick(NULL, NULL, &p4), "char-1x");
	said("whole file ignored: writable by group or others");

	ck_assert_str_eq(pick(NULL, "[default]\nkernel = int-4x\n"
				    "[cpu GenuineIntel 15 2]\nkernel long-8x\n",
			      &p4),
			 "char-1x");
	said("whole file ignored: line 4:");
}
END_TEST

START_TEST(test_config_last_wins)
{
	ck_assert_str_eq(pick(NULL,
			      "[cpu GenuineIntel 15 2]\nkernel = long-8x\n"
			      "[default]\nkernel = int-4x\n"
			      "[cpu GenuineIntel 15 2]\nkernel = int-16x\n"
			      "kernel = char-4x\n",
			      &p4),
			 "char-4x");
}
END_TEST

/* At most one self-test per kernel per process. */
START_TEST(test_selftest_once)
{
	ck_assert_str_eq(pick("fx-broken", NULL, &k8), "int-8x");
	int after_first = broken_setups;
	ck_assert_int_gt(after_first, 0);
	ck_assert_str_eq(pick("fx-broken", NULL, &k8), "int-8x");
	ck_assert_str_eq(rc4k_refused(&fx_broken.info),
			 "it failed its self-test");
	ck_assert_int_eq(broken_setups, after_first);
}
END_TEST

/* Section names stay three words after "cpu" whatever blanks the CPUID
 * vendor string carries. */
START_TEST(test_section_names)
{
	static const struct {
		struct rc4_cpu cpu;
		const char *want;
	} cases[] = {
		{ FX("GenuineIntel", 6, 207), "cpu GenuineIntel 6 207" },
		{ FX("  Shanghai  ", 7, 59), "cpu Shanghai 7 59" },
		{ FX("VIA VIA VIA ", 6, 15), "cpu VIA_VIA_VIA 6 15" },
		{ FX("Evil]\n;x=y", 6, 1), "cpu Evil___x_y 6 1" },
		/* arm64 (Neoverse N1), arm (Cortex-A53), s390x (z15): the
		 * part and the machine type in hex, as /proc/cpuinfo */
		{ { "arm64-0x41", 8, 0xd0c, 3, NULL }, "cpu arm64-0x41 8 0xd0c" },
		{ { "arm-0x41", 7, 0xd03, 3, NULL }, "cpu arm-0x41 7 0xd03" },
		{ { "IBM/S390", 0, 0x8561, 4, NULL }, "cpu IBM/S390 0 0x8561" },
		{ FX("riscv64", 0, 0), "cpu riscv64 0 0" },
	};
	char section[RC4_SECTION_MAX];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		rc4_section_name(&cases[i].cpu, section);
		ck_assert_str_eq(section, cases[i].want);
	}
}
END_TEST

/* --- the heuristic table, on CPU fixtures ----------------------------- */

/* The state layout a rule must give: 8-bit, or 32/64-bit ("int-"/"long-"),
 * and the rule, by the start of its description. */
enum layout { CHAR, WIDE };

static const struct {
	struct rc4_cpu cpu;
	enum layout layout;
	const char *rule;
} heuristic_cases[] = {
	/* vendor, display family and model */
	{ FX("GenuineIntel", 15, 2), CHAR, "Intel family 15" },	/* P4 */
	{ FX("GenuineIntel", 15, 3), CHAR, "Intel family 15" },	/* P4 HT */
	{ FX("GenuineIntel", 15, 6), CHAR, "Intel family 15" },	/* P4 D */
	{ FX("GenuineIntel", 6, 15), CHAR, "Intel Core 2" },	/* Conroe */
	{ FX("GenuineIntel", 6, 22), CHAR, "Intel Core 2" },	/* Merom-L */
	{ FX("GenuineIntel", 6, 23), CHAR, "Intel Core 2" },	/* Penryn */
	{ FX("GenuineIntel", 6, 29), CHAR, "Intel Core 2" },	/* Dunnington */
	{ FX("GenuineIntel", 6, 8), WIDE, "Intel P6" },	/* P III */
	{ FX("GenuineIntel", 6, 13), WIDE, "Intel P6" },	/* P M */
	/* Nehalem and later Intel cores: no profile, so no rule */
	{ FX("GenuineIntel", 6, 26), CHAR, "a CPU no rule names" },
	{ FX("GenuineIntel", 6, 207), CHAR, "Intel family 6 model 207" },
	{ FX("GenuineIntel", 18, 1), CHAR, "a CPU no rule names" },
	/* K8: single-core, and dual-core (which sets the HT bit) */
	{ FX("AuthenticAMD", 15, 44), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 15, 35), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 15, 107), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 16, 2), CHAR, "a CPU no rule names" }, /* K10 */
	/* a rule per profiled model, the family's best worst case for the
	 * other models (data/profiles, tests/rules/test_rules.py) */
	{ FX("AuthenticAMD", 23, 1), WIDE, "AMD family 23 model 1" },
	{ FX("AuthenticAMD", 23, 49), WIDE, "AMD family 23, other models" },
	{ FX("AuthenticAMD", 25, 1), WIDE, "AMD family 25 model 1" },
	{ FX("AuthenticAMD", 25, 17), CHAR, "AMD family 25 model 17" },
	{ FX("AuthenticAMD", 25, 33), WIDE, "AMD family 25, other models" },
	{ FX("AuthenticAMD", 26, 2), CHAR, "AMD family 26 model 2" },
	/* later AMD models and families: the newest AMD family's rule */
	{ FX("AuthenticAMD", 26, 68), CHAR, "AMD family 26, other models" },
	{ FX("AuthenticAMD", 27, 0), CHAR, "AMD family 26, other models" },
	{ FX("AuthenticAMD", 40, 99), CHAR, "AMD family 26, other models" },
	/* no vendor's rule */
	{ FX("CentaurHauls", 6, 15), CHAR, "a CPU no rule names" }, /* VIA */
	{ FX("HygonGenuine", 24, 0), CHAR, "a CPU no rule names" },
	{ FX("arm64-0x41", 8, 0xd0c), CHAR, "a CPU no rule names" },
	{ FX("", 0, 0), CHAR, "a CPU no rule names" },
};

/* What the library takes from a rule's kernels: the first this build has,
 * this CPU runs and that passes its self-test, else the portable default;
 * the trail says why each before it was passed over. */
START_TEST(test_heuristic_table)
{
	const char *rule;
	struct rc4_cpu cpu = heuristic_cases[_i].cpu;
	const char *const *names = rc4_heuristic_rule(RC4K_SINGLE, &cpu, &rule);

	ck_assert_ptr_nonnull(names);
	ck_assert_msg(strncmp(rule, heuristic_cases[_i].rule,
			      strlen(heuristic_cases[_i].rule)) == 0,
		      "%s %d %d: rule \"%s\"", cpu.vendor, cpu.family,
		      cpu.model, rule);
	bool is_char = strncmp(names[0], "char-", 5) == 0;
	bool is_wide = strncmp(names[0], "int-", 4) == 0 ||
		       strncmp(names[0], "long-", 5) == 0;
	ck_assert_msg(heuristic_cases[_i].layout == CHAR ? is_char : is_wide,
		      "%s %d %d: %s", cpu.vendor, cpu.family, cpu.model,
		      names[0]);

	const char *got = pick(NULL, NULL, &cpu), *expect = NULL;
	for (const char *const *n = names; *n && expect == NULL; n++) {
		const struct rc4k_info *k = rc4k_find(RC4K_SINGLE, *n);
#ifdef RC4TUNE_X86_64
		ck_assert_msg(k != NULL, "%s: not in the x86-64 build", *n);
#endif
		const char *why = k ? rc4k_refused(k) : "not in this build";
		char line[128];
		snprintf(line, sizeof line, "heuristic: \"%s\": %s;", *n, why);
		if (why == NULL)
			expect = *n;
		else
			said(line);
	}
	ck_assert_str_eq(got, expect ? expect : fallback());
	said(expect ? "(heuristic)" : "(portable default)");
}
END_TEST

/* A rule degrades: its first kernel unusable here, the next takes over
 * (or, down the list, the portable default), and the trail says so. */
START_TEST(test_heuristic_next)
{
	static const struct rc4_cpu zen5 = FX("AuthenticAMD", 26, 2);
	const char *const *names = rc4_heuristic_rule(RC4K_SINGLE, &zen5, NULL);

	unusable_name = names[0];
	const char *got = pick(NULL, NULL, &zen5);
	char line[128];
	snprintf(line, sizeof line, "heuristic: \"%s\": this CPU cannot run it; "
				    "the next", names[0]);
	said(line);
	ck_assert_str_ne(got, names[0]);
	unusable_name = "fx-unusable";
}
END_TEST

START_TEST(test_heuristic_no_cpu)
{
	const char *rule;
	ck_assert_ptr_null(rc4_heuristic_walk(RC4K_SINGLE, NULL, NULL, true,
					      rc4k_find, &rule, NULL, NULL));
	ck_assert_str_eq(rule, "CPU not identified: no rule applies");
}
END_TEST

/* --- the live library: environment, silence, first use ---------------- */

START_TEST(test_live_env_and_conf)
{
	test_write_file(conf_path, "[default]\nkernel = int-4x\n", 0644);
	setenv("RC4TUNE_CONF", conf_path, 1);
	unsetenv("RC4TUNE_KERNEL");
	unsetenv("RC4TUNE_DEBUG");
	if (_i == 1)
		setenv("RC4TUNE_KERNEL", "long-1x", 1);

	/* a section for this CPU, if identified, would beat [default] */
	struct rc4_cpu cpu;
	const char *why;
	if (_i == 0 && rc4_cpu_identify(&cpu, &why) == 0) {
		char sec[RC4_SECTION_MAX];
		rc4_section_name(&cpu, sec);
		snprintf(text, sizeof text,
			 "[default]\nkernel = int-4x\n[%s]\nkernel = long-8x\n",
			 sec);
		test_write_file(conf_path, text, 0644);
		ck_assert_str_eq(rc4tune_kernel_name(), "long-8x");
		return;
	}
	ck_assert_str_eq(rc4tune_kernel_name(), _i ? "long-1x" : "int-4x");
}
END_TEST

/* What FN writes on stderr. */
static void stderr_of(void (*fn)(void), char *out, size_t size)
{
	char path[sizeof test_dir + 16];

	snprintf(path, sizeof path, "%s/stderr", test_dir);
	fflush(stderr);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	int saved = dup(2);
	ck_assert_int_eq(dup2(fd, 2), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, out, size - 1, 0);
	ck_assert_int_ge(n, 0);
	out[n] = '\0';
	close(fd);
}

static void first_use_here(void)
{
	rc4tune_kernel_name();
}

/* What the first use writes on stderr: nothing, unless RC4TUNE_DEBUG=1. */
START_TEST(test_debug_trail)
{
	char out[4096];

	setenv("RC4TUNE_CONF", conf_path, 1); /* no such file */
	unsetenv("RC4TUNE_KERNEL");
	if (_i == 0) {
		unsetenv("RC4TUNE_DEBUG");
		stderr_of(first_use_here, out, sizeof out);
		ck_assert_str_eq(out, "");
	} else {
		setenv("RC4TUNE_DEBUG", "1", 1);
		stderr_of(first_use_here, out, sizeof out);
		ck_assert_ptr_nonnull(strstr(out, "librc4tune: RC4TUNE_KERNEL: "
						  "not set\n"));
		ck_assert_ptr_nonnull(strstr(out, "no such file\n"));
		ck_assert_ptr_nonnull(strstr(out, "librc4tune: chosen: "));
	}
}
END_TEST

enum { THREADS = 64 };
static pthread_barrier_t start;

static void *first_use(void *arg)
{
	rc4tune_key *key = arg;

	pthread_barrier_wait(&start);
	ck_assert_int_eq(rc4tune_set_key(key, "Key", 3), 0);
	return (void *)rc4tune_kernel_name();
}

static rc4tune_key keys[THREADS];
static void *name[THREADS];

static void first_use_at_once(void)
{
	pthread_t t[THREADS];

	ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, first_use,
						&keys[i]),
				 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], &name[i]), 0);
	pthread_barrier_destroy(&start);
}

/* 64 threads make their first call at once: one selection (its trail
 * once, a "chosen" line a kind), one kernel. */
START_TEST(test_concurrent_first_use)
{
	static char out[1 << 16];
	int chosen = 0;

	setenv("RC4TUNE_CONF", conf_path, 1);
	setenv("RC4TUNE_KERNEL", "long-8x-chunk", 1);
	setenv("RC4TUNE_DEBUG", "1", 1);
	stderr_of(first_use_at_once, out, sizeof out);
	for (const char *p = out; (p = strstr(p, " chosen: "));
	     p++)
		chosen++;
	ck_assert_msg(chosen == RC4K_KINDS, "%d kernels chosen, not %d:\n%s",
		      chosen, RC4K_KINDS, out);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_str_eq(name[i], "long-8x-chunk");
		ck_assert_ptr_eq(keys[i].kernel,
				 rc4k_find(RC4K_SINGLE, "long-8x-chunk"));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("precedence");
	int nbad = sizeof bad / sizeof bad[0];

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_env_first);
	tcase_add_test(tc, test_trail_cut);
	tcase_add_loop_test(tc, test_env_skipped, 0, nbad);
	tcase_add_loop_test(tc, test_cpu_section_skipped, 0, nbad);
	tcase_add_loop_test(tc, test_default_skipped, 0, nbad);
	tcase_add_loop_test(tc, test_heuristic_skipped, 0, 2);
	tcase_add_test(tc, test_heuristic_not_in_build);
	tcase_add_test(tc, test_other_cpu_section);
	tcase_add_test(tc, test_cpu_unknown);
	tcase_add_test(tc, test_config_missing_or_refused);
	tcase_add_test(tc, test_config_last_wins);
	tcase_add_test(tc, test_selftest_once);
	suite_add_tcase(s, tc);

	tc = tcase_create("heuristic");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_section_names);
	tcase_add_loop_test(tc, test_heuristic_table, 0,
			    sizeof heuristic_cases / sizeof heuristic_cases[0]);
	tcase_add_test(tc, test_heuristic_next);
	tcase_add_test(tc, test_heuristic_no_cpu);
	suite_add_tcase(s, tc);

	tc = tcase_create("live");
	tcase_add_checked_fixture(tc, setup, teardown);
	/* Check's 4 s is no hang guard under valgrind: the threads of
	 * test_concurrent_first_use took 2.8 s there alone, past 4 s beside
	 * busy loops. */
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_live_env_and_conf, 0, 2);
	tcase_add_loop_test(tc, test_debug_trail, 0, 2);
	tcase_add_test(tc, test_concurrent_first_use);
	suite_add_tcase(s, tc);
	return test_run(s);
}
