/* confwrite.c - put one section into a config file, keeping every other
 * byte, atomically.
 *
 * Lines are read as inih reads them (iniline.h).  A section spans from
 * its header to its last line that is neither blank nor a comment: the
 * comments after it usually describe the next section, so they stay. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "confwrite.h"
#include "iniline.h"

/* Whether the N-byte section name at P names SECTION.  Runs of blanks
 * count as one and blanks at the ends do not count, on both sides:
 * "[ cpu X  6 15 ]" was meant for the same CPU, and leaving it would make
 * a duplicate; and a vendor string may hold blanks ("  Shanghai  "). */
static bool names_section(const char *p, size_t n, const char *section)
{
	const char *end = p + n, *s = section;

	for (;;) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		while (isspace((unsigned char)*s))
			s++;
		if (p == end || *s == '\0')
			return p == end && *s == '\0';
		while (p < end && !isspace((unsigned char)*p) && *s != '\0' &&
		       !isspace((unsigned char)*s))
			if (*p++ != *s++)
				return false;
		/* A word of one side went on where the other's ended. */
		if ((p < end && !isspace((unsigned char)*p)) ||
		    (*s != '\0' && !isspace((unsigned char)*s)))
			return false;
	}
}

/* TEXT with each '\n' written as EOL. */
static void put_text(FILE *f, const char *text, const char *eol)
{
	for (; *text; text++)
		if (*text == '\n')
			fputs(eol, f);
		else
			fputc(*text, f);
}

char *confwrite_merge(const char *old, size_t len, const char *section,
		      const char *text, const char *path, size_t *outlen)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, outlen);
	const char *nl = memchr(old, '\n', len);
	const char *eol = nl && nl > old && nl[-1] == '\r' ? "\r\n" : "\n";
	size_t copied = 0;   /* old[0..copied) is dealt with */
	size_t span_end = 0; /* end of the live section's last content line */
	bool in_live = false, last_blank = true;
	unsigned found = 0, lineno = 0;

	if (f == NULL)
		return NULL;
	for (size_t pos = 0, end; pos < len; pos = end) {
		struct rc4_ini_line l;

		nl = memchr(old + pos, '\n', len - pos);
		end = nl ? (size_t)(nl - old) + 1 : len;
		lineno++;
		rc4_ini_line(old + pos, (nl ? end - 1 : end) - pos, pos == 0, &l);
		last_blank = l.kind == RC4_INI_BLANK;
		if ((l.kind == RC4_INI_ENTRY || l.kind == RC4_INI_BAD) && in_live)
			span_end = end;
		if (l.kind != RC4_INI_HEADER)
			continue;
		bool named = names_section(old + pos + l.name, l.name_len,
					   section);
		if (in_live) {
			copied = span_end; /* drop the section, keep the rest */
			in_live = false;
			/* An indented header now follows a key line (ours, or
			 * one before a dropped duplicate): inih would append
			 * it to that key's value.  It loses its indent. */
			if (!named && l.indented) {
				fwrite(old + copied, 1, pos - copied, f);
				copied = pos + l.start;
			}
		}
		if (!named)
			continue;
		/* A UTF-8 BOM before the first line (inih skips it) stays
		 * in front of whatever replaces that line. */
		size_t bom = pos == 0 && len >= 3 &&
					     memcmp(old, "\xef\xbb\xbf", 3) == 0
				     ? 3
				     : 0;
		fwrite(old + copied, 1, pos + bom - copied, f);
		if (found++ == 0)
			put_text(f, text, eol);
		else
			fprintf(stderr, "rc4tune: %s: removed another [%s] "
					"section at line %u (the library would "
					"read its kernel last)\n",
				path, section, lineno);
		copied = pos;
		span_end = end;
		in_live = true;
	}
	if (in_live)
		copied = span_end;
	fwrite(old + copied, 1, len - copied, f);
	if (!found) {
		if (len > 0 && old[len - 1] != '\n')
			fprintf(f, "%s%s", eol, eol);
		else if (!last_blank)
			fputs(eol, f);
		put_text(f, text, eol);
	}
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int fail(const char *path, const char *what, int err)
{
	fprintf(stderr, "rc4tune: cannot write %s: %s%s%s\n", path,
		what ? what : "", what ? ": " : "", strerror(err));
	if (err == EACCES || err == EPERM || err == EROFS)
		fprintf(stderr, "rc4tune: run as root, or write another file "
				"with --output FILE\n");
	return -1;
}

