/* SPDX-License-Identifier: MIT */
/* inibuild.h - the inih build the config's readers assume (Debian's): its
 * limits, and the check that the linked inih is built so. */
#ifndef RC4_INIBUILD_H
#define RC4_INIBUILD_H

#include <stddef.h>

/* inih reads lines into a 200-byte buffer (INI_MAX_LINE) that must also
 * hold the '\n' and the NUL: longer lines it silently splits in two. */
#define RC4_CONF_MAX_LINE 198
/* inih keeps a section name in a 50-byte buffer (MAX_SECTION) and cuts
 * longer names: a cut name could match another section. */
#define RC4_CONF_MAX_SECTION 49

/* 0 when the linked inih reads lines and section names of the sizes above
 * whole, and lines as rc4_ini_line says; else -1, WHY naming the build
 * option that differs and what inih did. */
int rc4_ini_build_check(char *why, size_t whysize);

#endif
