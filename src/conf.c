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
#include <stdint.h>
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
	bool checking;         /* hooks->note is set: --check-conf */
	/* Check mode: the sections in order of first appearance, and an
	 * open-addressing table of their indices + 1 (0: free) with twice
	 * as many slots.  A 256 KiB file holds up to 65536 headers: a list
	 * grown one entry at a time and searched linearly is quadratic. */
	struct seen *seen;
	size_t nseen, cap, *index;
	size_t cur; /* seen[cur]: the last header's section, if nseen > 0 */
};

static void note(struct reader *r, bool error, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	r->hooks->note(r->hooks->arg, r->line, error, msg);
}

/* S's first N bytes without blanks at either end, into OUT. */
static void trim(char out[SECTION_MAX + 1], const char *s, size_t n)
{
	while (n > 0 && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	snprintf(out, SECTION_MAX + 1, "%.*s", (int)n, s);
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

/* FNV-1a: section names are short and few collide. */
static size_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* NAME's slot in the index: its entry's, or the free one to fill. */
static size_t *slot_of(struct reader *r, const char *name)
{
	size_t mask = 2 * r->cap - 1; /* cap is a power of two */

	for (size_t i = hash(name) & mask;; i = (i + 1) & mask)
		if (r->index[i] == 0 ||
		    strcmp(r->seen[r->index[i] - 1].name, name) == 0)
			return &r->index[i];
}

/* Room for one more section: the list doubles, the index is rebuilt at
 * twice its size, so that it stays at most half full. */
static bool room(struct reader *r)
{
	if (r->nseen < r->cap)
		return true;
	size_t cap = r->cap != 0 ? 2 * r->cap : 16;
	struct seen *seen = realloc(r->seen, cap * sizeof *seen);
	if (seen == NULL)
		return false;
	r->seen = seen;
	size_t *index = calloc(2 * cap, sizeof *index);
	if (index == NULL)
		return false;
	free(r->index);
	r->index = index;
	r->cap = cap;
	for (size_t i = 0; i < r->nseen; i++)
		*slot_of(r, r->seen[i].name) = i + 1;
	return true;
}

/* Check mode: the section SEC that a header starts, what kind it is and
 * whether it appeared before. */
static void enter_section(struct reader *r, const char *sec)
{
	if (strncasecmp(sec, "cpu", 3) == 0 &&
	    (sec[3] == '\0' || isspace((unsigned char)sec[3]))) {
		if (!cpu_section_ok(sec))
			note(r, true,
			     "malformed section [%s]: want [cpu VENDOR FAMILY "
			     "MODEL], single spaces, decimal numbers",
			     sec);
	} else if (strcmp(sec, "default") != 0)
		note(r, false, "unknown section [%s]: ignored", sec);

	if (!room(r)) {
		r->oom = true;
		return;
	}
	size_t *slot = slot_of(r, sec);
	if (*slot != 0) {
		r->cur = *slot - 1;
		note(r, false,
		     "section [%s] repeated (first at line %d): the keys "
		     "merge, the last kernel wins",
		     sec, r->seen[r->cur].line);
		return;
	}
	r->cur = r->nseen++;
	*slot = r->nseen;
	snprintf(r->seen[r->cur].name, sizeof r->seen[r->cur].name, "%s", sec);
	r->seen[r->cur].line = r->line;
	r->seen[r->cur].kernel_line = 0;
	r->seen[r->cur].batch_line = 0;
}

/* Check mode: LINE, if inih reads it as a section header: after blanks
 * (and a UTF-8 BOM on line 1), '[' up to the first ']', unless a ';'
 * after a blank starts a comment before it (then inih reports the line). */
static void header(struct reader *r, const char *line)
{
	if (r->line == 1 && strncmp(line, "\xEF\xBB\xBF", 3) == 0)
		line += 3;
	while (isspace((unsigned char)*line))
		line++;
	if (*line++ != '[')
		return;
	const char *end = line;
	while (*end != '\0' && *end != ']' &&
	       !(*end == ';' && end > line && isspace((unsigned char)end[-1])))
		end++;
	if (*end != ']')
		return;
	char sec[SECTION_MAX + 1];
	trim(sec, line, (size_t)(end - line));
	enter_section(r, sec);
}

/* inih's reader: one line a call, counted. */
static char *next_line(char *str, int num, void *stream)
{
	struct reader *r = stream;

	if (r->pos >= r->end || r->oom)
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
	/* Headers are checked here, at their own line: inih tells the
	 * handler of a section only with its first key (Debian does not
	 * build it with INI_CALL_HANDLER_ON_NEW_SECTION), so a section
	 * without keys would go unseen. */
	if (r->checking)
		header(r, str);
	return str;
}

/* inih's handler, for every key = value. */
static int on_entry(void *user, const char *section, const char *name,
		    const char *value)
{
	struct reader *r = user;
	char sec[SECTION_MAX + 1];

	trim(sec, section, strlen(section));
	/* inih gives keys before the first header the section "" */
	if (r->checking && r->nseen == 0)
		note(r, false, "key outside any section: ignored");
	bool batch = strcmp(name, "batch_kernel") == 0;
	if (!batch && strcmp(name, "kernel") != 0) {
		if (r->checking)
			note(r, false, "unknown key \"%s\" in [%s]: ignored",
			     name, sec);
		return 1;
	}
	void (*hook)(void *, int, const char *, const char *) = NULL;
	if (r->hooks != NULL)
		hook = batch ? r->hooks->batch_kernel : r->hooks->kernel;
	if (hook != NULL)
		hook(r->hooks->arg, r->line, sec, value);
	if (r->checking && r->nseen > 0) {
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
			    .conf = conf, .hooks = hooks,
			    .checking = hooks != NULL && hooks->note != NULL };
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
	free(r.index);
	free(r.seen);
	free(buf);
	return rc;
}
