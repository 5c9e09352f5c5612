/* SPDX-License-Identifier: MIT */
/* confwrite.c - a config file replaced safely (confwrite.h).  The tuner
 * runs as root from a postinst: links other users could have planted are
 * not followed.  The lock is on a file next to the config that only the
 * caller can open (anyone may open the config and lock it): no other user
 * can make a run wait. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "conf.h"
#include "confwrite.h"
#include "readfile.h"
#include "timing.h"

/* Linux's own limit on a chain of symlinks. */
enum { MAX_HOPS = 40 };
/* What a temporary file's name adds to NAME; ".NAME.lock" is no longer. */
#define TMP_EXTRA "..XXXXXX"
#define LOCK_SUFFIX "lock"

/* "rc4tune: cannot write PATH: WHAT", and the way out of a permission
 * problem root would not have. */
static int fail(const char *path, const char *what, int err)
{
	fprintf(stderr, "rc4tune: cannot write %s: %s%s%s\n", path,
		what ? what : "", what && err ? ": " : "",
		err ? strerror(err) : "");
	if (geteuid() != 0 && (err == EACCES || err == EPERM))
		fprintf(stderr, "rc4tune: run as root, or write another file "
				"with --output FILE\n");
	return -1;
}

/* As fail, with a reason of our own and no errno. */
static int refuse(const char *path, const char *fmt, ...)
{
	char what[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return fail(path, what, 0);
}

/* The directory part of FILE, into DIR (PATH_MAX bytes). */
static void dir_of(const char *file, char *dir)
{
	const char *slash = strrchr(file, '/');

	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == file)
		strcpy(dir, "/");
	else
		snprintf(dir, PATH_MAX, "%.*s", (int)(slash - file), file);
}

/* ".NAME.SUFFIX" next to the target NAME, into OUT (PATH_MAX bytes). */
static int sibling(const struct confwrite *w, char *out, const char *suffix)
{
	const char *slash = strrchr(w->target, '/');
	char dir[PATH_MAX];

	dir_of(w->target, dir);
	if (snprintf(out, PATH_MAX, "%s/.%s.%s", dir,
		     slash ? slash + 1 : w->target, suffix) >= PATH_MAX)
		return fail(w->path, NULL, ENAMETOOLONG);
	return 0;
}

/* Whether the symlink LINK (lstat in *LS) may be followed: not another
 * user's, nor one fs.protected_symlinks would refuse, whatever that sysctl
 * says here. */
static int link_allowed(const char *path, const char *link,
			const struct stat *ls)
{
	char dir[PATH_MAX];
	struct stat ds;
	uid_t me = geteuid();

	dir_of(link, dir);
	if (strcmp(link, path) == 0)
		link = "it";
	if (ls->st_uid != 0 && ls->st_uid != me)
		return refuse(path, "%s is a symlink owned by uid %u, another "
				    "user: a config is not written through it",
			      link, (unsigned)ls->st_uid);
	if (stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) &&
	    (ds.st_mode & S_IWOTH) && ls->st_uid != me &&
	    ls->st_uid != ds.st_uid)
		return refuse(path, "%s is a symlink in the sticky, world-"
				    "writable %s, owned by neither you nor "
				    "that directory's owner: not followed (as "
				    "fs.protected_symlinks rules)",
			      link, dir);
	return 0;
}

/* The end of PATH's symlinks, existing or not, into W->target, so that a
 * link stays a link (/etc/rc4tune.conf -> a fleet file not yet created).
 * 0, or -1 after saying why. */
static int resolve_target(struct confwrite *w)
{
	char *target = w->target, link[PATH_MAX];
	struct stat st;

	if (strlen(w->path) >= PATH_MAX)
		return fail(w->path, NULL, ENAMETOOLONG);
	strcpy(target, w->path);
	for (int hops = 0;; hops++) {
		if (lstat(target, &st) != 0 || !S_ISLNK(st.st_mode))
			return 0; /* missing: created; else checked later */
		if (hops == MAX_HOPS)
			return fail(w->path, "following its symlinks", ELOOP);
		if (link_allowed(w->path, target, &st) != 0)
			return -1;
		ssize_t n = readlink(target, link, sizeof link);
		if (n < 0 || n == (ssize_t)sizeof link)
			return fail(w->path, "reading its symlink",
				    n < 0 ? errno : ENAMETOOLONG);
		link[n] = '\0';
		char *slash = strrchr(target, '/');
		size_t keep = link[0] == '/' || slash == NULL
				      ? 0
				      : (size_t)(slash - target) + 1;
		if (keep + (size_t)n >= PATH_MAX)
			return fail(w->path, "following its symlinks",
				    ENAMETOOLONG);
		memcpy(target + keep, link, (size_t)n + 1);
	}
}

