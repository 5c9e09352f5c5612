/* SPDX-License-Identifier: MIT */
/* confwrite.h - a config file replaced safely (rc4tune(1), --output and
 * LOCKING): checked before any measuring, locked, replaced atomically. */
#ifndef RC4_CONFWRITE_H
#define RC4_CONFWRITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define CONFWRITE_LOCK_WAIT 10 /* seconds, for another run's lock */

/* Where a config goes. */
struct confwrite {
	const char *path;      /* as the user named it */
	/* PATH, or the file at the end of its symlinks (which stay links) */
	char target[PATH_MAX];
	char lock[PATH_MAX];   /* ".NAME.lock" next to the target */
	int fd;                /* a device, a pipe or stdout; -1: a file */
	bool to_stdout;
	bool unchanged;        /* confwrite_replace left the file as it was */
	/* Under the lock: its descriptor; the file as confwrite_read read
	 * it (LIVE_FD -1: there was none), its bytes and its stat. */
	int lock_fd, live_fd;
	char *old;
	size_t old_len;
	struct stat live;
};

/* confwrite_replace's: a writer without the lock created the file since
 * confwrite_read found none: read and decide again. */
#define CONFWRITE_AGAIN 2

/* Whether PATH is "-" or names stdout's file (same device and inode,
 * whatever the spelling): the one test of it, for every action. */
bool confwrite_is_stdout(const char *path);

/* Check, before any measuring, that PATH can take a config as rc4tune(1)
 * --output says; devices and pipes are opened for writing here.  0, or -1
 * after printing the path and the reason on stderr. */
int confwrite_open(struct confwrite *w, const char *path);

/* From lock to unlock, other runs wait (at most CONFWRITE_LOCK_WAIT s,
 * then -1 after saying why), so no section is lost and each reads back
 * its own result.  No lock for a device or a pipe. */
int confwrite_lock(struct confwrite *w);
void confwrite_unlock(struct confwrite *w);

/* The file's bytes now, *OLD (NUL-terminated, W's until the next read or
 * the unlock; "" where there is no file, or a device or a pipe): 0, or -1
 * after saying why.  Without the lock, a look at one whole version. */
int confwrite_read(struct confwrite *w, const char **old, size_t *len);

/* TEXT (LEN bytes) in place of the file confwrite_read read, unless the
 * library would refuse it (rc4_conf_check); mode and owner as rc4tune(1)
 * --output says.  A text equal to the file leaves it as it is (same inode
 * and mtime).  0 when written, CONFWRITE_AGAIN, or -1 after saying why
 * (the old file untouched). */
int confwrite_replace(struct confwrite *w, const char *text, size_t len);

/* Say that the file is left as it was, after the caller said why. */
void confwrite_kept(const struct confwrite *w);

void confwrite_close(struct confwrite *w);

#endif
