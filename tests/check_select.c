/* SPDX-License-Identifier: MIT */
/* check_select.c - which kernel the library picks, in which order, and why;
 * the CPUID heuristic on CPU fixtures; the live first use from many
 * threads.  Fixtures (configs, CPUs, kernels that cannot run or fail
 * their self-test) make the results independent of this machine's CPU. */
#include <config.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cpu.h"
#include "heuristic.h"
#include "readfile.h"
#include "section.h"
#include "rc4tune.h"
#include "select.h"
#include "testutil.h"
#include "tuner/cpudump.h"

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

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
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
		write_file(conf_path, text, 0644);
	const struct rc4k_info *k =
		rc4_select(RC4K_SINGLE, &in, trail, sizeof trail);
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

	write_file(conf_path, full, 0664);
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
	{ FX("GenuineIntel", 6, 207), CHAR, "a CPU no rule names" },
	{ FX("GenuineIntel", 18, 1), CHAR, "a CPU no rule names" },
	/* K8: single-core, and dual-core (which sets the HT bit) */
	{ FX("AuthenticAMD", 15, 44), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 15, 35), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 15, 107), WIDE, "AMD family 15" },
	{ FX("AuthenticAMD", 16, 2), CHAR, "a CPU no rule names" }, /* K10 */
	/* a rule per profiled model, the family's best worst case for the
	 * other models (data/profiles, tests/test_rules.py) */
	{ FX("AuthenticAMD", 23, 1), WIDE, "AMD family 23 model 1" },
	{ FX("AuthenticAMD", 23, 49), WIDE, "AMD family 23, other models" },
	{ FX("AuthenticAMD", 25, 1), WIDE, "AMD family 25 model 1" },
	{ FX("AuthenticAMD", 25, 17), CHAR, "AMD family 25 model 17" },
	{ FX("AuthenticAMD", 25, 33), CHAR, "AMD family 25, other models" },
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
	ck_assert_ptr_null(rc4_heuristic_walk(RC4K_SINGLE, NULL, true, rc4k_find,
					      &rule, NULL, NULL));
	ck_assert_str_eq(rule, "CPU not identified: no rule applies");
}
END_TEST

/* --- CPU identification: as Linux's /proc/cpuinfo shows it ------------ */

/* Leaf 1's EAX of real CPUs and what /proc/cpuinfo shows for them: the
 * extended family counts for base family 15 only, the extended model from
 * display family 6 on (Zhaoxin's family 7 too, unlike the Intel SDM's
 * rule), never below 6. */
static const struct {
	const char *vendor;
	uint32_t eax1;
	int family, model;
} signatures[] = {
	{ "GenuineIntel", 0x00000f29, 15, 2 },  /* P4 Northwood */
	{ "GenuineIntel", 0x00000f34, 15, 3 },  /* P4 Prescott */
	{ "GenuineIntel", 0x000006f6, 6, 15 },  /* Core 2 Conroe */
	{ "GenuineIntel", 0x00010676, 6, 23 },  /* Core 2 Penryn */
	{ "GenuineIntel", 0x0000068a, 6, 8 },   /* Pentium III */
	{ "GenuineIntel", 0x000106c2, 6, 28 },  /* Atom */
	{ "GenuineIntel", 0x000c06f2, 6, 207 }, /* Emerald Rapids */
	{ "GenuineIntel", 0x00090672, 6, 151 }, /* Alder Lake */
	{ "GenuineIntel", 0x00000543, 5, 4 },   /* Pentium MMX */
	{ "GenuineIntel", 0x00010543, 5, 4 },   /* family 5: no ext. model */
	{ "AuthenticAMD", 0x00020f32, 15, 35 }, /* K8 dual-core */
	{ "AuthenticAMD", 0x00060fb2, 15, 107 }, /* K8 rev G */
	{ "AuthenticAMD", 0x00100f22, 16, 2 },  /* K10 */
	{ "AuthenticAMD", 0x00a10f11, 25, 17 }, /* Zen 4 Genoa */
	{ "AuthenticAMD", 0x00a60f12, 25, 97 }, /* Zen 4 Raphael */
	{ "AuthenticAMD", 0x00b00f20, 26, 2 },  /* Zen 5 */
	{ "AuthenticAMD", 0x00000622, 6, 2 },   /* K7 */
	{ "CentaurHauls", 0x000307b0, 7, 59 },  /* Zhaoxin */
	{ "  Shanghai  ", 0x000107b5, 7, 27 },  /* Zhaoxin */
	{ "HygonGenuine", 0x00900f02, 24, 0 },  /* Hygon Dhyana */
};

