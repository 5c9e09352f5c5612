/* SPDX-License-Identifier: MIT */
/* fuzz_merge.c - libFuzzer over the section module's merge
 * (rc4_section_replace, what --generate-conf writes), in memory.  Input:
 * the first byte picks the section (its low 2 bits) and a distance below
 * the library's size limit (the other 6), the second the kernel, and with
 * its top bit set, pads the old file with comment lines in front up to
 * that distance below the limit; the rest is the old file, or with the
 * second byte's bit 0x40 set, the bytes confgen.h builds one from.  Built and run by `make fuzz` only.
 *
 * Besides no crash, leak or UB, it checks that the new section is in the
 * result, that merging again changes nothing, that the writer's check
 * (rc4_conf_check) refuses exactly what the library refuses, and that when
 * the library took the old file it takes the new one and reads the new
 * kernel, unless the new one is past the size limit. */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "conf.h"
#include "tests/helpers/confgen.h"
#include "tuner/section.h"

static char path[] = "/tmp/fuzz_merge.XXXXXX";
static int fd = -1;

static void remove_file(void)
{
	unlink(path);
}

static void must(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_merge: %s\n", what);
		abort();
	}
}

/* What the library reads from BUF for SECTION: 0 and conf, or -1; the
 * writer's check of BUF must say the same. */
static int library_reads(const char *buf, size_t len, const char *section,
			 struct rc4_conf *conf)
{
	char why[512], why2[sizeof why];
	int line;

	must(ftruncate(fd, 0) == 0 &&
		     pwrite(fd, buf, len, 0) == (ssize_t)len,
	     "writing the temporary file");
	int rc = rc4_conf_read(path, section, conf, NULL, why, sizeof why);
	must(rc4_conf_check(buf, len, &line, why2, sizeof why2) == rc &&
		     (rc == 0 || (line == conf->bad_line &&
				  strcmp(why, why2) == 0)),
	     "the writer's check and the library disagree");
	return rc;
}

/* OLD (LEN bytes) after comment lines that bring it to GAP bytes below the
 * library's size limit (none when it is that long already), malloc'ed. */
static char *pad(const char *old, size_t len, size_t gap, size_t *padded)
{
	size_t fill = len + gap < RC4_CONF_MAX_SIZE
			      ? RC4_CONF_MAX_SIZE - gap - len
			      : 0;
	char *buf = malloc(fill + len + 1);

	must(buf != NULL, "out of memory");
	/* lines of 64 bytes, the first one shorter */
	for (size_t at = 0, n = fill % 64 ? fill % 64 : 64; at < fill;
	     at += n, n = 64) {
		memset(buf + at, 'f', n);
		buf[at] = n > 1 ? ';' : '\n';
		buf[at + n - 1] = '\n';
	}
	memcpy(buf + fill, old, len);
	*padded = fill + len;
	return buf;
}

/* The old file the input DATA (SIZE >= 2 bytes) describes for SECTION,
 * *OLDLEN bytes: its bytes, or those confgen.h builds from them (in
 * *BUILT), padded in front (in *PADDED) if asked; *BUILT and *PADDED to
 * be freed. */
static const char *old_file(const uint8_t *data, size_t size,
			    const char *section, size_t *oldlen, char **built,
			    char **padded)
{
	const char *old = (const char *)data + 2;

	*oldlen = size - 2;
	if (data[1] & 0x40) {
		FILE *f = open_memstream(built, oldlen);
		must(f != NULL, "out of memory");
		confgen(f, NULL, (const uint8_t *)old, size - 2, section);
		must(fclose(f) == 0, "out of memory");
		old = *built;
	}
	if (data[1] & 0x80)
		old = *padded = pad(old, *oldlen, (size_t)(data[0] >> 2) * 2,
				    oldlen);
	return old;
}

/* When the library took OLD, it takes ONCE (OLD merged with KERNEL in
 * SECTION) and reads KERNEL from it, unless ONCE is past the size limit. */
static void check_library(const char *old, size_t oldlen, const char *once,
			  size_t len1, const char *section, const char *kernel)
{
	struct rc4_conf conf;

	if (library_reads(old, oldlen, section, &conf) != 0)
		return;
	if (library_reads(once, len1, section, &conf) != 0) {
		must(len1 > RC4_CONF_MAX_SIZE,
		     "the library took the old file but refuses the "
		     "new one");
		return;
	}
	int slot = strcmp(section, "default") == 0 ? RC4_CONF_DEFAULT
						   : RC4_CONF_CPU;
	must(strcmp(conf.value[slot][RC4_KEY_KERNEL].name, kernel) == 0,
	     "the library does not read the kernel just written");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a name with inner blanks, which rc4_section_key keeps byte for
	 * byte */
	static const char *const sections[] = {
		"cpu GenuineIntel 6 207", "cpu AuthenticAMD 15 65",
		"cpu  Shanghai  7 1", "default",
	};
	static const char *const kernels[] = { "int-8x", "char-1x",
					       "long-1x" };
	char text[256];
	size_t len1, len2, oldlen;

	if (size < 2)
		return 0;
	if (fd < 0) {
		fd = mkstemp(path);
		must(fd >= 0, "mkstemp");
		atexit(remove_file);
	}
	const char *section = sections[data[0] % 4];
	const char *kernel = kernels[data[1] % 3];
	char *padded = NULL, *built = NULL;
	const char *old =
		old_file(data, size, section, &oldlen, &built, &padded);
	snprintf(text, sizeof text,
		 "[%s]\n; written by fuzz_merge\nkernel = %s\n", section,
		 kernel);

	char *once = rc4_section_replace(old, oldlen, section, text, "fuzz",
				     &len1);
	must(once != NULL, "merge failed");
	char *twice = rc4_section_replace(once, len1, section, text, "fuzz",
				      &len2);
	must(twice != NULL, "second merge failed");
	/* Line ends follow the first line's; a file that is one line ending
	 * in a lone CR gets "\n" added, so its first line then ends in CRLF
	 * and the next merge writes CRLF: the same to inih, other bytes. */
	bool lone_cr = oldlen > 0 && old[oldlen - 1] == '\r' &&
		       memchr(old, '\n', oldlen) == NULL;
	must(lone_cr || (len1 == len2 && memcmp(once, twice, len1) == 0),
	     "merging the same section again changed the file");
	/* the text, with the old file's line ends */
	must(memmem(once, len1, "kernel = ", 9) != NULL &&
		     memmem(once, len1, kernel, strlen(kernel)) != NULL,
	     "the new kernel line is missing");
	check_library(old, oldlen, once, len1, section, kernel);
	free(once);
	free(twice);
	free(padded);
	free(built);
	return 0;
}
