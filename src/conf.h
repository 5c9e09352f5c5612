/* SPDX-License-Identifier: MIT */
/* conf.h - reading rc4tune.conf, for the selection and --check-conf.  A
 * file is trusted whole or not at all: any line inih would misread (too
 * long, a NUL byte, a continuation line, a cut section name, text after a
 * header) or reject makes the whole file ignored, with file:line and the
 * reason; so does an inih not built as assumed (inibuild.h). */
#ifndef RC4_CONF_H
#define RC4_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include "confkeys.h"
#include "kernels/kernel.h"
#include "inibuild.h" /* RC4_CONF_MAX_LINE, RC4_CONF_MAX_SECTION */

/* A fleet's profiles are a few hundred bytes per CPU model. */
#define RC4_CONF_MAX_SIZE (256 * 1024)

/* The configured sysconfdir's rc4tune.conf: what the tuner writes. */
#define RC4_CONF_DEFAULT_PATH SYSCONFDIR "/rc4tune.conf"

/* RC4TUNE_CONF (secure_getenv) if not empty, else RC4_CONF_DEFAULT_PATH. */
const char *rc4_conf_path(void);

/* The sections that speak for this CPU, first to last in precedence:
 * the sysadmin's machine-wide [pin], which no tuner run writes; this
 * CPU's [cpu ...]; [default]. */
enum { RC4_CONF_PIN, RC4_CONF_CPU, RC4_CONF_DEFAULT, RC4_CONF_SECTIONS };

/* Which of them the section SEC (a key as rc4_section_key makes it) is,
 * CPU_SECTION being this CPU's name (NULL: not identified); -1 if none. */
int rc4_conf_slot(const char *sec, const char *cpu_section);

/* What a file says for one CPU: each key's last value (rc4_keys) in
 * [pin], this CPU's section and [default]. */
struct rc4_conf {
	struct rc4_conf_value value[RC4_CONF_SECTIONS][RC4_KEYS];
	/* How many other CPUs' [cpu ...] sections give each kind a kernel: a
	 * file tuned on another machine. */
	int others[RC4K_KINDS];
	int bad_line; /* a refused file: the line at fault, 0 if none */
};

/* What --check-conf sees of a file accepted so far; members may be NULL. */
struct rc4_conf_hooks {
	/* Every line, numbered from 1, LEN bytes without its '\n'. */
	void (*line)(void *arg, int num, const char *text, size_t len);
	/* Every KEY = VALUE that inih reports, in SECTION (trimmed; "" before
	 * the first header). */
	void (*entry)(void *arg, int num, const char *section, const char *key,
		      const char *value);
	void *arg;
};

/* Room for the reason rc4_conf_read gives for refusing a file. */
#define RC4_CONF_WHY_MAX 512

/* What BUF's LEN bytes say for SECTION (a CPU's section name, or NULL),
 * [pin] and [default], checked as a file's bytes are (size, lines, inih).
 * 0, or -1 when refused whole: WHY and conf->bad_line say why and where. */
int rc4_conf_parse(const char *buf, size_t len, const char *section,
		   struct rc4_conf *conf, const struct rc4_conf_hooks *hooks,
		   char *why, size_t whysize);

/* rc4_conf_parse of PATH if trusted: 0, 1 when PATH does not exist, -1
 * when refused (as there; bad_line 0 when the file itself is refused). */
int rc4_conf_read(const char *path, const char *section, struct rc4_conf *conf,
		  const struct rc4_conf_hooks *hooks, char *why, size_t whysize);

/* Whether rc4_conf_read would read PATH (a regular file within the size
 * limit, trusted: owner, mode, directories), for bytes read otherwise and
 * then given to rc4_conf_parse.  0, or -1 with WHY set. */
int rc4_conf_trusted(const char *path, char *why, size_t whysize);

/* PATH's bytes as rc4_conf_read reads them, malloc'ed, NUL-terminated,
 * *LEN of them; NULL when it does not exist or is refused. */
char *rc4_conf_load(const char *path, size_t *len);

/* rc4_conf_parse's verdict on BUF's LEN bytes, which a writer checks
 * before it replaces a file: 0, or -1 with WHY and *LINE (0: the file). */
int rc4_conf_check(const char *buf, size_t len, int *line, char *why,
		   size_t whysize);

#endif