START_TEST(test_decode)
{
	struct rc4_cpu cpu;
	uint32_t v[3];

	for (size_t i = 0; i < sizeof signatures / sizeof signatures[0]; i++) {
		memcpy(v, signatures[i].vendor, 12);
		rc4_cpu_decode(&cpu, v, signatures[i].eax1);
		ck_assert_msg(cpu.family == signatures[i].family &&
				      cpu.model == signatures[i].model,
			      "%08x: family %d model %d, want %d %d",
			      signatures[i].eax1, cpu.family, cpu.model,
			      signatures[i].family, signatures[i].model);
		ck_assert_mem_eq(cpu.vendor, signatures[i].vendor, 12);
	}
}
END_TEST

/* Every base family with both extended fields set (0x5a, 0x9) and base
 * model 3: the extended family counts only for base family 15, the
 * extended model from display family 6 on, as /proc/cpuinfo shows. */
START_TEST(test_decode_every_family)
{
	static const int family[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
					12, 13, 14, 105 };
	static const int model[16] = { 3, 3, 3, 3, 3, 3, 147, 147, 147, 147,
				       147, 147, 147, 147, 147, 147 };
	uint32_t v[3];
	struct rc4_cpu cpu;

	memcpy(v, "AuthenticAMD", 12);
	for (uint32_t f = 0; f < 16; f++) {
		rc4_cpu_decode(&cpu, v, 0x05a90031u | f << 8);
		ck_assert_int_eq(cpu.family, family[f]);
		ck_assert_int_eq(cpu.model, model[f]);
	}
}
END_TEST

/* A raw dump as libcpuid writes it, leaves 0 and 1 only. */
static void write_dump(const char *path, const char *vendor, uint32_t eax1)
{
	uint32_t v[3];
	char buf[256];

	memcpy(v, vendor, 12);
	snprintf(buf, sizeof buf,
		 "basic_cpuid[0]=00000001 %08x %08x %08x\n"
		 "basic_cpuid[1]=%08x 00000800 00000000 178bfbff\n",
		 v[0], v[2], v[1], eax1);
	write_file(path, buf, 0644);
}

/* The tuner's dumps name the CPU as the library names the live one, for
 * vendors libcpuid does not know too. */
START_TEST(test_dump_as_live)
{
	char path[sizeof test_dir + 16];
	const char *why;
	struct rc4_cpu cpu;

	snprintf(path, sizeof path, "%s/dump.raw", test_dir);
	for (size_t i = 0; i < sizeof signatures / sizeof signatures[0]; i++) {
		write_dump(path, signatures[i].vendor, signatures[i].eax1);
		if (cpuid_from_dump(&cpu, path, &why) != 0) {
			ck_assert_msg(strstr(why, "without libcpuid") != NULL,
				      "%s", why);
			return;
		}
		ck_assert_mem_eq(cpu.vendor, signatures[i].vendor, 12);
		ck_assert_int_eq(cpu.family, signatures[i].family);
		ck_assert_int_eq(cpu.model, signatures[i].model);
	}
}
END_TEST

/* --- CPU identification off x86: as Linux's /proc/cpuinfo shows it ---- */

/* MIDR_EL1 values and the section arm64 Linux's /proc/cpuinfo gives them
 * ("CPU implementer", "CPU architecture", "CPU part"). */
