/* SPDX-License-Identifier: MIT */
/* selftest.h - the self-test of each kind (rc4k_kinds[].selftest): 0 when
 * every answer is right. */
#ifndef RC4K_SELFTEST_H
#define RC4K_SELFTEST_H

#include "kernel.h"

/* Known answers (RFC 6229 and classic vectors) in split calls, unaligned
 * and in place. */
int rc4k_selftest_single(const struct rc4k_info *k);

/* The reference kernel's bytes for every lane of an odd number of keys,
 * in place and not, and the keys continued by the companion kernel. */
int rc4k_selftest_batch(const struct rc4k_info *k);

#endif