/* The whole of regular file FD, in a malloc'ed buffer of *LEN bytes;
 * NULL with errno set on failure. */
static char *read_all(int fd, size_t *len)
{
	size_t size = 4096, n = 0;
	char *buf = malloc(size), *grown;

	if (buf == NULL)
		return NULL;
	for (;;) {
		if (n == size) {
			if ((grown = realloc(buf, size *= 2)) == NULL)
				break;
			buf = grown;
		}
		ssize_t r = read(fd, buf + n, size - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (r == 0) {
			*len = n;
			return buf;
		}
		n += (size_t)r;
	}
	int err = errno;
	free(buf);
	errno = err;
	return NULL;
}

/* Replace TARGET by LEN bytes of DATA: a temporary file in the same
 * directory (so rename is atomic), fsync, rename, fsync the directory so
 * the rename itself survives a crash.  PATH is what the user named; OLD is
 * the file replaced, NULL if there is none.  The new file keeps OLD's mode
 * and, as root, its owner: an admin's 0600 or a root:adm file stays so. */
static int replace_atomically(const char *path, const char *target,
			      const char *data, size_t len,
			      const struct stat *old)
{
	const char *slash = strrchr(target, '/');
	char dir[PATH_MAX], tmp[PATH_MAX];
	mode_t mode = 0644;

	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == target)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - target), target);
	if (snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir,
		     slash ? slash + 1 : target) >= (int)sizeof tmp)
		return fail(path, NULL, ENAMETOOLONG);
	if (old != NULL) {
		mode = old->st_mode & 07777 & ~(mode_t)(S_IWGRP | S_IWOTH);
		/* The library ignores a file others could write (they could
		 * pick our kernel), so keeping those bits would waste it. */
		if (mode != (old->st_mode & 07777))
			fprintf(stderr, "rc4tune: warning: %s: mode %04o "
					"becomes %04o: the library refuses a "
					"file writable by group or others\n",
				path, (unsigned)(old->st_mode & 07777),
				(unsigned)mode);
	}

	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		char what[PATH_MAX + 48];

		snprintf(what, sizeof what,
			 "cannot create a temporary file in %s", dir);
		return fail(path, what, err);
	}
	const char *step = NULL;
	/* Owner before mode: chown clears set-user/group-ID bits.  Only
	 * root may give a file away: run by anyone else, the new file is
	 * the runner's. */
	if (old != NULL && geteuid() == 0 &&
	    fchown(fd, old->st_uid, old->st_gid) != 0)
		step = "chown";
	else if (fchmod(fd, mode) != 0)
		step = "chmod";
	else if (write_all(fd, data, len) != 0)
		step = "write";
	else if (fsync(fd) != 0)
		step = "fsync";
	int err = errno;
	if (close(fd) != 0 && step == NULL) {
		err = errno;
		step = "close";
	}
	if (step == NULL && rename(tmp, target) != 0) {
		err = errno;
		step = "rename";
	}
	if (step != NULL) {
		unlink(tmp);
		return fail(path, step, err);
	}

	/* The new file is in place from here on: a failure only means the
	 * rename might not survive a crash, so warn and succeed (confwrite
	 * promises an untouched old file when it fails). */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Some file systems cannot sync a directory (EINVAL): nothing to do. */
	if (dfd < 0 || (fsync(dfd) != 0 && errno != EINVAL)) {
		err = errno;
		fprintf(stderr, "rc4tune: warning: %s written, but syncing its "
				"directory %s failed: %s; a crash soon may undo "
				"the change\n",
			path, dir, strerror(err));
	}
	if (dfd >= 0)
		close(dfd);
	return 0;
}

/* Devices and pipes (/dev/full, /dev/stdout) take the text as it is.
 * FIFO says PATH is one: without a reader, opening it would wait forever
 * (a postinst would hang), so O_NONBLOCK makes that ENXIO, an error. */
