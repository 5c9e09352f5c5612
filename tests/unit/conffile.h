/* SPDX-License-Identifier: MIT */
/* conffile.h - the fixture of the config reader's suites (check_conf.c,
 * check_conf_trust.c, check_checkconf.c): a scratch config file per test,
 * written, then read as the library reads it. */
#ifndef RC4_CONFFILE_H
#define RC4_CONFFILE_H

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf.h"
#include "testutil.h"

static char path[sizeof test_dir + 32];
static struct rc4_conf conf;
static char why[512];

static inline void setup(void)
{
	test_dir_make("check_conf");
	snprintf(path, sizeof path, "%s/rc4tune.conf", test_dir);
}

static inline void teardown(void)
{
	test_dir_remove();
}

/* Write LEN bytes of DATA as the config, mode 0644. */
static inline void put(const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, 0644), 0);
	close(fd);
}

static inline int read_text(const char *text, const char *section)
{
	put(text, strlen(text));
	return rc4_conf_read(path, section, &conf, NULL, why, sizeof why);
}

#define CPU "cpu GenuineIntel 6 207"

#endif