static const struct {
	uint64_t midr;
	const char *want;
} midrs[] = {
	{ 0x410fd083, "cpu arm64-0x41 8 0xd08" }, /* Cortex-A72 r0p3 */
	{ 0x413fd0c1, "cpu arm64-0x41 8 0xd0c" }, /* Neoverse N1 r3p1 */
	{ 0x000f0510, "cpu arm64-0x00 8 0x051" }, /* qemu-user's -cpu max */
	{ 0x461f0010, "cpu arm64-0x46 8 0x001" }, /* Fujitsu A64FX */
	{ 0xc00fac30, "cpu arm64-0xc0 8 0xac3" }, /* AmpereOne */
	{ 0xffffffffffffffffull, "cpu arm64-0xff 8 0xfff" },
};

START_TEST(test_midr)
{
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX];

	for (size_t i = 0; i < sizeof midrs / sizeof midrs[0]; i++) {
		rc4_cpu_from_midr(&cpu, midrs[i].midr);
		rc4_section_name(&cpu, section);
		ck_assert_str_eq(section, midrs[i].want);
	}
}
END_TEST

/* /proc/cpuinfo as each architecture's Linux prints it. */
static const char cpuinfo_arm64[] = /* Raspberry Pi 4, arm64 */
	"processor\t: 0\n"
	"BogoMIPS\t: 108.00\n"
	"Features\t: fp asimd evtstrm crc32 cpuid\n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 8\n"
	"CPU variant\t: 0x0\n"
	"CPU part\t: 0xd08\n"
	"CPU revision\t: 3\n"
	"\n"
	"processor\t: 1\n"
	"BogoMIPS\t: 108.00\n"
	"Features\t: fp asimd evtstrm crc32 cpuid\n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 8\n"
	"CPU variant\t: 0x0\n"
	"CPU part\t: 0xd08\n"
	"CPU revision\t: 3\n"
	"\n";
static const char cpuinfo_biglittle[] = /* cpu0 a LITTLE core */
	"processor\t: 0\n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 8\n"
	"CPU variant\t: 0x0\n"
	"CPU part\t: 0xd05\n"
	"CPU revision\t: 0\n"
	"\n"
	"processor\t: 4\n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 8\n"
	"CPU variant\t: 0x1\n"
	"CPU part\t: 0xd0b\n"
	"CPU revision\t: 0\n";
static const char cpuinfo_armhf[] = /* Raspberry Pi 3, 32-bit kernel */
	"processor\t: 0\n"
	"model name\t: ARMv7 Processor rev 4 (v7l)\n"
	"BogoMIPS\t: 38.40\n"
	"Features\t: half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 "
	"idiva idivt vfpd32 lpae evtstrm crc32 \n"
	"CPU implementer\t: 0x41\n"
	"CPU architecture: 7\n"
	"CPU variant\t: 0x0\n"
	"CPU part\t: 0xd03\n"
	"CPU revision\t: 4\n"
	"\n"
	"Hardware\t: BCM2835\n"
	"Revision\t: a02082\n";
static const char cpuinfo_armv5[] = /* SheevaPlug, an old kernel */
	"Processor\t: Feroceon 88FR131 rev 1 (v5l)\n"
	"BogoMIPS\t: 1192.75\n"
	"Features\t: swp half thumb fastmult edsp \n"
	"CPU implementer\t: 0x56\n"
	"CPU architecture: 5TE\n"
	"CPU variant\t: 0x2\n"
	"CPU part\t: 0x131\n"
	"CPU revision\t: 1\n"
	"\n"
	"Hardware\t: Marvell SheevaPlug Reference Board\n";
static const char cpuinfo_s390x[] = /* z15 */
	"vendor_id       : IBM/S390\n"
	"# processors    : 2\n"
	"bogomips per cpu: 3241.00\n"
	"max thread id   : 0\n"
	"features\t: esan3 zarch stfle msa ldisp eimm dfp edat etf3eh "
	"highgprs te vx vxd vxe gs vxe2 vxp sort dflt sie \n"
	"facilities      : 0 1 2 3 4 6 7 8 9 10 12 14 15 16 17 18 19 20\n"
	"cache0          : level=1 type=Data scope=Private size=128K "
	"line_size=256 associativity=8\n"
	"processor 0: version = 00,  identification = 1B1E88,  machine = 8561\n"
	"processor 1: version = 00,  identification = 1B1E88,  machine = 8561\n"
	"\n"
	"cpu number      : 0\n"
	"machine         : 8561\n";
