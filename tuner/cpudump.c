/* SPDX-License-Identifier: MIT */
/* cpudump.c - libcpuid reads the dump, the library's own decoding names
 * the CPU: a dump gets the live CPU's section, for vendors libcpuid does
 * not know too. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cpudump.h"
#include "kernels/cpufeat.h"

#define DUMP_MAX (1024 * 1024) /* dumps are a few kilobytes */

static char reason[256];

/* The dump at PATH, open and checked to be a regular file of sane size
 * (a FIFO would block, /dev/zero would never end); -1 with *WHY set. */
static int open_dump(const char *path, const char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(reason, sizeof reason, "%s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(reason, sizeof reason, "not a regular file");
	else if (st.st_size > DUMP_MAX)
		snprintf(reason, sizeof reason,
			 "larger than %d bytes: not a CPUID dump", DUMP_MAX);
	else
		return fd;
	*why = reason;
	if (fd >= 0)
		close(fd);
	return -1;
}

#ifdef HAVE_LIBCPUID
#include <libcpuid.h>

/* libcpuid prints a warning on stderr for every line of a dump it does
 * not understand (one per line of /etc/passwd): keep the first only, to
 * say why a file is not a dump. */
static char first_warning[160];

static void keep_first_warning(const char *msg)
{
	/* "Warning: file 'F', line N: ...": from "line", as the caller
	 * names the file */
	const char *from = strstr(msg, "line ");

	if (first_warning[0] != '\0')
		return;
	snprintf(first_warning, sizeof first_warning, "%.*s",
		 (int)strcspn(from ? from : msg, "\n"), from ? from : msg);
	/* the line quoted may be any bytes: printable ASCII only */
	for (char *c = first_warning; *c != '\0'; c++)
		if ((unsigned char)*c < ' ' || (unsigned char)*c > '~')
			*c = '?';
}

int cpuid_from_dump(struct rc4_cpu *cpu, unsigned *feats, const char *path,
		    const char **why)
{
	struct cpu_raw_data_t raw;
	char fdpath[64];
	int fd = open_dump(path, why);

	if (fd < 0)
		return -1;
	/* libcpuid opens by name: the file just checked, not whatever PATH
	 * names by now */
	snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", fd);
	first_warning[0] = '\0';
	libcpuid_warn_fn_t old = cpuid_set_warn_function(keep_first_warning);
	int rc = cpuid_deserialize_raw_data(&raw, fdpath);
	cpuid_set_warn_function(old);
	close(fd);
	if (rc != 0) {
		snprintf(reason, sizeof reason, "%s", cpuid_error());
		*why = reason;
		return -1;
	}
	/* leaf 0 (the highest leaf, the vendor) is in every dump libcpuid
	 * writes; the reader leaves what it did not find zero */
	static const uint32_t absent[4];
	if (memcmp(raw.basic_cpuid[0], absent, sizeof absent) == 0) {
		snprintf(reason, sizeof reason,
			 "not a libcpuid raw CPUID dump (%s)",
			 first_warning[0] ? first_warning
					  : "no basic_cpuid[0] line");
		*why = reason;
		return -1;
	}
	/* leaf 0: EBX, EDX, ECX spell the vendor; libcpuid keeps registers
	 * in the order EAX, EBX, ECX, EDX */
	uint32_t vendor[3] = { raw.basic_cpuid[0][1], raw.basic_cpuid[0][3],
			       raw.basic_cpuid[0][2] };
	rc4_cpu_decode(cpu, vendor, raw.basic_cpuid[1][0]);
	/* leaf 1's ECX, leaf 7's EBX where the highest leaf reaches it */
	if (feats != NULL)
		*feats = rc4k_feats_from_cpuid(
			raw.basic_cpuid[1][2],
			raw.basic_cpuid[0][0] >= 7 ? raw.basic_cpuid[7][1] : 0);
	return 0;
}

#else

int cpuid_from_dump(struct rc4_cpu *cpu, unsigned *feats, const char *path,
		    const char **why)
{
	int fd = open_dump(path, why);

	memset(cpu, 0, sizeof *cpu);
	if (feats != NULL)
		*feats = 0;
	if (fd < 0)
		return -1;
	close(fd);
	*why = "built without libcpuid, which reads CPUID dumps";
	return -1;
}

#endif
