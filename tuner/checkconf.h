/* SPDX-License-Identifier: MIT */
/* checkconf.h - rc4tune --check-conf: everything in a config that the
 * library silently tolerates or cannot use, by line. */
#ifndef RC4_CHECKCONF_H
#define RC4_CHECKCONF_H

#include <stdbool.h>
#include <stddef.h>
#include "conf.h"

/* Told of each problem at LINE: ERROR for what can never take effect (a
 * malformed [cpu ...] section, a kernel unknown or unusable where it
 * applies), else a warning (unknown key or section, repeats). */
typedef void checkconf_note(void *arg, int line, bool error, const char *msg);

/* Read PATH as the library does for SECTION (this CPU's, or NULL), telling
 * NOTE of each problem.  Returns rc4_conf_read's status (CONF and WHY as
 * it fills them), or -1 with WHY "out of memory". */
int checkconf(const char *path, const char *section, checkconf_note *note,
	      void *arg, struct rc4_conf *conf, char *why, size_t whysize);

#endif