static const char cpuinfo_zvm[] = /* z13, a z/VM guest */
	"vendor_id       : IBM/S390\n"
	"# processors    : 1\n"
	"processor 0: version = FF,  identification = 0133E8,  machine = 2964\n";
static const char cpuinfo_x86[] = /* what qemu-user shows: the host's */
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"cpu family\t: 25\n"
	"model\t\t: 17\n"
	"model name\t: AMD EPYC 9B14\n"
	"\n";

static const struct {
	const char *arch, *text, *want; /* want NULL: no identity */
} cpuinfos[] = {
	{ "arm64", cpuinfo_arm64, "cpu arm64-0x41 8 0xd08" },
	{ "arm64", cpuinfo_biglittle, "cpu arm64-0x41 8 0xd05" },
	{ "arm", cpuinfo_armhf, "cpu arm-0x41 7 0xd03" },
	{ "arm", cpuinfo_armv5, "cpu arm-0x56 5 0x131" },
	/* an armhf program on an arm64 kernel sees the arm64 fields */
	{ "arm", cpuinfo_arm64, "cpu arm-0x41 8 0xd08" },
	{ "s390x", cpuinfo_s390x, "cpu IBM/S390 0 0x8561" },
	{ "s390x", cpuinfo_zvm, "cpu IBM/S390 0 0x2964" },
	{ "arm64", cpuinfo_x86, NULL },
	{ "arm", cpuinfo_x86, NULL },
	{ "s390x", cpuinfo_x86, NULL },
	{ "s390x", cpuinfo_arm64, NULL },
	{ "arm64", cpuinfo_s390x, NULL },
	{ "arm64", "", NULL },
	{ "arm64", "CPU implementer\t: 0x41\n", NULL },    /* no part */
	{ "arm64", "CPU implementer\t: 0x141\nCPU part\t: 0xd08\n", NULL },
	{ "arm64", "CPU implementer\t: 0xzz\nCPU part\t: 0xd08\n", NULL },
	{ "arm64", "CPU implementer\t: \nCPU part\t: 0xd08\n", NULL },
	{ "arm64", "CPU implementers: 0x41\nCPU part\t: 0xd08\n", NULL },
	{ "s390x", "vendor_id : IBM/S390\n", NULL },        /* no machine */
	{ "s390x", "processor 0: machine = 8561\n", NULL }, /* no vendor */
	{ "s390x", "vendor_id : IBM/S390\nprocessor 0: machine = \n", NULL },
	{ "riscv64", cpuinfo_arm64, NULL },
};

START_TEST(test_cpuinfo)
{
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX];
	int rc = rc4_cpu_from_cpuinfo(&cpu, cpuinfos[_i].arch,
				      cpuinfos[_i].text);

	if (cpuinfos[_i].want == NULL) {
		ck_assert_int_eq(rc, -1);
		return;
	}
	ck_assert_int_eq(rc, 0);
	rc4_section_name(&cpu, section);
	ck_assert_str_eq(section, cpuinfos[_i].want);
}
END_TEST

/* arm64: MIDR_EL1 and /proc/cpuinfo name a CPU alike, so the library
 * gets one section whichever it could read. */
START_TEST(test_midr_as_cpuinfo)
{
	struct rc4_cpu a, b;
	char sa[RC4_SECTION_MAX], sb[RC4_SECTION_MAX];

	rc4_cpu_from_midr(&a, 0x410fd083);
	ck_assert_int_eq(rc4_cpu_from_cpuinfo(&b, "arm64", cpuinfo_arm64), 0);
	rc4_section_name(&a, sa);
	rc4_section_name(&b, sb);
	ck_assert_str_eq(sa, sb);
}
END_TEST

