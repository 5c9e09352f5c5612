/* SPDX-License-Identifier: MIT */
/* conf.c - read rc4tune.conf with inih, all or nothing (conf.h).  inih
 * parses the bytes from memory, one line a call so that line numbers are
 * known, only after prescan found nothing it would misread. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"
#include "iniline.h"
#include "readfile.h"
#include "sectionname.h"

const char *rc4_conf_path(void)
{
	const char *p = secure_getenv("RC4TUNE_CONF");
	return p != NULL && *p != '\0' ? p : RC4_CONF_DEFAULT_PATH;
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)    ? "a directory"
	       : S_ISFIFO(mode) ? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISCHR(mode)  ? "a character device"
	       : S_ISBLK(mode)  ? "a block device"
				: "not a regular file";
}

/* Whether the file at PATH, open as FD with stat ST, may speak for this
 * process, as sshd's StrictModes decides: owned by root or by us, written
 * by no one else, and in directories no one else can swap it out of.
 * Returns 0, or -1 with WHY set. */
static int trusted(const char *path, const struct stat *st, char *why,
		   size_t whysize)
{
	struct stat ds;

	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		snprintf(why, whysize, "owned by uid %u, neither root nor this "
				       "program's user",
			 (unsigned)st->st_uid);
		return -1;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, whysize, "writable by group or others (mode %04o)",
			 (unsigned)(st->st_mode & 07777));
		return -1;
	}
	/* The directories of the file itself, whatever links led there: the
	 * resolved name must still be the file opened. */
	char *real = realpath(path, NULL);
	if (real == NULL || stat(real, &ds) != 0 || ds.st_dev != st->st_dev ||
	    ds.st_ino != st->st_ino) {
		snprintf(why, whysize, "%s", real ? "changed while being read"
						  : "cannot resolve its path");
		free(real);
		return -1;
	}
	for (char *slash; (slash = strrchr(real, '/')) != NULL;) {
		slash[slash == real] = '\0'; /* keep "/" itself */
		if (stat(real, &ds) == 0 && (ds.st_mode & S_IWOTH) &&
		    !(ds.st_mode & S_ISVTX)) {
			snprintf(why, whysize, "its directory %.*s is writable "
					       "by others and not sticky "
					       "(mode %04o)",
				 (int)(whysize / 2), real,
				 (unsigned)(ds.st_mode & 07777));
			free(real);
			return -1;
		}
		if (slash == real)
			break;
	}
	free(real);
	return 0;
}

static void too_big(char *why, size_t whysize)
{
	snprintf(why, whysize, "larger than %d bytes", RC4_CONF_MAX_SIZE);
}

/* Whether the file PATH, with stat ST, is one the library reads: a
 * regular file within the size limit that it trusts.  0, or -1 with WHY
 * set. */
static int file_ok(const char *path, const struct stat *st, char *why,
		   size_t whysize)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, whysize, "%s, not a regular file",
			 file_kind(st->st_mode));
	else if (st->st_size > RC4_CONF_MAX_SIZE)
		too_big(why, whysize); /* not even read */
	else
		return trusted(path, st, why, whysize);
	return -1;
}

/* The file's bytes, or NULL: with *MISSING set when it does not exist,
 * else with WHY saying why it is refused. */
static char *load(const char *path, size_t *len, int *missing, char *why,
		  size_t whysize)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	bool more = false;

	if (fd < 0) {
		if (errno == ENOENT)
			*missing = 1;
		else
			snprintf(why, whysize, "cannot open: %s",
				 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, whysize, "cannot stat: %s", strerror(errno));
	} else if (file_ok(path, &st, why, whysize) == 0) {
		buf = rc4_read_fd(fd, (size_t)st.st_size, len, &more);
		if (buf == NULL)
			snprintf(why, whysize, "cannot read: %s",
				 strerror(errno));
	}
	close(fd);
	/* one byte more than fstat said: the file changed under us */
	if (more) {
		snprintf(why, whysize, "changed while being read");
		free(buf);
		buf = NULL;
	}
	return buf;
}

int rc4_conf_trusted(const char *path, char *why, size_t whysize)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		snprintf(why, whysize, "cannot stat: %s", strerror(errno));
		return -1;
	}
	return file_ok(path, &st, why, whysize);
}

/* The first line inih would misread, or 0; *WHAT says how. */
static int prescan(const char *buf, size_t len, const char **what)
{
	struct rc4_ini_text t = { 0 };
	bool after_key = false;

	while (rc4_ini_next(buf, len, &t)) {
		const struct rc4_ini_line *l = &t.l;
		bool head = l->kind == RC4_INI_HEADER;
		bool text = l->kind != RC4_INI_BLANK &&
			    l->kind != RC4_INI_COMMENT;

		*what = memchr(t.p, '\0', t.n) != NULL
				? "a NUL byte: not a text file"
			: t.n > RC4_CONF_MAX_LINE ? "line longer than 198 bytes"
			: text && l->indented && after_key
				? "indented line: it would continue the "
				  "previous value"
			: head && l->name_len > RC4_CONF_MAX_SECTION
				? "section name longer than 49 bytes"
			: head && l->ignored != 0
				? "text after the section header's ']', which "
				  "inih ignores"
				: NULL;
		if (*what != NULL)
			return t.num;
		if (text)
			after_key = !head;
	}
	return 0;
}

struct reader {
	const char *pos, *end; /* the bytes inih has not read yet */
	int line;              /* the line inih read last */
	bool cut;
	const char *section;   /* this CPU's, or NULL */
	struct rc4_conf *conf;
	const struct rc4_conf_hooks *hooks;
	/* per kind, the other CPU section counted last in conf->others */
	char counted[RC4K_KINDS][RC4_CONF_MAX_SECTION + 1];
};

