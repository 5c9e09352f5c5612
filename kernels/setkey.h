/* SPDX-License-Identifier: MIT */
/* setkey.h - the key schedules of the C families (loop.h's RC4K_SET_KEY),
 * for other kernels that keep their state in the same layout. */
#ifndef RC4K_SETKEY_H
#define RC4K_SETKEY_H

#include "kernel.h"

void rc4k_char_set_key(struct rc4k_state *st, const uint8_t *key, size_t len);
void rc4k_int_set_key(struct rc4k_state *st, const uint8_t *key, size_t len);
void rc4k_long_set_key(struct rc4k_state *st, const uint8_t *key, size_t len);

#endif
