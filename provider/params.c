/* SPDX-License-Identifier: MIT */
/* params.c - OSSL_PARAM reads and writes without libcrypto (see params.h). */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "params.h"

const OSSL_PARAM *param_locate_const(const OSSL_PARAM *p, const char *key)
{
	for (; p != NULL && p->key != NULL; p++)
		if (strcmp(p->key, key) == 0)
			return p;
	return NULL;
}

OSSL_PARAM *param_locate(OSSL_PARAM *p, const char *key)
{
	return (OSSL_PARAM *)param_locate_const(p, key);
}

/* The integer in P as an unsigned value: an unsigned one, or a signed one
 * that is not negative. */
static int get_u64(const OSSL_PARAM *p, uint64_t *val)
{
	int is_signed = p->data_type == OSSL_PARAM_INTEGER;
	uint64_t u;
	int64_t s;

	if (p->data == NULL ||
	    (!is_signed && p->data_type != OSSL_PARAM_UNSIGNED_INTEGER))
		return 0;
	/* each native integer size, read as itself and as its signed twin */
#define READ(type, stype) { type v; memcpy(&v, p->data, sizeof v); \
		u = v; s = (stype)v; break; }
	switch (p->data_size) {
	case 1: READ(uint8_t, int8_t)
	case 2: READ(uint16_t, int16_t)
	case 4: READ(uint32_t, int32_t)
	case 8: READ(uint64_t, int64_t)
	default: return 0;
	}
#undef READ
	if (is_signed && s < 0)
		return 0;
	*val = u;
	return 1;
}

/* VAL into the integer P describes, if it fits there.  A NULL data asks
 * only for the size, as with OpenSSL's setters. */
static int set_u64(OSSL_PARAM *p, uint64_t val)
{
	int is_signed = p->data_type == OSSL_PARAM_INTEGER;
	size_t n = p->data_size;

	if (!is_signed && p->data_type != OSSL_PARAM_UNSIGNED_INTEGER)
		return 0;
	if (n != 1 && n != 2 && n != 4 && n != 8)
		return 0;
	/* the largest value N bytes hold: all bits, less the sign's */
	uint64_t max = n == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * n)) - 1;
	if (is_signed)
		max >>= 1;
	if (val > max)
		return 0;
	p->return_size = n;
	if (p->data == NULL)
		return 1;
#define WRITE(type) { type v = (type)val; memcpy(p->data, &v, sizeof v); }
	if (n == 1)
		WRITE(uint8_t)
	else if (n == 2)
		WRITE(uint16_t)
	else if (n == 4)
		WRITE(uint32_t)
	else
		WRITE(uint64_t)
#undef WRITE
	return 1;
}

int param_get_size_t(const OSSL_PARAM *p, size_t *val)
{
	uint64_t v;

	if (!get_u64(p, &v) || v > SIZE_MAX)
		return 0;
	*val = (size_t)v;
	return 1;
}

int param_get_uint(const OSSL_PARAM *p, unsigned int *val)
{
	uint64_t v;

	if (!get_u64(p, &v) || v > UINT_MAX)
		return 0;
	*val = (unsigned int)v;
	return 1;
}

int param_set_size_t(OSSL_PARAM *p, size_t val)
{
	return set_u64(p, val);
}

int param_set_uint(OSSL_PARAM *p, unsigned int val)
{
	return set_u64(p, val);
}

/* Only the values the provider reports (0 and 1): never negative. */
int param_set_int(OSSL_PARAM *p, int val)
{
	return val >= 0 && set_u64(p, (uint64_t)val);
}

int param_set_utf8_ptr(OSSL_PARAM *p, const char *val)
{
	if (p->data_type != OSSL_PARAM_UTF8_PTR || val == NULL)
		return 0;
	p->return_size = strlen(val);
	if (p->data != NULL)
		*(const char **)p->data = val;
	return 1;
}
