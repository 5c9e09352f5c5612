/* SPDX-License-Identifier: MIT */
/* confwrite.h - put one section into a config file safely: checked before
 * any measuring, merged under a lock no other user can take, checked as
 * the library reads, replaced atomically. */
#ifndef RC4_CONFWRITE_H
#define RC4_CONFWRITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* Seconds a run waits at most for another run's lock (rc4tune(1)). */
#define CONFWRITE_LOCK_WAIT 10

/* Where a config goes. */
struct confwrite {
	const char *path;      /* as the user named it */
	/* A regular file, existing or not, replaced atomically: PATH, or
	 * the file at the end of its chain of symlinks (which stay links). */
	char target[PATH_MAX];
	/* Its lock file, ".NAME.lock" next to the target (NAME: the
	 * target's), the caller's alone, mode 0600; there while a run holds
	 * it. */
	char lock[PATH_MAX];
	/* Else a device, a pipe or standard output, open for writing: it
	 * gets the section alone, as it is; -1 for a file. */
	int fd;
	bool to_stdout; /* PATH is standard output (confwrite_is_stdout) */
	/* Set by confwrite_replace: the new text equals the file byte for
	 * byte (and its mode needs no change), which was left untouched. */
	bool unchanged;
	/* Between confwrite_lock and confwrite_unlock: the lock file's
	 * descriptor; the file as confwrite_read read it (LIVE_FD -1: there
	 * was none), its bytes and its stat. */
	int lock_fd, live_fd;
	char *old;
	size_t old_len;
	struct stat live;
};

/* confwrite_replace's: the file appeared since confwrite_read found none
 * (a writer that did not take the lock): read and decide again. */
#define CONFWRITE_AGAIN 2

/* Whether PATH is standard output: "-", or a name of the file that
 * descriptor 1 is open for writing on (/dev/stdout, /dev/fd/1, its
 * terminal, the file it was redirected to): the same device and inode,
 * whatever the spelling.  The one test of it, for every action. */
bool confwrite_is_stdout(const char *path);

/* Check, before any measuring, that PATH can take a config, as rc4tune(1)
 * says: a symlink that another user owns or that fs.protected_symlinks
 * would refuse is not followed, anywhere in the path; every directory on
 * the way is root's or the caller's and writable by no one else (sticky
 * ones on the way excepted, not the file's own); a file another user
 * owns, a file with more than one hard link, one
 * larger than the library reads, a directory, a FIFO with no reader, an
 * unwritable directory, a name too long for its temporary file and a lock
 * file that is not the caller's alone (see confwrite.lock) are refused.
 * Devices and pipes are opened for writing here.  Returns 0, or -1 after
 * printing the path and the reason on stderr. */
int confwrite_open(struct confwrite *w, const char *path);

/* A file is read and replaced under W's lock file, held from
 * confwrite_lock to confwrite_unlock: other runs of the caller wait for
 * it, at most CONFWRITE_LOCK_WAIT seconds (then -1, after saying why), so
 * no section is lost and each reads back its own result.  No lock for a
 * device or a pipe. */
int confwrite_lock(struct confwrite *w);
void confwrite_unlock(struct confwrite *w);

/* The file's bytes now, *OLD (NUL-terminated, W's until the next read or
 * the unlock; "" with *LEN 0 where there is no file yet, or a device or a
 * pipe), kept for confwrite_replace: 0, or -1 after saying why.  Without
 * the lock, a look at one version of the file (each replaces it whole),
 * let go by confwrite_unlock. */
int confwrite_read(struct confwrite *w, const char **old, size_t *len);

/* TEXT (LEN bytes) in place of the file confwrite_read read.  A text the
 * library would refuse (rc4_conf_check) is not written (-1).  A new file
 * is the caller's, mode 0644; a replaced one keeps its mode less group
 * and other write (with a warning) and, as root, its group.  The
 * temporary file is in the same directory: fsync, rename, fsync of the
 * directory (a failure there is a warning: the new file is in place).  A
 * text equal to the file, whose mode the library takes, leaves it as it
 * is (same inode and mtime; W->unchanged).  A device or a pipe gets TEXT
 * as it is.  Returns 0 when written, CONFWRITE_AGAIN, or -1 after saying
 * why (the old file untouched). */
int confwrite_replace(struct confwrite *w, const char *text, size_t len);

/* Say that the file read is left as it was (or nothing written), after
 * the caller said why it made no text. */
void confwrite_kept(const struct confwrite *w);

void confwrite_close(struct confwrite *w);

#endif
