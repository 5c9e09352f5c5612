/* SPDX-License-Identifier: MIT */
/* shim.c - tests/helpers/libshim.so, an LD_PRELOAD interposer for the tests of the
 * config writer (test_torn.sh, test_faults.sh); never installed.
 *
 * It watches the calls a program makes on one config file FILE: FILE
 * itself, its siblings ".NAME.*" (temporary and lock files) and, for
 * open and fsync, its directory; for the library's reader
 * (test_faults_reader.sh), the same calls and fstat on FILE.  Every
 * variable is optional:
 *
 * RC4TUNE_SHIM_FILE=FILE   the config (an absolute path, no symlinks);
 *                          unset: the shim does nothing.
 * RC4TUNE_SHIM_FAIL=CALL:N:ERRNO
 *                          the Nth watched call of CALL (open, mkostemp,
 *                          write, read, fsync, fchown, fchmod, rename,
 *                          renameat2, flock, fstat, malloc) fails with
 *                          ERRNO (a name: ENOSPC, EIO, EINTR...).  malloc
 *                          and realloc count from the moment FILE's lock
 *                          file is opened (the writer's commit), the
 *                          others on FILE's files only.
 * RC4TUNE_SHIM_READER=1    malloc and realloc count instead while FILE
 *                          itself is open (a reader's open to its close).
 * RC4TUNE_SHIM_ALL=1       malloc and realloc count from the start: the
 *                          tuner's measuring too.
 * RC4TUNE_SHIM_STOP=N      before the Nth watched call that could change
 *                          what is on disk (open for writing, mkostemp,
 *                          write, ftruncate, fsync, fchmod, fchown,
 *                          rename, renameat2), the process stops itself
 *                          (SIGSTOP) until continued.
 * RC4TUNE_SHIM_NOTE=F      the call failed or stopped at, one line, into F.
 * RC4TUNE_SHIM_COUNT=F     at exit, "CALL COUNT" per watched call into F,
 *                          and "malloc_bytes N": the bytes that malloc and
 *                          realloc were asked for while they count.
 * RC4TUNE_SHIM_BT=1        a backtrace of the failed call on stderr.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_realloc(void *, size_t);

enum call {
	C_OPEN, C_MKOSTEMP, C_WRITE, C_READ, C_FSYNC, C_FCHOWN, C_FCHMOD,
	C_RENAME, C_RENAMEAT2, C_FLOCK, C_MALLOC, C_FTRUNCATE, C_FSTAT, C_CALLS
};
static const char *const names[C_CALLS] = {
	"open", "mkostemp", "write", "read", "fsync", "fchown", "fchmod",
	"rename", "renameat2", "flock", "malloc", "ftruncate", "fstat",
};

static int ready, armed, in_shim, reader, reader_fd = -1;
static char file[4096], dir[4096], prefix[4200];
static size_t dirlen;
static int fail_call = -1, fail_n, fail_errno, stop_n;
static int count[C_CALLS], changes;
static unsigned long long malloc_bytes;
static const char *note_path, *count_path;

static const struct { const char *name; int value; } errnos[] = {
	{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "ENOLCK", ENOLCK },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EDQUOT", EDQUOT },
	{ "EROFS", EROFS }, { "EINVAL", EINVAL }, { "EEXIST", EEXIST },
	{ "EXDEV", EXDEV }, { "EMFILE", EMFILE }, { "EBUSY", EBUSY },
	{ "EINTR", EINTR }, { "EOVERFLOW", EOVERFLOW },
};

static void note(const char *what, const char *call, const char *path)
{
	if (note_path == NULL)
		return;
	int fd = open(note_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
		      0644);
	if (fd < 0)
		return;
	char line[8300];
	int n = snprintf(line, sizeof line, "%s %s %s\n", what, call,
			 path ? path : "-");
	ssize_t w = write(fd, line, (size_t)n);
	(void)w;
	close(fd);
}

__attribute__((constructor)) static void shim_init(void)
{
	const char *f = getenv("RC4TUNE_SHIM_FILE");
	const char *s;

	if (f == NULL || strlen(f) >= sizeof file - 2 || f[0] != '/')
		return;
	strcpy(file, f);
	const char *slash = strrchr(file, '/');
	dirlen = slash == file ? 1 : (size_t)(slash - file);
	memcpy(dir, file, dirlen);
	dir[dirlen] = '\0';
	/* dir and the name are parts of FILE: this fits */
	if (snprintf(prefix, sizeof prefix, "%s/.%s.",
		     slash == file ? "" : dir, slash + 1) >= (int)sizeof prefix)
		abort();
	if ((s = getenv("RC4TUNE_SHIM_FAIL")) != NULL) {
		char call[32], err[32];
		if (sscanf(s, "%31[^:]:%d:%31s", call, &fail_n, err) != 3)
			abort();
		for (int i = 0; i < C_CALLS; i++)
			if (strcmp(call, names[i]) == 0)
				fail_call = i;
		for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
			if (strcmp(err, errnos[i].name) == 0)
				fail_errno = errnos[i].value;
		if (fail_call < 0 || fail_errno == 0)
			abort();
	}
	if ((s = getenv("RC4TUNE_SHIM_STOP")) != NULL)
		stop_n = atoi(s);
	reader = getenv("RC4TUNE_SHIM_READER") != NULL;
	armed = getenv("RC4TUNE_SHIM_ALL") != NULL;
	note_path = getenv("RC4TUNE_SHIM_NOTE");
	count_path = getenv("RC4TUNE_SHIM_COUNT");
	ready = 1;
}