/* Whether DIR may hold, or lead to, the config, as sshd's StrictModes
 * has it.  On the way (LAST false) a sticky directory such as /tmp may be
 * writable, since only an entry's owner can replace it and each one
 * walked is checked; the target's own may not: whoever can write there
 * can plant the file (a [pin] the merge would make ours), its lock or its
 * temporary file. */
static int dir_trusted(const char *path, const char *dir,
		       const struct stat *st, bool last)
{
	uid_t me = geteuid();
	unsigned mode = (unsigned)(st->st_mode & 07777);

	if (st->st_uid != 0 && st->st_uid != me)
		return refuse(path, "%s is owned by uid %u, another user, who "
				    "could replace what it holds (every "
				    "directory up to / must be root's or yours)",
			      dir, (unsigned)st->st_uid);
	if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
		return 0;
	if (last)
		return refuse(path, "its directory %s has mode %04o: other "
				    "users could plant the file, its lock or "
				    "its temporary file there (write it where "
				    "only root or you can write)",
			      dir, mode);
	if (!(st->st_mode & S_ISVTX))
		return refuse(path, "%s has mode %04o: other users could "
				    "replace what it holds",
			      dir, mode);
	return 0;
}

/* An existing config is root's or the caller's: the library trusts no
 * other owner's, and the merge would make another user's lines ours. */
static int owner_trusted(const char *path, const struct stat *st)
{
	if (st->st_uid == 0 || st->st_uid == geteuid())
		return 0;
	return refuse(path, "it is owned by uid %u, another user: its lines "
			    "are not merged into a file of yours (chown it, "
			    "or remove it)",
		      (unsigned)st->st_uid);
}

/* The next name of *REST into NAME (NAME_MAX + 1 bytes), "." and empty
 * names skipped; false at the end. */
static bool next_name(const char **rest, char *name)
{
	for (;;) {
		const char *r = *rest + strspn(*rest, "/");
		size_t n = strcspn(r, "/");

		if (n == 0)
			return false;
		*rest = r + n;
		if (n == 1 && r[0] == '.')
			continue;
		snprintf(name, NAME_MAX + 1, "%.*s", (int)n, r);
		return true;
	}
}

/* The symlink AT met on the way: its text put before the rest of the
 * walk, *REST (in PENDING); CUR becomes "/" for an absolute link. */
static int follow(const char *path, const char *at, const struct stat *ls,
		  char *cur, char *pending, const char **rest)
{
	char link[PATH_MAX], joined[PATH_MAX];

	if (link_allowed(path, at, ls) != 0)
		return -1;
	ssize_t n = readlink(at, link, sizeof link);
	if (n < 0 || n == (ssize_t)sizeof link)
		return fail(path, at, n < 0 ? errno : ENAMETOOLONG);
	link[n] = '\0';
	if (snprintf(joined, sizeof joined, "%s/%s", link, *rest) >=
	    (int)sizeof joined)
		return fail(path, at, ENAMETOOLONG);
	strcpy(pending, joined);
	*rest = pending;
	if (link[0] == '/')
		strcpy(cur, "/");
	return 0;
}

/* Every directory on the target's path, walked from / as the kernel
 * walks it: another user's link or directory anywhere on the way, not
 * only at its end, could send root's writes elsewhere. */