/* The last resort: the architecture's name, cleaned as a vendor string. */
START_TEST(test_machine)
{
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX];

	rc4_cpu_from_machine(&cpu, "armv7l");
	rc4_section_name(&cpu, section);
	ck_assert_str_eq(section, "cpu armv7l 0 0");
	rc4_cpu_from_machine(&cpu, "a very long machine name[x]");
	rc4_section_name(&cpu, section);
	ck_assert_str_eq(section, "cpu a_very_long_mac 0 0");
	rc4_cpu_from_machine(&cpu, NULL);
	rc4_section_name(&cpu, section);
	ck_assert_str_eq(section, "cpu unknown 0 0");
}
END_TEST

/* Up to SIZE - 1 bytes of PATH, or NULL. */
static char *slurp(const char *path, char *buf, size_t size)
{
	size_t n;
	bool more;
	char *text = rc4_read_file(path, size - 1, &n, &more);

	if (text == NULL)
		return NULL;
	memcpy(buf, text, n + 1);
	free(text);
	return buf;
}

/* FIELD's value in the /proc/cpuinfo TEXT's first processor, or NULL. */
static const char *cpuinfo(const char *text, const char *field, char *buf,
			   size_t size)
{
	size_t n = strlen(field);

	for (const char *line = text; *line != '\0' && *line != '\n';) {
		size_t len = strcspn(line, "\n");
		const char *colon = memchr(line, ':', len);
		if (strncmp(line, field, n) == 0 && colon != NULL &&
		    strspn(line + n, " \t") == (size_t)(colon - line) - n) {
			const char *v = colon + 1 + (colon[1] == ' ');
			snprintf(buf, size, "%.*s", (int)(line + len - v), v);
			return buf;
		}
		line += len + (line[len] == '\n');
	}
	return NULL;
}

/* The architecture whose /proc/cpuinfo this build reads, as
 * rc4_cpu_from_cpuinfo names it. */
#if defined(__i386__) || defined(__x86_64__)
#define X86 1
#define ARCH "x86"
#else
#define X86 0
#if defined(__aarch64__)
#define ARCH "arm64"
#elif defined(__arm__)
#define ARCH "arm"
#elif defined(__s390x__)
#define ARCH "s390x"
#else
#define ARCH "other"
#endif
#endif

/* The live CPU's identity is what the kernel shows: on x86 /proc/cpuinfo's
 * vendor_id, cpu family and model; elsewhere /proc/cpuinfo's fields as the
 * parser reads them, else (qemu-user shows the host's x86 file) arm64's
 * MIDR_EL1, else uname's machine. */
START_TEST(test_live_cpu)
{
	static char text[16384];
	struct rc4_cpu cpu, shown;
	struct utsname u;
	const char *why = NULL;
	char vendor[64], family[16], model[16];
	char section[RC4_SECTION_MAX], want[RC4_SECTION_MAX];
	bool have = slurp("/proc/cpuinfo", text, sizeof text) != NULL;

	if (X86) {
		if (rc4_cpu_identify(&cpu, &why) != 0) {
			fprintf(stderr, "CPU not identified here (%s)\n", why);
			return;
		}
		ck_assert_str_eq(cpu.source, "CPUID");
		/* qemu-user (.ci/cross) and valgrind answer CPUID
		 * themselves (valgrind: an Intel family 6 model 60 on any
		 * host); /proc/cpuinfo is the host's */
		const char *emulator = getenv("TEST_EMULATOR");
		const char *preload = getenv("LD_PRELOAD");
		if (emulator == NULL && preload != NULL &&
		    strstr(preload, "vgpreload") != NULL)
			emulator = "valgrind";
		if (emulator != NULL) {
			fprintf(stderr, "under %s, CPUID is emulated: [%s] "
					"not compared with /proc/cpuinfo\n",
				emulator, cpu.vendor);
			return;
		}
		if (!have || !cpuinfo(text, "vendor_id", vendor, sizeof vendor) ||
		    !cpuinfo(text, "cpu family", family, sizeof family) ||
		    !cpuinfo(text, "model", model, sizeof model)) {
			fprintf(stderr, "no x86 /proc/cpuinfo to compare with\n");
			return;
		}
		ck_assert_str_eq(cpu.vendor, vendor);
		ck_assert_int_eq(cpu.family, atoi(family));
		ck_assert_int_eq(cpu.model, atoi(model));
		return;
	}
	/* off x86 a CPU always has an identity */
	ck_assert_int_eq(rc4_cpu_identify(&cpu, &why), 0);
	ck_assert_ptr_nonnull(cpu.source);
	rc4_section_name(&cpu, section);
	fprintf(stderr, "this CPU: [%s] (%s)\n", section, cpu.source);
	if (have && rc4_cpu_from_cpuinfo(&shown, ARCH, text) == 0) {
		/* arm64's sysfs and /proc/cpuinfo show cpu0 alike */
		rc4_section_name(&shown, want);
		ck_assert_str_eq(section, want);
	} else if (strcmp(ARCH, "arm64") == 0) {
		/* qemu-user: the emulated MIDR_EL1 */
		ck_assert_str_eq(cpu.source, "MIDR_EL1, read by mrs");
		ck_assert_int_eq(strncmp(section, "cpu arm64-0x", 12), 0);
	} else {
		ck_assert_int_eq(uname(&u), 0);
		snprintf(want, sizeof want, "cpu %.15s 0 0", u.machine);
		ck_assert_str_eq(section, want);
	}
}
END_TEST