static int write_direct(const char *path, const char *text, bool fifo)
{
	bool to_stdout = strcmp(path, "-") == 0;
	int fd = to_stdout ? dup(STDOUT_FILENO)
			   : open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY |
						O_CLOEXEC);

	if (fd < 0 && errno == ENXIO && fifo) {
		fprintf(stderr, "rc4tune: cannot write %s: a FIFO with no "
				"reader\n",
			path);
		return -1;
	}
	if (fd < 0)
		return fail(path, "open", errno);
	/* Blocking again for the writes: a reader slower than us is no
	 * error.  Not on "-": that file description is our stdout's. */
	int flags = to_stdout ? 0 : fcntl(fd, F_GETFL);
	if (!to_stdout &&
	    (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)) {
		int err = errno;

		close(fd);
		return fail(path, "fcntl", err);
	}
	fflush(stdout); /* whatever stdout holds goes first */
	if (write_all(fd, text, strlen(text)) != 0) {
		int err = errno;

		close(fd);
		return fail(path, "write", err);
	}
	if (close(fd) != 0)
		return fail(path, "close", errno);
	return 0;
}

/* Where writing PATH should go, in TARGET (PATH_MAX bytes): PATH, or for
 * a symlink the file at the end of its chain, existing or not, so that the
 * link stays a link (e.g. /etc/rc4tune.conf -> a shared fleet file not yet
 * created).  A relative link is relative to the link's directory.  Returns
 * 0, or -1 with errno set (ELOOP past 40 links, Linux's own limit). */
static int resolve_target(const char *path, char *target)
{
	struct stat st;
	char link[PATH_MAX];

	if (strlen(path) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(target, path);
	for (int hops = 0;; hops++) {
		if (lstat(target, &st) != 0)
			return 0; /* missing: created; else open says why */
		if (!S_ISLNK(st.st_mode))
			return 0;
		if (hops == 40) {
			errno = ELOOP;
			return -1;
		}
		ssize_t n = readlink(target, link, sizeof link);
		if (n < 0)
			return -1;
		if (n == (ssize_t)sizeof link) {
			errno = ENAMETOOLONG;
			return -1;
		}
		link[n] = '\0';
		char *slash = strrchr(target, '/');
		if (link[0] == '/' || slash == NULL) {
			strcpy(target, link);
		} else {
			/* Keep "dir/" and put the link's text after it. */
			size_t keep = (size_t)(slash - target) + 1;
			if (keep + (size_t)n >= PATH_MAX) {
				errno = ENAMETOOLONG;
				return -1;
			}
			memcpy(target + keep, link, (size_t)n + 1);
		}
	}
}

int confwrite(const char *path, const char *section, const char *text)
{
	char *old = NULL, *merged, target[PATH_MAX];
	size_t len = 0, outlen;
	struct stat st;

	if (strcmp(path, "-") == 0)
		return write_direct(path, text, false);
	if (resolve_target(path, target) != 0)
		return fail(path, "resolve the symlink", errno);
	/* O_NONBLOCK: opening a pipe must not wait for a writer. */
	int fd = open(target, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		return fail(path, "cannot read it", errno);
	bool old_exists = fd >= 0;
	if (old_exists) {
		if (fstat(fd, &st) != 0) {
			int err = errno;

			close(fd);
			return fail(path, "stat", err);
		}
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			return fail(path, NULL, EISDIR);
		}
		if (!S_ISREG(st.st_mode)) {
			/* Closed first: our read end would count as the
			 * FIFO's reader. */
			close(fd);
			return write_direct(path, text, S_ISFIFO(st.st_mode));
		}
		old = read_all(fd, &len);
		int err = errno;
		close(fd);
		if (old == NULL)
			return fail(path, "cannot read it", err);
	}

	merged = confwrite_merge(old ? old : "", len, section, text, path,
				 &outlen);
	free(old);
	if (merged == NULL)
		return fail(path, NULL, ENOMEM);
	int r = replace_atomically(path, target, merged, outlen,
				   old_exists ? &st : NULL);
	free(merged);
	return r;
}
