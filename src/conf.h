/* conf.h - reading rc4tune.conf, for the library and for --check-conf.
 *
 * A file is trusted whole or not at all: any line inih would misread (too
 * long, a NUL byte, a continuation line, a cut section name) or reject
 * makes the whole file ignored, with file:line and the reason. */
#ifndef RC4_CONF_H
#define RC4_CONF_H

#include <stdbool.h>
#include <stddef.h>

/* inih reads lines into a 200-byte buffer (INI_MAX_LINE) that must also
 * hold the '\n' and the NUL: longer lines it silently splits in two. */
#define RC4_CONF_MAX_LINE 198
/* A fleet's profiles are a few hundred bytes per CPU model. */
#define RC4_CONF_MAX_SIZE (256 * 1024)

/* The configured sysconfdir's rc4tune.conf: what the tuner writes. */
#define RC4_CONF_DEFAULT_PATH SYSCONFDIR "/rc4tune.conf"

/* RC4TUNE_CONF (via secure_getenv) if set and not empty, else
 * RC4_CONF_DEFAULT_PATH: what the library reads. */
const char *rc4_conf_path(void);

enum { RC4_CONF_CPU, RC4_CONF_DEFAULT };

/* What a file says for one CPU: the last "kernel" value in its section
 * and in [default] ("" and line 0 when there is none); the same for
 * "batch_kernel" (the batch kernel, kernels/batch.h). */
struct rc4_conf {
	char kernel[2][RC4_CONF_MAX_LINE + 1];
	int line[2];
	char batch[2][RC4_CONF_MAX_LINE + 1];
	int batch_line[2];
	int bad_line; /* a refused file: the line at fault, 0 if none */
};

/* For --check-conf: everything the library silently tolerates or cannot
 * use.  Members may be NULL. */
struct rc4_conf_hooks {
	/* Every "kernel = VALUE" line, SECTION trimmed. */
	void (*kernel)(void *arg, int line, const char *section,
		       const char *value);
	/* A problem at LINE; ERROR for what can never take effect (a
	 * malformed [cpu ...] section), else a warning (unknown key or
	 * section, repeated section or key). */
	void (*note)(void *arg, int line, bool error, const char *msg);
	void *arg;
	/* Every "batch_kernel = VALUE" line, as kernel. */
	void (*batch_kernel)(void *arg, int line, const char *section,
			     const char *value);
};

/* Read PATH and collect what it says for SECTION (a "cpu VENDOR FAMILY
 * MODEL" name, or NULL) and [default].  Returns 0 when read, 1 when PATH
 * does not exist, -1 when the file is refused as a whole: then WHY gets
 * the reason and conf->bad_line the line at fault. */
int rc4_conf_read(const char *path, const char *section, struct rc4_conf *conf,
		  const struct rc4_conf_hooks *hooks, char *why, size_t whysize);

#endif