/* inih's reader: one line a call, counted. */
static char *next_line(char *str, int num, void *stream)
{
	struct reader *r = stream;

	if (r->pos >= r->end)
		return NULL;
	const char *nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
	size_t n = nl != NULL ? (size_t)(nl + 1 - r->pos)
			      : (size_t)(r->end - r->pos);
	/* Only if the program changed Debian's ini_max_line: stop rather
	 * than split the line. */
	if (n >= (size_t)num) {
		r->cut = true;
		return NULL;
	}
	memcpy(str, r->pos, n);
	str[n] = '\0';
	r->pos += n;
	r->line++;
	/* inih tells the handler of a section only with its first key
	 * (Debian does not build it with INI_CALL_HANDLER_ON_NEW_SECTION):
	 * --check-conf sees each line here, headers without keys too. */
	if (r->hooks != NULL && r->hooks->line != NULL)
		r->hooks->line(r->hooks->arg, r->line, str,
			       nl != NULL ? n - 1 : n);
	return str;
}

int rc4_conf_slot(const char *sec, const char *cpu_section)
{
	enum rc4_section_kind is = rc4_section_kind(sec);

	return is == RC4_SECTION_PIN	   ? RC4_CONF_PIN
	       : is == RC4_SECTION_DEFAULT ? RC4_CONF_DEFAULT
	       : cpu_section != NULL && strcmp(sec, cpu_section) == 0
		       ? RC4_CONF_CPU
		       : -1;
}

/* inih's handler, for every key = value. */
static int on_entry(void *user, const char *section, const char *name,
		    const char *value)
{
	struct reader *r = user;
	char sec[RC4_CONF_MAX_SECTION + 1];

	rc4_section_key(section, strlen(section), sec);
	if (r->hooks != NULL && r->hooks->entry != NULL)
		r->hooks->entry(r->hooks->arg, r->line, sec, name, value);
	enum rc4_key key = rc4_key_named(name);
	if (key == RC4_KEY_NONE)
		return 1;
	int slot = rc4_conf_slot(sec, r->section);
	if (slot >= 0) {
		struct rc4_conf_value *v = &r->conf->value[slot][key];
		snprintf(v->name, sizeof v->name, "%s", value);
		v->line = r->line;
		return 1;
	}
	if (rc4_section_kind(sec) != RC4_SECTION_CPU)
		return 1;
	for (int kind = rc4_key_next_kind(key, 0); kind < RC4K_KINDS;
	     kind = rc4_key_next_kind(key, kind + 1))
		/* a section, not each of its keys: one section that sets the
		 * key three times is one CPU */
		if (strcmp(sec, r->counted[kind]) != 0) {
			r->conf->others[kind]++;
			memcpy(r->counted[kind], sec, sizeof sec);
		}
	return 1;
}

/* Why inih rejected line LINE of BUF (LEN bytes). */
static const char *parse_error(const char *buf, size_t len, int line)
{
	const char *end = buf + len;

	while (--line > 0 && (buf = memchr(buf, '\n', (size_t)(end - buf))))
		buf++;
	while (buf != NULL && buf < end && isspace((unsigned char)*buf) &&
	       *buf != '\n')
		buf++;
	return buf != NULL && buf < end && *buf == '['
		       ? "section header without a closing ']'"
		       : "not \"key = value\", a [section], a comment or blank";
}

int rc4_conf_parse(const char *buf, size_t len, const char *section,
		   struct rc4_conf *conf, const struct rc4_conf_hooks *hooks,
		   char *why, size_t whysize)
{
	const char *what;
	int bad = 0, rc = -1;

	memset(conf, 0, sizeof *conf);
	if (len > RC4_CONF_MAX_SIZE) {
		too_big(why, whysize);
		return -1;
	}
	if (rc4_ini_build_check(why, whysize) != 0)
		return -1;
	bad = prescan(buf, len, &what);
	if (bad != 0) {
		snprintf(why, whysize, "%s", what);
		conf->bad_line = bad;
		return -1;
	}
	struct reader r = { .pos = buf, .end = buf + len, .section = section,
			    .conf = conf, .hooks = hooks };
	int err = ini_parse_stream(next_line, &r, on_entry, &r);
	if (r.cut) {
		snprintf(why, whysize, "line too long for inih");
		bad = r.line + 1;
	} else if (err > 0) {
		snprintf(why, whysize, "%s", parse_error(buf, len, err));
		bad = err;
	} else if (err < 0) {
		snprintf(why, whysize, "inih failed (%d)", err);
	} else {
		rc = 0;
	}
	if (rc != 0) {
		memset(conf, 0, sizeof *conf); /* never half-trusted */
		conf->bad_line = bad;
	}
	return rc;
}

int rc4_conf_read(const char *path, const char *section, struct rc4_conf *conf,
		  const struct rc4_conf_hooks *hooks, char *why, size_t whysize)
{
	size_t len = 0;
	int missing = 0;

	memset(conf, 0, sizeof *conf);
	char *buf = load(path, &len, &missing, why, whysize);
	if (buf == NULL)
		return missing ? 1 : -1;
	int rc = rc4_conf_parse(buf, len, section, conf, hooks, why, whysize);
	free(buf);
	return rc;
}

char *rc4_conf_load(const char *path, size_t *len)
{
	char why[RC4_CONF_WHY_MAX];
	int missing = 0;

	*len = 0;
	return load(path, len, &missing, why, sizeof why);
}

int rc4_conf_check(const char *buf, size_t len, int *line, char *why,
		   size_t whysize)
{
	struct rc4_conf conf;
	int rc = rc4_conf_parse(buf, len, NULL, &conf, NULL, why, whysize);

	*line = conf.bad_line;
	return rc;
}
