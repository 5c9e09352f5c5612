/* SPDX-License-Identifier: MIT */
/* check_cpu.c - the CPU's identity as the library and the tuner compute it
 * (src/cpu.c; rc4tune.conf(5), CPU IDENTITY): CPUID decoded as Linux's
 * /proc/cpuinfo shows it, a raw dump read as the live CPU, and off x86 the
 * MIDR, /proc/cpuinfo and the machine's name; then this machine's own
 * identity against its /proc/cpuinfo. */
#include <config.h>

#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "cpu.h"
#include "readfile.h"
#include "sectionname.h"
#include "testutil.h"
#include "tuner/cpudump.h"

static void setup(void)
{
	test_dir_make("check_cpu");
}

static void teardown(void)
{
	test_dir_remove();
}

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
	test_write_file(path, buf, 0644);
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
		if (cpuid_from_dump(&cpu, NULL, path, &why) != 0) {
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
	/* each field's smallest value (qemu-user's implementer is 0) */
	{ "arm64", "CPU implementer\t: 0x00\nCPU architecture: 8\n"
		   "CPU part\t: 0x000\n", "cpu arm64-0x00 8 0x000" },
	/* each field's largest value, and one past it */
	{ "arm64", "CPU implementer\t: 0xff\nCPU architecture: 8\n"
		   "CPU part\t: 0xfff\n", "cpu arm64-0xff 8 0xfff" },
	{ "arm64", "CPU implementer\t: 0x100\nCPU architecture: 8\n"
		   "CPU part\t: 0xfff\n", NULL },
	{ "arm64", "CPU implementer\t: 0xff\nCPU architecture: 8\n"
		   "CPU part\t: 0x1000\n", NULL },
	{ "s390x", "vendor_id : IBM/S390\nprocessor 0: machine = FFFF\n",
	  "cpu IBM/S390 0 0xffff" },
	{ "s390x", "vendor_id : IBM/S390\nprocessor 0: machine = 10000\n",
	  NULL },
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

int main(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("identity");

	tcase_add_checked_fixture(tc, setup, teardown);
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
	return test_run(s);
}
