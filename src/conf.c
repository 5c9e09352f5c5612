/* conf.c - read rc4tune.conf with inih, all or nothing.
 *
 * The file is read into memory first (it must be a regular file that only
 * its owner can write), then scanned for what inih would misread without a
 * word: long lines it splits, NUL bytes that end its string, indented lines
 * it appends to the previous value, section names it cuts.  Only then does
 * inih parse it, from memory, one line a call, so that line numbers are
 * known.  Any problem, or any inih error, rejects the whole file. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"

/* inih keeps the section name in a 50-byte buffer (MAX_SECTION) and cuts
 * longer names: a cut name could match another section. */
#define SECTION_MAX 49

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

/* Read at most SIZE bytes (what fstat said) from FD; one more means the
 * file changed under us.  Returns the NUL-terminated bytes, or NULL. */
static char *slurp(int fd, size_t size, size_t *len, char *why,
		   size_t whysize)
{
	char *buf = malloc(size + 2);
	size_t got = 0;

	if (buf == NULL) {
		snprintf(why, whysize, "out of memory");
		return NULL;
	}
	while (got <= size) {
		ssize_t n = read(fd, buf + got, size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(why, whysize, "cannot read: %s",
				 strerror(errno));
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > size) {
		snprintf(why, whysize, "changed while being read");
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
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

	if (fd < 0) {
		if (errno == ENOENT)
			*missing = 1;
		else
			snprintf(why, whysize, "cannot open: %s",
				 strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0)
		snprintf(why, whysize, "cannot stat: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		snprintf(why, whysize, "%s, not a regular file",
			 file_kind(st.st_mode));
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		/* as sshd's StrictModes: others could pick our kernel */
		snprintf(why, whysize, "writable by group or others (mode %04o)",
			 (unsigned)(st.st_mode & 07777));
	else if (st.st_size > RC4_CONF_MAX_SIZE)
		snprintf(why, whysize, "larger than %d bytes",
			 RC4_CONF_MAX_SIZE);
	else
		buf = slurp(fd, (size_t)st.st_size, len, why, whysize);
	close(fd);
	return buf;
}

/* The first line inih would misread, or 0; *WHAT says how. */
static int prescan(const char *buf, size_t len, const char **what)
{
	const char *end = buf + len;
	bool after_key = false;
	int line = 1;

	for (const char *p = buf; p < end; p++, line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (eol == NULL)
			eol = end;
		if (memchr(p, '\0', (size_t)(eol - p)) != NULL) {
			*what = "a NUL byte: not a text file";
			return line;
		}
		if (eol - p > RC4_CONF_MAX_LINE) {
			*what = "line longer than 198 bytes";
			return line;
		}
		const char *s = p;
		while (s < eol && isspace((unsigned char)*s))
			s++;
		if (s < eol && *s != ';' && *s != '#') {
			/* inih's multi-line values: after a key, an indented
			 * line (even "[x]") continues that key's value */
			if (s > p && after_key) {
				*what = "indented line: it would continue the "
					"previous value";
				return line;
			}
			after_key = *s != '[';
			const char *close = memchr(s, ']', (size_t)(eol - s));
			if (!after_key && close != NULL &&
			    close - s - 1 > SECTION_MAX) {
				*what = "section name longer than 49 bytes";
				return line;
			}
		}
		if (eol == end)
			break;
		p = eol;
	}
	return 0;
}

/* For --check-conf: each section name seen, to report repeats. */
struct seen {
	char name[SECTION_MAX + 1];
	int line, kernel_line, batch_line;
};

struct reader {
	const char *pos, *end; /* the bytes inih has not read yet */
	int line;              /* the line inih read last */
	bool cut, oom;
	const char *section;   /* this CPU's, or NULL */
	struct rc4_conf *conf;
	const struct rc4_conf_hooks *hooks;
	bool started;          /* current is the section of the last key */
	char current[SECTION_MAX + 1];
	struct seen *seen;
	size_t nseen, cur;
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
	return str;
}

static void note(struct reader *r, bool error, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	r->hooks->note(r->hooks->arg, r->line, error, msg);
}

/* "cpu VENDOR FAMILY MODEL": single spaces, decimal numbers without
 * leading zeros, as rc4_cpu_section writes them. */
static bool cpu_section_ok(const char *s)
{
	if (strncmp(s, "cpu ", 4) != 0)
		return false;
	s += 4;
	size_t n = strcspn(s, " ");
	if (n == 0 || s[n] != ' ')
		return false;
	s += n + 1;
	for (int field = 0; field < 2; field++) {
		n = strspn(s, "0123456789");
		if (n == 0 || n > 9 || (n > 1 && s[0] == '0'))
			return false;
		s += n;
		if (field == 0 && *s++ != ' ')
			return false;
	}
	return *s == '\0';
}

/* Check mode: what kind of section the keys now come from, and whether it
 * appeared before. */
static void enter_section(struct reader *r, const char *sec)
{
	if (*sec == '\0')
		note(r, false, "key outside any section: ignored");
	else if (strncasecmp(sec, "cpu", 3) == 0 &&
		 (sec[3] == '\0' || isspace((unsigned char)sec[3]))) {
		if (!cpu_section_ok(sec))
			note(r, true,
			     "malformed section [%s]: want [cpu VENDOR FAMILY "
			     "MODEL], single spaces, decimal numbers",
			     sec);
	} else if (strcmp(sec, "default") != 0)
		note(r, false, "unknown section [%s]: ignored", sec);

	for (r->cur = 0; r->cur < r->nseen; r->cur++)
		if (strcmp(r->seen[r->cur].name, sec) == 0) {
			note(r, false,
			     "section [%s] repeated (first keys at line %d): "
			     "the keys merge, the last kernel wins",
			     sec, r->seen[r->cur].line);
			return;
		}
	struct seen *more = realloc(r->seen, (r->nseen + 1) * sizeof *more);
	if (more == NULL) {
		r->oom = true;
		return;
	}
	r->seen = more;
	r->cur = r->nseen++;
	snprintf(r->seen[r->cur].name, sizeof r->seen[r->cur].name, "%s", sec);
	r->seen[r->cur].line = r->line;
	r->seen[r->cur].kernel_line = 0;
	r->seen[r->cur].batch_line = 0;
}

/* inih's handler, for every key = value. */
static int on_entry(void *user, const char *section, const char *name,
		    const char *value)
{
	struct reader *r = user;
	bool checking = r->hooks != NULL && r->hooks->note != NULL;
	char sec[SECTION_MAX + 1];

	while (isspace((unsigned char)*section))
		section++;
	size_t n = strlen(section);
	while (n > 0 && isspace((unsigned char)section[n - 1]))
		n--;
	snprintf(sec, sizeof sec, "%.*s", (int)n, section);

	if (!r->started || strcmp(sec, r->current) != 0) {
		r->started = true;
		snprintf(r->current, sizeof r->current, "%s", sec);
		if (checking)
			enter_section(r, sec);
		if (r->oom)
			return 0;
	}
	bool batch = strcmp(name, "batch_kernel") == 0;
	if (!batch && strcmp(name, "kernel") != 0) {
		if (checking)
			note(r, false, "unknown key \"%s\" in [%s]: ignored",
			     name, sec);
		return 1;
	}
	void (*hook)(void *, int, const char *, const char *) = NULL;
	if (r->hooks != NULL)
		hook = batch ? r->hooks->batch_kernel : r->hooks->kernel;
	if (hook != NULL)
		hook(r->hooks->arg, r->line, sec, value);
	if (checking) {
		int *seen_line = batch ? &r->seen[r->cur].batch_line
				       : &r->seen[r->cur].kernel_line;
		if (*seen_line != 0)
			note(r, false,
			     "%s set again in [%s] (before at line %d): "
			     "the last value wins",
			     name, sec, *seen_line);
		*seen_line = r->line;
	}

	int slot = strcmp(sec, "default") == 0 ? RC4_CONF_DEFAULT
		   : r->section != NULL && strcmp(sec, r->section) == 0
		       ? RC4_CONF_CPU
		       : -1;
	if (slot >= 0 && batch) {
		snprintf(r->conf->batch[slot], sizeof r->conf->batch[slot],
			 "%s", value);
		r->conf->batch_line[slot] = r->line;
	} else if (slot >= 0) {
		snprintf(r->conf->kernel[slot], sizeof r->conf->kernel[slot],
			 "%s", value);
		r->conf->line[slot] = r->line;
	}
	return 1;
}

/* Why inih rejected line LINE of BUF. */
static const char *parse_error(const char *buf, int line)
{
	while (--line > 0 && (buf = strchr(buf, '\n')) != NULL)
		buf++;
	while (buf != NULL && isspace((unsigned char)*buf) && *buf != '\n')
		buf++;
	return buf != NULL && *buf == '['
		       ? "section header without a closing ']'"
		       : "not \"key = value\", a [section], a comment or blank";
}

int rc4_conf_read(const char *path, const char *section, struct rc4_conf *conf,
		  const struct rc4_conf_hooks *hooks, char *why, size_t whysize)
{
	size_t len = 0;
	int missing = 0, rc = -1;
	const char *what;

	memset(conf, 0, sizeof *conf);
	char *buf = load(path, &len, &missing, why, whysize);
	if (buf == NULL)
		return missing ? 1 : -1;

	int bad = prescan(buf, len, &what);
	if (bad != 0) {
		snprintf(why, whysize, "%s", what);
		free(buf);
		conf->bad_line = bad;
		return -1;
	}
	struct reader r = { .pos = buf, .end = buf + len, .section = section,
			    .conf = conf, .hooks = hooks };
	int err = ini_parse_stream(next_line, &r, on_entry, &r);
	if (r.oom) {
		snprintf(why, whysize, "out of memory");
	} else if (r.cut) {
		snprintf(why, whysize, "line too long for inih");
		bad = r.line + 1;
	} else if (err > 0) {
		snprintf(why, whysize, "%s", parse_error(buf, err));
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
	free(r.seen);
	free(buf);
	return rc;
}
