/* SPDX-License-Identifier: MIT */
/* fuzz_conf.c - libFuzzer over the library's config reader and selection:
 * the input is a config file (or, after a first byte 'G', the bytes
 * confgen.h builds one from), read as the library reads it (no hooks) and
 * as --check-conf does (its hooks), then given to the selection of every
 * kind for a fixed CPU.  Built and run by `make fuzz` only.
 *
 * Besides no crash, leak or UB, it checks that both reads agree, that a
 * refused file yields nothing, and that the selection takes the pinned
 * kernel, else this CPU's, whenever the file is read and names one that
 * runs here. */
#include <config.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "conf.h"
#include "tests/helpers/confgen.h"
#include "select.h"
#include "tuner/checkconf.h"

#define SECTION "cpu GenuineIntel 6 207"

static char path[] = "/tmp/fuzz_conf.XXXXXX";
static int fd = -1;

static void remove_file(void)
{
	unlink(path);
}

static void must(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_conf: %s\n", what);
		abort();
	}
}

/* --check-conf's notes: each has a line and a message. */
static void on_note(void *arg, int line, bool error, const char *msg)
{
	must(line >= 0 && msg[0] != '\0', "note without a message");
	(void)arg;
	(void)error;
}

/* The input DATA written to the temporary file: its bytes, or after a
 * first byte 'G' those confgen.h builds from the rest. */
static void write_input(const uint8_t *data, size_t size)
{
	char *built = NULL;
	size_t len = 0;

	if (size > 0 && data[0] == 'G') {
		FILE *f = open_memstream(&built, &len);
		must(f != NULL, "out of memory");
		confgen(f, NULL, data + 1, size - 1, SECTION);
		must(fclose(f) == 0, "out of memory");
		data = (const uint8_t *)built;
		size = len;
	}
	must(ftruncate(fd, 0) == 0 &&
		     pwrite(fd, data, size, 0) == (ssize_t)size,
	     "writing the input");
	free(built);
}

/* The selection of every kind for CPU takes a kernel that may run: the
 * pinned one, else this CPU's, whenever the file was read (RC 0) and
 * PLAIN names one that runs here. */
static void check_selection(const struct rc4_cpu *cpu,
			    const struct rc4_conf *plain, int rc)
{
	char trail[RC4_TRAIL_MAX];
	struct rc4_select_in in = { .conf = path, .cpu = cpu,
				    .find = rc4k_find };

	for (int kind = 0; kind < RC4K_KINDS; kind++) {
		const struct rc4k_info *k =
			rc4_select((enum rc4k_kind)kind, &in, trail, sizeof trail,
				   NULL);
		must(k != NULL && rc4k_refused(k) == NULL,
		     "selection chose a kernel that may not run");
		must(memchr(trail, '\0', sizeof trail) != NULL,
		     "trail not a string");
		/* [pin] first, then this CPU's section */
		for (int slot = RC4_CONF_PIN; slot <= RC4_CONF_CPU; slot++) {
			const struct rc4_keys_how how = { true, NULL, NULL };
			struct rc4_keys_use u;
			rc4_keys_judge(plain->value[slot], &how, &u);
			const struct rc4k_info *want = rc == 0 ? u.k[kind] : NULL;
			if (want == NULL)
				continue;
			must(k == want, "selection skipped the pinned or this "
					"CPU's valid kernel");
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct rc4_cpu cpu = { .vendor = "GenuineIntel",
					    .family = 6, .model = 207 };
	struct rc4_conf plain, checked;
	char why[512];

	if (fd < 0) {
		fd = mkstemp(path); /* mode 0600: the reader's owner rule */
		must(fd >= 0, "mkstemp");
		atexit(remove_file);
	}
	write_input(data, size);

	int rc = rc4_conf_read(path, SECTION, &plain, NULL, why, sizeof why);
	int rc2 = checkconf(path, SECTION, on_note, NULL, &checked, why,
			    sizeof why);
	must(rc == 0 || rc == -1, "status of an existing file");
	must(rc == rc2 && memcmp(&plain, &checked, sizeof plain) == 0,
	     "the library and --check-conf read the file differently");
	static const struct rc4_conf nothing = { 0 };
	if (rc != 0)
		must(memcmp(plain.value, nothing.value, sizeof plain.value) == 0,
		     "a refused file gave a kernel");
	check_selection(&cpu, &plain, rc);
	return 0;
}
