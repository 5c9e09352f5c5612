/* SPDX-License-Identifier: MIT */
/* confwrite.h - put one section into a config file safely: checked before
 * any measuring, merged under a lock no other user can take, checked as
 * the library reads, replaced atomically. */
#ifndef RC4_CONFWRITE_H
#define RC4_CONFWRITE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

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
	/* Set by confwrite_commit: the new text equals the file byte for
	 * byte (and its mode needs no change), which was left untouched. */
	bool unchanged;
};

/* What the caller decides and checks while the lock is held. */
struct confwrite_hooks {
	/* Given the file's bytes now (LEN 0: no file yet, or a device or
	 * a pipe): the new file, malloc'ed, *OUTLEN bytes, or NULL to keep
	 * the file as it is (*ERR set when that is a failure, said on
	 * stderr).  A device or a pipe gets what it gives for no bytes. */
	char *(*update)(const char *old, size_t len, size_t *outlen, bool *err,
			void *arg);
	/* After the new file is in place, still under the lock: 0, or -1
	 * once the caller has said why the result is no good. */
	int (*written)(const char *path, void *arg);
	void *arg;
};

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

/* Replace W's file by what HOOKS->update makes of it, holding W's lock
 * file from reading the file until HOOKS->written has run: other runs of
 * the caller wait for it, at most CONFWRITE_LOCK_WAIT seconds (then -1,
 * nothing written), so no section is lost and each reads back its own
 * result.  A new file that the library would refuse (rc4_conf_check) is
 * not written (-1), nor is such a text to a device or a pipe.  A new file is the caller's, mode 0644; a replaced
 * one keeps its mode less group and other write (with a warning) and, as
 * root, its group.  The temporary file is in the same directory: fsync,
 * rename, fsync of the directory (a failure there is a warning: the new
 * file is in place).  A new text equal to the file, whose mode the
 * library takes, leaves it as it is (same inode and mtime; W->unchanged;
 * HOOKS->written still runs).  Returns 0 when written, 1 when HOOKS->update kept
 * the file, -1 after saying why on stderr (the old file is then
 * untouched, unless HOOKS->written failed). */
int confwrite_commit(struct confwrite *w, const struct confwrite_hooks *hooks);

void confwrite_close(struct confwrite *w);

#endif
