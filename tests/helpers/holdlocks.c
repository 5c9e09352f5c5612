/* SPDX-License-Identifier: MIT */
/* holdlocks.c - take every lock this user can on each PATH and hold them
 * until killed: what a hostile local user can do to the tuner's config,
 * its directory and its lock file (test_writer.sh).
 *
 * Usage: holdlocks [-s] [-c] PATH...
 *   -s  flock's shared lock instead of its exclusive one (one open file
 *       description cannot hold both; a second run takes the other)
 *   -c  create a missing PATH, mode 0600 (a lock file of one's own)
 * On each PATH opened for reading: flock, a POSIX read lock and an open
 * file description's read lock over the whole file; opened for writing
 * too, lockf's write lock.  One line per PATH names the locks taken (or
 * why it could not be opened), then "ready"; exit 1 on a usage error. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* A whole-file read lock on FD with fcntl command CMD: 0 or -1. */
static int read_lock(int fd, int cmd)
{
	struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET };

	return fcntl(fd, cmd, &l);
}

/* Every lock this user can take on PATH, printed; its descriptors stay
 * open, so the locks stay held. */
static void hold(const char *path, bool shared, bool create)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | (create ? O_CREAT : 0);
	int fd = open(path, flags, 0600);

	printf("%s:", path);
	if (fd < 0) {
		printf(" cannot open (%s)\n", strerror(errno));
		return;
	}
	if (flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0)
		printf(shared ? " flock-sh" : " flock-ex");
	if (read_lock(fd, F_SETLK) == 0)
		printf(" posix-read");
	int ofd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (ofd >= 0 && read_lock(ofd, F_OFD_SETLK) == 0)
		printf(" ofd-read");
	int wfd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY);
	if (wfd >= 0 && lockf(wfd, F_TLOCK, 0) == 0)
		printf(" lockf");
	printf("\n");
}

int main(int argc, char **argv)
{
	bool shared = false, create = false;
	int opt;

	while ((opt = getopt(argc, argv, "sc")) != -1)
		if (opt == 's')
			shared = true;
		else if (opt == 'c')
			create = true;
		else
			return 1;
	if (optind == argc)
		return 1;
	for (int i = optind; i < argc; i++)
		hold(argv[i], shared, create);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
