/* SPDX-License-Identifier: MIT */
/* readfile.c - a whole small file into memory (readfile.h). */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "readfile.h"

char *rc4_read_fd(int fd, size_t max, size_t *len, bool *more)
{
	char *buf = malloc(max + 2);
	size_t got = 0;

	if (buf == NULL)
		return NULL;
	/* one byte past MAX tells a longer file */
	while (got <= max) {
		ssize_t n = read(fd, buf + got, max + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	*more = got > max;
	*len = *more ? max : got;
	buf[*len] = '\0';
	return buf;
}

char *rc4_read_file(const char *path, size_t max, size_t *len, bool *more)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	char *buf = rc4_read_fd(fd, max, len, more);
	int err = errno;
	close(fd);
	errno = err;
	return buf;
}
