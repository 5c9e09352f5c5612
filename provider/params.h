/* SPDX-License-Identifier: MIT */
/* params.h - the few OSSL_PARAM reads and writes the provider needs, done
 * here rather than by libcrypto's OSSL_PARAM_* functions, so that
 * rc4tune.so imports nothing from libcrypto: a program with its own static
 * OpenSSL then loads it without a second libcrypto.  Same rules as
 * OSSL_PARAM(3) for the types used (native-endian integers of 1, 2, 4 or 8
 * bytes; UTF-8 pointers); each returns 0 where OpenSSL's would. */
#ifndef RC4TUNE_PROVIDER_PARAMS_H
#define RC4TUNE_PROVIDER_PARAMS_H

#include <stddef.h>
#include <openssl/core.h>

const OSSL_PARAM *param_locate_const(const OSSL_PARAM *p, const char *key);
OSSL_PARAM *param_locate(OSSL_PARAM *p, const char *key);
int param_get_size_t(const OSSL_PARAM *p, size_t *val);
int param_get_uint(const OSSL_PARAM *p, unsigned int *val);
int param_set_size_t(OSSL_PARAM *p, size_t val);
int param_set_uint(OSSL_PARAM *p, unsigned int val);
int param_set_int(OSSL_PARAM *p, int val);
int param_set_utf8_ptr(OSSL_PARAM *p, const char *val);

#endif