__attribute__((destructor)) static void shim_fini(void)
{
	if (!ready || count_path == NULL)
		return;
	in_shim = 1; /* fopen's allocation is the shim's */
	FILE *f = fopen(count_path, "w");
	if (f == NULL)
		return;
	for (int i = 0; i < C_CALLS; i++)
		fprintf(f, "%s %d\n", names[i], count[i]);
	fprintf(f, "malloc_bytes %llu\n", malloc_bytes);
	fclose(f);
}

/* 2: PATH is FILE's directory; 1: FILE or one of its siblings; 0: else. */
static int watched(const char *path)
{
	if (path == NULL)
		return 0;
	if (strcmp(path, dir) == 0)
		return 2;
	return strcmp(path, file) == 0 ||
	       strncmp(path, prefix, strlen(prefix)) == 0;
}

/* The path of FD into BUF (sizeof file bytes), or NULL. */
static const char *fd_path(int fd, char *buf)
{
	char proc[64];

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(proc, buf, sizeof file - 1);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

/* Before a watched CALL on PATH: whether it is to fail (errno set); a
 * change on disk may stop the process first. */
static int before(enum call c, const char *path, int change)
{
	if (in_shim)
		return 0;
	in_shim = 1;
	if (change && stop_n > 0 && ++changes == stop_n) {
		note("stopped-before", names[c], path);
		raise(SIGSTOP);
	}
	int fail = ++count[c] == fail_n && (int)c == fail_call;
	if (fail) {
		note("failed", names[c], path);
		if (getenv("RC4TUNE_SHIM_BT") != NULL) {
			void *bt[32];
			backtrace_symbols_fd(bt, backtrace(bt, 32), 2);
		}
	}
	in_shim = 0;
	if (fail)
		errno = fail_errno;
	return fail;
}

#define REAL(name) \
	static __typeof__(&name) real_##name; \
	if (real_##name == NULL) \
		real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

/* The absolute form of PATH (relative to DIRFD) into BUF (8200 bytes), when it can be
 * had cheaply: watched paths are absolute in the tests. */
static const char *abs_path(int dirfd, const char *path, char *buf)
{
	if (path == NULL || path[0] == '/' || dirfd == AT_FDCWD)
		return path;
	char d[4096];
	if (fd_path(dirfd, d) == NULL)
		return path;
	snprintf(buf, 8200, "%s/%s", d, path);
	return buf;
}

static int open_common(int dirfd, const char *path, int flags, mode_t mode,
		       int at)
{
	char buf[8200];
	const char *p = abs_path(dirfd, path, buf);
	int w = ready ? watched(p) : 0;

	if (w) {
		if (w == 1 && strncmp(p, prefix, strlen(prefix)) == 0 &&
		    strcmp(p + strlen(prefix), "lock") == 0 && !reader)
			armed = 1;
		if (before(C_OPEN, p, (flags & O_ACCMODE) != O_RDONLY))
			return -1;
	}
	int fd;
	if (at) {
		REAL(openat);
		fd = real_openat(dirfd, path, flags, mode);
	} else {
		REAL(open);
		fd = real_open(path, flags, mode);
	}
	if (w == 1 && reader && fd >= 0 && strcmp(p, file) == 0)
		reader_fd = fd, armed = 1;
	return fd;
}

int close(int fd)
{
	REAL(close);
	if (reader && fd >= 0 && fd == reader_fd)
		reader_fd = -1, armed = 0;
	return real_close(fd);
}

/* The mode argument the open calls take with O_CREAT or O_TMPFILE, read
 * after LAST. */
#define MODE_ARG(flags, last)                                   \
	({                                                      \
		mode_t m_ = 0;                                  \
		if ((flags) & (O_CREAT | O_TMPFILE)) {          \
			va_list ap;                             \
			va_start(ap, last);                     \
			m_ = va_arg(ap, mode_t);                \
			va_end(ap);                             \
		}                                               \
		m_;                                             \
	})

int open(const char *path, int flags, ...)
{
	return open_common(AT_FDCWD, path, flags, MODE_ARG(flags, flags), 0);
}

int open64(const char *path, int flags, ...)
{
	return open_common(AT_FDCWD, path, flags, MODE_ARG(flags, flags), 0);
}

int openat(int dirfd, const char *path, int flags, ...)
{
	return open_common(dirfd, path, flags, MODE_ARG(flags, flags), 1);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
	return open_common(dirfd, path, flags, MODE_ARG(flags, flags), 1);
}

int mkostemp(char *tmpl, int flags)
{
	REAL(mkostemp);
	if (ready && watched(tmpl) && before(C_MKOSTEMP, tmpl, 1))
		return -1;
	return real_mkostemp(tmpl, flags);
}

/* Whether FD is one of FILE's files (1) or its directory (2), its path
 * into BUF. */
static int fd_watched(int fd, char *buf)
{
	if (!ready || in_shim)
		return 0;
	return watched(fd_path(fd, buf));
}

ssize_t write(int fd, const void *p, size_t n)
{
	char buf[4096];
	REAL(write);
	if (fd > 2 && fd_watched(fd, buf) == 1 && before(C_WRITE, buf, 1))
		return -1;
	return real_write(fd, p, n);
}

ssize_t read(int fd, void *p, size_t n)
{
	char buf[4096];
	REAL(read);
	if (fd > 2 && fd_watched(fd, buf) == 1 && before(C_READ, buf, 0))
		return -1;
	return real_read(fd, p, n);
}

int fstat(int fd, struct stat *st)
{
	char buf[4096];
	REAL(fstat);
	if (fd > 2 && fd_watched(fd, buf) == 1 && before(C_FSTAT, buf, 0))
		return -1;
	return real_fstat(fd, st);
}

int fstat64(int fd, struct stat64 *st)
{
	char buf[4096];
	REAL(fstat64);
	if (fd > 2 && fd_watched(fd, buf) == 1 && before(C_FSTAT, buf, 0))
		return -1;
	return real_fstat64(fd, st);
}

int fsync(int fd)
{
	char buf[4096];
	REAL(fsync);
	if (fd_watched(fd, buf) && before(C_FSYNC, buf, 1))
		return -1;
	return real_fsync(fd);
}

int ftruncate(int fd, off_t len)
{
	char buf[4096];
	REAL(ftruncate);
	if (fd_watched(fd, buf) == 1 && before(C_FTRUNCATE, buf, 1))
		return -1;
	return real_ftruncate(fd, len);
}

int fchown(int fd, uid_t u, gid_t g)
{
	char buf[4096];
	REAL(fchown);
	if (fd_watched(fd, buf) == 1 && before(C_FCHOWN, buf, 1))
		return -1;
	return real_fchown(fd, u, g);
}

int fchmod(int fd, mode_t m)
{
	char buf[4096];
	REAL(fchmod);
	if (fd_watched(fd, buf) == 1 && before(C_FCHMOD, buf, 1))
		return -1;
	return real_fchmod(fd, m);
}

int flock(int fd, int op)
{
	char buf[4096];
	REAL(flock);
	if (!(op & LOCK_UN) && fd_watched(fd, buf) == 1 &&
	    before(C_FLOCK, buf, 0))
		return -1;
	return real_flock(fd, op);
}

int rename(const char *from, const char *to)
{
	REAL(rename);
	if (ready && watched(to) == 1 && before(C_RENAME, to, 1))
		return -1;
	return real_rename(from, to);
}

int renameat2(int fromfd, const char *from, int tofd, const char *to,
	      unsigned flags)
{
	char buf[8200];
	REAL(renameat2);
	if (ready && watched(abs_path(tofd, to, buf)) == 1 &&
	    before(C_RENAMEAT2, to, 1))
		return -1;
	return real_renameat2(fromfd, from, tofd, to, flags);
}

/* Whether an allocation of N bytes is to fail; counted when watched. */
static int malloc_fails(size_t n)
{
	if (!ready || !armed || in_shim)
		return 0;
	malloc_bytes += n;
	return before(C_MALLOC, NULL, 0);
}

void *malloc(size_t n)
{
	return malloc_fails(n) ? NULL : __libc_malloc(n);
}

void *realloc(void *p, size_t n)
{
	return malloc_fails(n) ? NULL : __libc_realloc(p, n);
}