static int path_trusted(const struct confwrite *w)
{
	char cur[PATH_MAX], at[PATH_MAX], pending[PATH_MAX], name[NAME_MAX + 1];
	const char *rest = pending;
	struct stat st;
	int hops = 0;

	dir_of(w->target, at);
	if (at[0] != '/' && getcwd(cur, sizeof cur) == NULL)
		return fail(w->path, "the current directory", errno);
	if (snprintf(pending, sizeof pending, "%s/%s", at[0] == '/' ? "" : cur,
		     at) >= (int)sizeof pending)
		return fail(w->path, NULL, ENAMETOOLONG);
	strcpy(cur, "/");
	if (lstat(cur, &st) != 0 || dir_trusted(w->path, cur, &st, false) != 0)
		return -1;
	while (next_name(&rest, name)) {
		if (strcmp(name, "..") == 0) {
			dir_of(cur, at);
			strcpy(cur, at);
			continue;
		}
		if (snprintf(at, sizeof at, "%s/%s",
			     strcmp(cur, "/") == 0 ? "" : cur,
			     name) >= (int)sizeof at)
			return fail(w->path, NULL, ENAMETOOLONG);
		if (lstat(at, &st) != 0)
			return fail(w->path, at, errno);
		if (S_ISLNK(st.st_mode)) {
			if (++hops > MAX_HOPS)
				return fail(w->path, at, ELOOP);
			if (follow(w->path, at, &st, cur, pending, &rest) != 0)
				return -1;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			return fail(w->path, at, ENOTDIR);
		if (dir_trusted(w->path, at, &st, false) != 0)
			return -1;
		strcpy(cur, at);
	}
	if (stat(cur, &st) != 0)
		return fail(w->path, cur, errno);
	return dir_trusted(w->path, cur, &st, true);
}

/* A regular file the library could read, with one name. */
static int regular_ok(const char *path, const struct stat *st)
{
	if (st->st_nlink > 1)
		return refuse(path, "it has %lu hard links: replacing it "
				    "would split them (remove the others, or "
				    "write another file)",
			      (unsigned long)st->st_nlink);
	if (st->st_size > RC4_CONF_MAX_SIZE)
		return refuse(path, "larger than %d bytes, which the library "
				    "refuses: not rewritten",
			      RC4_CONF_MAX_SIZE);
	return 0;
}

/* Whether a temporary file can be made next to the target: tried for
 * real (permission, read-only, immutable), removed at once. */
static int dir_ok(const struct confwrite *w)
{
	const char *slash = strrchr(w->target, '/');
	const char *base = slash ? slash + 1 : w->target;
	char dir[PATH_MAX], probe[PATH_MAX];

	if (strlen(base) + sizeof TMP_EXTRA - 1 > NAME_MAX)
		return refuse(w->path, "its name is too long for a temporary "
				       "file next to it (%zu bytes, at most %zu)",
			      strlen(base), NAME_MAX - (sizeof TMP_EXTRA - 1));
	if (sibling(w, probe, "XXXXXX") != 0)
		return -1;
	int fd = mkostemp(probe, O_CLOEXEC);
	if (fd < 0) {
		char what[PATH_MAX + 48];
		int err = errno;

		dir_of(w->target, dir);
		snprintf(what, sizeof what, "cannot create a file in %s", dir);
		return fail(w->path, what, err);
	}
	unlink(probe);
	close(fd);
	return 0;
}

/* The lock file is the caller's alone: anyone who could open it could
 * hold it and stall every run. */
static int lock_ok(const struct confwrite *w, const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return refuse(w->path, "its lock file %s is a symlink: not "
				       "followed (remove it)",
			      w->lock);
	if (!S_ISREG(st->st_mode))
		return refuse(w->path, "its lock file %s is not a regular "
				       "file (remove it)",
			      w->lock);
	if (st->st_uid != geteuid())
		return refuse(w->path, "its lock file %s is owned by uid %u, "
				       "not by you: another user could hold it "
				       "(remove it)",
			      w->lock, (unsigned)st->st_uid);
	if (st->st_mode & (S_IRWXG | S_IRWXO))
		return refuse(w->path, "its lock file %s has mode %04o: other "
				       "users could open it and hold it (remove "
				       "it; rc4tune makes it 0600)",
			      w->lock, (unsigned)(st->st_mode & 07777));
	if (st->st_nlink != 1)
		return refuse(w->path, "its lock file %s has %lu hard links "
				       "(remove it)",
			      w->lock, (unsigned long)st->st_nlink);
	return 0;
}

/* The lock file, if there is one, as lock_ok wants it. */
static int lock_check(const struct confwrite *w)
{
	struct stat st;

	if (lstat(w->lock, &st) != 0)
		return errno == ENOENT ? 0 : fail(w->path, w->lock, errno);
	/* 0 links: unlinked while we looked, by the run letting go; gone as
	 * if lstat had not found it (s390x under qemu met this 1 run in 4) */
	if (st.st_nlink == 0)
		return 0;
	return lock_ok(w, &st);
}

bool confwrite_is_stdout(const char *path)
{
	struct stat a, b;

	return strcmp(path, "-") == 0 ||
	       (fstat(STDOUT_FILENO, &b) == 0 && stat(path, &a) == 0 &&
		a.st_dev == b.st_dev && a.st_ino == b.st_ino);
}

/* A device, pipe or stdout: O_NONBLOCK makes a FIFO without a reader
 * ENXIO, an error, not a postinst that hangs. */
static int open_direct(struct confwrite *w, bool fifo)
{
	bool to_stdout = w->to_stdout;

	w->fd = to_stdout ? dup(STDOUT_FILENO)
			  : open(w->path, O_WRONLY | O_NONBLOCK | O_NOCTTY |
						  O_CLOEXEC);
	if (w->fd < 0 && errno == ENXIO && fifo)
		return refuse(w->path, "a FIFO with no reader");
	if (w->fd < 0)
		return fail(w->path, to_stdout ? "standard output" : "open",
			    errno);
	int flags = fcntl(w->fd, F_GETFL);
	if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
		return fail(w->path, to_stdout ? "standard output is closed"
					       : "not open for writing",
			    EBADF);
	/* Blocking again for the writes: a reader slower than us is no
	 * error.  Not on stdout: that file description is our stdout's. */
	if (!to_stdout && fcntl(w->fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
		return fail(w->path, "fcntl", errno);
	return 0;
}

int confwrite_open(struct confwrite *w, const char *path)
{
	struct stat st;

	*w = (struct confwrite){ .path = path, .fd = -1, .lock_fd = -1,
				 .live_fd = -1 };
	if ((w->to_stdout = confwrite_is_stdout(path)))
		return open_direct(w, false);
	if (resolve_target(w) != 0)
		return -1;
	/* a device or a pipe at the end of the links just checked */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return fail(path, NULL, EISDIR);
		return open_direct(w, S_ISFIFO(st.st_mode));
	}
	if (path_trusted(w) != 0)
		return -1;
	if (lstat(w->target, &st) == 0 &&
	    (regular_ok(path, &st) != 0 || owner_trusted(path, &st) != 0))
		return -1;
	if (dir_ok(w) != 0 || sibling(w, w->lock, LOCK_SUFFIX) != 0)
		return -1;
	return lock_check(w);
}

void confwrite_close(struct confwrite *w)
{
	confwrite_unlock(w);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The lock file, created 0600 if need be, its stat in *ST: its
 * descriptor; LOCK_GONE if the run letting go removed it; or -1. */
#define LOCK_GONE (-2)
static int open_lock(const struct confwrite *w, struct stat *st)
{
	if (lock_check(w) != 0)
		return -1;
	int fd = open(w->lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
				       O_NOCTTY | O_CLOEXEC,
		      0600);
	if (fd < 0)
		return fail(w->path, w->lock, errno);
	int r = fstat(fd, st) != 0  ? fail(w->path, w->lock, errno)
		: st->st_nlink == 0 ? LOCK_GONE
				    : lock_ok(w, st);
	if (r == 0)
		return fd;
	close(fd);
	return r;
}

/* flock FD, polling, since a blocking wait cannot be bounded: 0, or the
 * errno of the last try. */
static int flock_within(int fd, double t0)
{
	static const struct timespec pause_for = { 0, 10 * 1000 * 1000 };
	int err = 0;

	while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		err = errno;
		if (err != EWOULDBLOCK ||
		    timing_clock() - t0 >= CONFWRITE_LOCK_WAIT)
			break;
		nanosleep(&pause_for, NULL);
		err = 0;
	}
	return err;
}

/* -1 after saying why, or FD on a file system without locks. */
static int lock_failed(const struct confwrite *w, int fd, int err)
{
	if (err == EWOULDBLOCK) {
		close(fd);
		return refuse(w->path, "another run has held its lock "
				       "file %s for %d s: gave up, "
				       "nothing written",
			      w->lock, CONFWRITE_LOCK_WAIT);
	}
	if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL ||
	    err == EBADF) {
		fprintf(stderr, "rc4tune: warning: %s: cannot lock %s "
				"(%s): runs at the same time may lose "
				"each other's section\n",
			w->path, w->lock, strerror(err));
		return fd;
	}
	close(fd);
	return fail(w->path, "lock", err);
}

/* The lock file held: its descriptor, or -1 after saying why.  The
 * holder removes the file before letting go, so a file we lock that no
 * longer has the name is not ours: again. */
static int take_lock(const struct confwrite *w)
{
	struct stat st, named;

	double t0 = timing_clock();
	for (;;) {
		int fd = open_lock(w, &st);
		if (fd == LOCK_GONE)
			continue;
		if (fd < 0)
			return -1;
		int err = flock_within(fd, t0);
		if (err != 0)
			return lock_failed(w, fd, err);
		if (lstat(w->lock, &named) == 0 && named.st_dev == st.st_dev &&
		    named.st_ino == st.st_ino)
			return fd;
		close(fd);
	}
}

/* The live file in *FD (-1: none yet), its stat in *ST; not through a
 * symlink nor a FIFO planted since confwrite_open. */
static int open_live(const struct confwrite *w, int *fd, struct stat *st)
{
	*fd = open(w->target,
		   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? 0 : fail(w->path, "open", errno);
	int r = fstat(*fd, st) != 0     ? fail(w->path, "stat", errno)
		: !S_ISREG(st->st_mode) ? refuse(w->path, "no longer a "
							  "regular file")
					: regular_ok(w->path, st);
	if (r != 0) {
		close(*fd);
		*fd = -1;
	}
	return r;
}

/* All of the file FD (at most the library's size), malloc'ed. */
static char *read_old(const struct confwrite *w, int fd, size_t *len)
{
	bool more;
	char *buf = rc4_read_fd(fd, RC4_CONF_MAX_SIZE, len, &more);

	if (buf == NULL) {
		fail(w->path, "cannot read it", errno);
	} else if (more) {
		refuse(w->path, "grew past %d bytes", RC4_CONF_MAX_SIZE);
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* The new file's mode: OLD's less group and other write (which the
 * library refuses: others could pick our kernel), or 0644. */
static mode_t new_mode(const struct confwrite *w, const struct stat *old)
{
	mode_t mode = old ? old->st_mode & 07777 & ~(mode_t)(S_IWGRP | S_IWOTH)
			  : 0644;

	if (old && mode != (old->st_mode & 07777))
		fprintf(stderr, "rc4tune: warning: %s: mode %04o becomes "
				"%04o: the library refuses a file writable by "
				"group or others\n",
			w->path, (unsigned)(old->st_mode & 07777),
			(unsigned)mode);
	if (!(mode & S_IROTH))
		fprintf(stderr, "rc4tune: warning: %s: mode %04o: programs "
				"that run neither as its owner nor in its "
				"group cannot read it, and use their built-in "
				"CPU rules\n",
			w->path, (unsigned)mode);
	return mode;
}

/* The temporary file TMP with DATA, synced: its descriptor, or -1. */
static int write_tmp(const struct confwrite *w, char *tmp, const char *data,
		     size_t len, const struct stat *old)
{
	if (sibling(w, tmp, "XXXXXX") != 0)
		return -1;
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return fail(w->path, "cannot create a temporary file", errno);
	const char *step = NULL;
	/* ours: never an owner the library distrusts; as root, its group */
	if (old != NULL && geteuid() == 0 &&
		 fchown(fd, (uid_t)-1, old->st_gid) != 0)
		step = "chown";
	else if (fchmod(fd, new_mode(w, old)) != 0)
		step = "chmod";
	else if (write_all(fd, data, len) != 0)
		step = "write";
	else if (fsync(fd) != 0)
		step = "fsync";
	if (step == NULL)
		return fd;
	int err = errno;
	close(fd);
	unlink(tmp);
	return fail(w->path, step, err);
}

/* TMP becomes the target: over the old file, or where there was none
 * without replacing one a writer without our lock created meanwhile (1:
 * again); the directory synced, so the rename survives a crash. */
static int publish(const struct confwrite *w, const char *tmp, bool replace)
{
	char dir[PATH_MAX];
	int r = replace ? rename(tmp, w->target)
			: renameat2(AT_FDCWD, tmp, AT_FDCWD, w->target,
				    RENAME_NOREPLACE);

	if (r != 0 && !replace && errno == EEXIST) {
		unlink(tmp);
		return 1;
	}
	/* a file system without RENAME_NOREPLACE: rename as before */
	if (r != 0 && !replace && errno == EINVAL)
		r = rename(tmp, w->target);
	if (r != 0) {
		int err = errno;
		unlink(tmp);
		return fail(w->path, "rename", err);
	}
	/* the new file is in place: a failure here only warns; some file
	 * systems cannot sync a directory (EINVAL) */
	dir_of(w->target, dir);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || (fsync(dfd) != 0 && errno != EINVAL))
		fprintf(stderr, "rc4tune: warning: %s written, but syncing its "
				"directory %s failed: %s; a crash soon may undo "
				"the change\n",
			w->path, dir, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return 0;
}

/* Whether the library would take MERGED: else the error names why. */
static int merged_ok(const struct confwrite *w, const char *merged, size_t len)
{
	char why[RC4_CONF_WHY_MAX];
	int line;

	if (rc4_conf_check(merged, len, &line, why, sizeof why) == 0)
		return 0;
	const char *kept = w->fd >= 0 ? "nothing written" : "left as it was";
	if (line != 0)
		return refuse(w->path, "as merged, line %d would be one the "
				       "library refuses (%s): %s",
			      line, why, kept);
	return refuse(w->path, "as merged it would be %zu bytes, which the "
			       "library refuses (%s): %s",
		      len, why, kept);
}

int confwrite_lock(struct confwrite *w)
{
	w->lock_fd = w->fd >= 0 ? -1 : take_lock(w);
	return w->fd >= 0 || w->lock_fd >= 0 ? 0 : -1;
}

/* Let go of what confwrite_read kept. */
static void forget(struct confwrite *w)
{
	if (w->live_fd >= 0)
		close(w->live_fd);
	w->live_fd = -1;
	free(w->old);
	w->old = NULL;
	w->old_len = 0;
}

void confwrite_unlock(struct confwrite *w)
{
	forget(w);
	/* its file removed before letting go (see take_lock) */
	if (w->lock_fd >= 0) {
		unlink(w->lock);
		close(w->lock_fd);
	}
	w->lock_fd = -1;
}

int confwrite_read(struct confwrite *w, const char **old, size_t *len)
{
	forget(w);
	if (w->fd < 0 && open_live(w, &w->live_fd, &w->live) != 0)
		return -1;
	w->old = w->live_fd >= 0 ? read_old(w, w->live_fd, &w->old_len)
				 : calloc(1, 1);
	if (w->old == NULL && w->live_fd < 0)
		perror("rc4tune");
	*old = w->old;
	*len = w->old_len;
	return w->old != NULL ? 0 : -1;
}

void confwrite_kept(const struct confwrite *w)
{
	refuse(w->path, "%s", w->live_fd >= 0 ? "left as it was"
					      : "nothing written");
}

int confwrite_replace(struct confwrite *w, const char *text, size_t len)
{
	char tmp[PATH_MAX];
	bool live = w->live_fd >= 0;

	if (w->fd >= 0) /* a device or a pipe: what stdout holds goes first */
		fflush(stdout);
	if (merged_ok(w, text, len) != 0)
		return -1;
	if (w->fd >= 0)
		return write_all(w->fd, text, len) != 0
			       ? fail(w->path, "write", errno) : 0;
	w->unchanged = live && len == w->old_len &&
		       memcmp(text, w->old, len) == 0 &&
		       !(w->live.st_mode & (S_IWGRP | S_IWOTH));
	if (w->unchanged)
		return 0;
	int tfd = write_tmp(w, tmp, text, len, live ? &w->live : NULL);
	if (tfd < 0)
		return -1;
	int r = publish(w, tmp, live);
	close(tfd);
	return r == 1 ? CONFWRITE_AGAIN : r;
}