/* --- the live library: environment, silence, first use ---------------- */

START_TEST(test_live_env_and_conf)
{
	write_file(conf_path, "[default]\nkernel = int-4x\n", 0644);
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
		write_file(conf_path, text, 0644);
		ck_assert_str_eq(rc4tune_kernel_name(), "long-8x");
		return;
	}
	ck_assert_str_eq(rc4tune_kernel_name(), _i ? "long-1x" : "int-4x");
}
END_TEST

/* What the first use writes on stderr: nothing, unless RC4TUNE_DEBUG=1. */
static void stderr_of_first_use(char *out, size_t size)
{
	char path[sizeof test_dir + 16];

	snprintf(path, sizeof path, "%s/stderr", test_dir);
	fflush(stderr);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	int saved = dup(2);
	ck_assert_int_eq(dup2(fd, 2), 2);
	rc4tune_kernel_name();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t n = pread(fd, out, size - 1, 0);
	ck_assert_int_ge(n, 0);
	out[n] = '\0';
	close(fd);
}

START_TEST(test_debug_trail)
{
	char out[4096];

	setenv("RC4TUNE_CONF", conf_path, 1); /* no such file */
	unsetenv("RC4TUNE_KERNEL");
	if (_i == 0) {
		unsetenv("RC4TUNE_DEBUG");
		stderr_of_first_use(out, sizeof out);
		ck_assert_str_eq(out, "");
	} else {
		setenv("RC4TUNE_DEBUG", "1", 1);
		stderr_of_first_use(out, sizeof out);
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

/* 64 threads make their first call at once: one selection, one kernel. */
START_TEST(test_concurrent_first_use)
{
	static rc4tune_key keys[THREADS];
	pthread_t t[THREADS];
	void *name[THREADS];

	setenv("RC4TUNE_CONF", conf_path, 1);
	setenv("RC4TUNE_KERNEL", "long-8x-chunk", 1);
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, first_use,
						&keys[i]),
				 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], &name[i]), 0);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_str_eq(name[i], "long-8x-chunk");
		ck_assert_ptr_eq(keys[i].kernel,
				 rc4k_find(RC4K_SINGLE, "long-8x-chunk"));
	}
	pthread_barrier_destroy(&start);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("precedence");
	int nbad = sizeof bad / sizeof bad[0];

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_env_first);
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
	tcase_add_test(tc, test_decode);
	tcase_add_test(tc, test_decode_every_family);
	tcase_add_test(tc, test_dump_as_live);
	tcase_add_test(tc, test_midr);
	tcase_add_loop_test(tc, test_cpuinfo, 0,
			    sizeof cpuinfos / sizeof cpuinfos[0]);
	tcase_add_test(tc, test_midr_as_cpuinfo);
	tcase_add_test(tc, test_machine);
	tcase_add_test(tc, test_live_cpu);
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
