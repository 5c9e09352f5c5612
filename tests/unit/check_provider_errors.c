/* SPDX-License-Identifier: MIT */
/* check_provider_errors.c - every bad input to the provider module fails
 * with an rc4tune error, never a crash (rc4tune-provider(7), Errors):
 * through EVP, and, for calls that EVP never makes with bad arguments (an
 * output shorter than the input, a NULL outl), straight through the
 * module's dispatch table; so do allocations failed (this program's malloc
 * and calloc, which the module's resolve to) and parameters that do not
 * convert. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rc4.h>
#include "rc4tune.h"
#include "provfix.h"

/* Allocation failure: while fail_allocs is set, every malloc and calloc
 * in the process fails, the module's included (provfix.h: where this
 * can run). */
#ifndef NO_ALLOC_HOOK
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
static volatile int fail_allocs;

__attribute__((visibility("default"))) void *malloc(size_t n)
{
	if (fail_allocs) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}

__attribute__((visibility("default"))) void *calloc(size_t n, size_t size)
{
	if (fail_allocs) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_calloc(n, size);
}
#endif

START_TEST(test_bad_key_length)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t key[257] = { 1 }, out[8];
	int outl;

	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, 0), 0);
	ck_error("key length must be 1 to 256 bytes");
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, 257), 0);
	ck_error("key length must be 1 to 256 bytes");
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 16);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, 256), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, 1), 1);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL, key, NULL, NULL), 1);

	/* in the init's parameters */
	size_t kl = 257;
	OSSL_PARAM p[2] = { OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl),
			    OSSL_PARAM_END };
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL, NULL, NULL, p), 0);
	ck_error("key length must be 1 to 256 bytes");
	/* of the wrong type */
	char text[] = "16";
	OSSL_PARAM t[2] = { OSSL_PARAM_utf8_string(OSSL_CIPHER_PARAM_KEYLEN,
						   text, 0),
			    OSSL_PARAM_END };
	ck_assert_int_eq(EVP_CIPHER_CTX_set_params(ctx, t), 0);
	ck_error("parameter of the wrong type or size");
	/* none of that touched the key length or the key */
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, out, &outl, key, 8), 1);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

START_TEST(test_no_key)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t buf[16] = { 0 };
	int outl;

	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, buf, &outl, buf, 16), 0);
	ck_error("no key set");
	ck_assert_int_eq(EVP_Cipher(ctx, buf, buf, 16), -1);
	ck_error("no key set");
	ck_assert_int_eq(EVP_EncryptFinal_ex(ctx, buf, &outl), 0);
	ck_error("no key set");
	/* a copy of a context without a key has none either */
	EVP_CIPHER_CTX *dup = EVP_CIPHER_CTX_new();
	ck_assert_int_eq(EVP_CIPHER_CTX_copy(dup, ctx), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(dup, buf, &outl, buf, 16), 0);
	ck_error("no key set");
	EVP_CIPHER_CTX_free(dup);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

START_TEST(test_update_after_final)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t buf[16] = { 0 };
	int outl;

	ck_assert_int_eq(EVP_DecryptInit_ex2(ctx, c, buf, NULL, NULL), 1);
	ck_assert_int_eq(EVP_DecryptUpdate(ctx, buf, &outl, buf, 16), 1);
	ck_assert_int_eq(EVP_DecryptFinal_ex(ctx, buf, &outl), 1);
	ck_assert_int_eq(EVP_DecryptUpdate(ctx, buf, &outl, buf, 16), 0);
	ck_error("update after final");
	ck_assert_int_eq(EVP_Cipher(ctx, buf, buf, 16), -1);
	ck_error("update after final");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

START_TEST(test_null_buffers)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t buf[16] = { 0 };
	int outl;

	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, buf, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, buf, &outl, NULL, 16), 0);
	ck_error("NULL buffer with a nonzero length");
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, NULL, &outl, buf, 16), 0);
	ck_error("NULL buffer with a nonzero length");
	ck_assert_int_eq(EVP_Cipher(ctx, NULL, buf, 16), -1);
	ck_error("NULL buffer with a nonzero length");
	/* nothing with a length of 0 is fine */
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, NULL, &outl, NULL, 0), 1);
	ck_assert_int_eq(outl, 0);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

START_TEST(test_tls_refused)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	unsigned int version = 0x0303;
	OSSL_PARAM p[2] = { OSSL_PARAM_uint(OSSL_CIPHER_PARAM_TLS_VERSION,
					    &version),
			    OSSL_PARAM_END };

	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_params(ctx, p), 0);
	ck_error("TLS record processing is not supported");
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

/* Key lengths 0 and 257 and an IV, through the inits' own arguments: a
 * rejected key leaves no key behind to continue with. */
static void bad_keys(const struct fns *f, void *ctx, const uint8_t *key,
		     uint8_t *buf)
{
	uint8_t out[64];
	size_t outl = 99;

	ck_assert_int_eq(f->einit(ctx, key, 0, NULL, 0, NULL), 0);
	ck_error("key length must be 1 to 256 bytes");
	ck_assert_int_eq(f->dinit(ctx, key, 257, NULL, 0, NULL), 0);
	ck_error("key length must be 1 to 256 bytes");
	ck_assert_int_eq(f->update(ctx, out, &outl, sizeof out, buf, 16), 0);
	ck_error("no key set");
	ck_assert_int_eq(f->einit(ctx, key, 16, NULL, 0, NULL), 1);
	ck_assert_int_eq(f->update(ctx, out, &outl, sizeof out, buf, 16), 1);
	ck_assert_int_eq(f->einit(ctx, key, 257, NULL, 0, NULL), 0);
	ck_error("key length must be 1 to 256 bytes");
	ck_assert_int_eq(f->update(ctx, out, &outl, sizeof out, buf, 16), 0);
	ck_error("no key set");
	/* an IV */
	ck_assert_int_eq(f->einit(ctx, key, 16, buf, 8, NULL), 0);
	ck_error("RC4 takes no IV");
}

/* Buffers EVP never passes (short, NULL, overlapping) on a keyed CTX
 * (BUF: 64 bytes); none of them moves the stream. */
static void bad_buffers(const struct fns *f, void *ctx, const uint8_t *key,
			uint8_t *buf)
{
	uint8_t out[64], want16[16];
	size_t outl = 99;

	/* output shorter than the input */
	ck_assert_int_eq(f->update(ctx, out, &outl, 15, buf, 16), 0);
	ck_error("output buffer shorter than the input");
	ck_assert_int_eq(f->cipher(ctx, out, &outl, 0, buf, 1), 0);
	ck_error("output buffer shorter than the input");
	/* NULL buffers, a NULL outl */
	ck_assert_int_eq(f->update(ctx, NULL, &outl, sizeof out, buf, 16), 0);
	ck_error("NULL buffer with a nonzero length");
	ck_assert_int_eq(f->cipher(ctx, out, &outl, sizeof out, NULL, 16), 0);
	ck_error("NULL buffer with a nonzero length");
	ck_assert_int_eq(f->update(ctx, out, NULL, sizeof out, buf, 16), 0);
	ck_error("NULL buffer with a nonzero length");
	ck_assert_int_eq(f->final(ctx, out, NULL, 0), 0);
	ck_error("NULL buffer with a nonzero length");
	/* overlapping other than exactly */
	ck_assert_int_eq(f->update(ctx, buf + 1, &outl, 32, buf, 32), 0);
	ck_error("input and output overlap other than exactly");
	ck_assert_int_eq(f->update(ctx, buf, &outl, 32, buf + 31, 32), 0);
	ck_error("input and output overlap other than exactly");
	/* none of that moved the stream: the bytes are still the first */
	memset(buf, 0, 64);
	oracle(key, 16, buf, want16, 16);
	ck_assert_int_eq(f->update(ctx, buf, &outl, 16, buf, 16), 1);
	ck_assert_uint_eq(outl, 16);
	ck_assert_mem_eq(buf, want16, 16);
	/* adjacent is not overlapping */
	ck_assert_int_eq(f->update(ctx, buf + 16, &outl, 16, buf, 16), 1);
}

/* A parameter of the wrong size on CTX, then every call with a NULL
 * context. */
static void bad_params_and_contexts(const struct fns *f, void *ctx,
				    const uint8_t *key, uint8_t *buf)
{
	uint8_t out[64];
	size_t outl = 99;
	uint8_t small = 0;
	OSSL_PARAM p[2] = { { OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER,
			      &small, 1, 0 }, OSSL_PARAM_END };

	p[0].data_size = 0;
	ck_assert_int_eq(f->get_ctx_params(ctx, p), 0);
	ck_error("parameter of the wrong type or size");
	ck_assert_int_eq(f->set_ctx_params(ctx, NULL), 1);

	/* NULL contexts */
	f->freectx(NULL);
	ck_assert_ptr_null(f->dupctx(NULL));
	ck_assert_int_eq(f->update(NULL, out, &outl, 16, buf, 16), 0);
	ck_assert_int_eq(f->final(NULL, out, &outl, 0), 0);
	ck_assert_int_eq(f->einit(NULL, key, 16, NULL, 0, NULL), 0);
	ck_assert_int_eq(f->set_ctx_params(NULL, NULL), 0);
	ck_assert_int_eq(f->get_ctx_params(NULL, p), 0);
}

START_TEST(test_bad_calls_direct)
{
	struct fns f = dispatch();
	uint8_t key[257] = { 1 }, buf[64] = { 0 };
	void *ctx = f.newctx(f.provctx);

	ck_assert_ptr_nonnull(ctx);
	bad_keys(&f, ctx, key, buf);
	ck_assert_int_eq(f.einit(ctx, key, 16, NULL, 0, NULL), 1);
	bad_buffers(&f, ctx, key, buf);
	bad_params_and_contexts(&f, ctx, key, buf);
	f.freectx(ctx);
}
END_TEST

/* newctx and dupctx out of memory: NULL and an rc4tune error, the
 * original context going on; through EVP, an init or a copy that fails. */
START_TEST(test_out_of_memory)
{
	const char *why = alloc_hook_missing();
	if (why != NULL) {
		fprintf(stderr, "SKIP: allocation failure: %s\n", why);
		return;
	}
#ifndef NO_ALLOC_HOOK
	struct fns f = dispatch();
	uint8_t key[16] = { 7 }, zero[32] = { 0 }, want32[32], out[32];
	size_t outl;

	fail_allocs = 1;
	void *ctx = f.newctx(f.provctx);
	fail_allocs = 0;
	ck_assert_ptr_null(ctx);
	ck_error("out of memory");

	ctx = f.newctx(f.provctx);
	ck_assert_ptr_nonnull(ctx);
	oracle(key, sizeof key, zero, want32, 32);
	ck_assert_int_eq(f.einit(ctx, key, sizeof key, NULL, 0, NULL), 1);
	ck_assert_int_eq(f.update(ctx, out, &outl, 16, zero, 16), 1);
	fail_allocs = 1;
	void *dup = f.dupctx(ctx);
	fail_allocs = 0;
	ck_assert_ptr_null(dup);
	ck_error("out of memory");
	ck_assert_int_eq(f.update(ctx, out + 16, &outl, 16, zero, 16), 1);
	ck_assert_mem_eq(out, want32, 32);
	f.freectx(ctx);

	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *e = EVP_CIPHER_CTX_new(), *e2 = EVP_CIPHER_CTX_new();
	int n;
	fail_allocs = 1;
	int rc = EVP_EncryptInit_ex2(e, c, key, NULL, NULL);
	fail_allocs = 0;
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(EVP_EncryptInit_ex2(e, c, key, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(e, out, &n, zero, 16), 1);
	fail_allocs = 1;
	rc = EVP_CIPHER_CTX_copy(e2, e);
	fail_allocs = 0;
	ck_assert_int_eq(rc, 0);
	ck_assert_int_eq(EVP_EncryptUpdate(e, out + 16, &n, zero, 16), 1);
	ck_assert_mem_eq(out, want32, 32);
	EVP_CIPHER_CTX_free(e2);
	EVP_CIPHER_CTX_free(e);
	EVP_CIPHER_free(c);
	ERR_clear_error();
#endif
}
END_TEST

/* Parameters that do not convert, each refused with an rc4tune error and
 * nothing changed: the wrong type, an integer size that is none, a
 * negative value, a value too big for the integer asked in, no data. */
START_TEST(test_params_unconverted)
{
	struct fns f = dispatch();
	void *ctx = f.newctx(f.provctx);
	uint8_t u8 = 0, raw[3] = { 0 };
	int8_t s8 = 0;
	int32_t neg = -1;
	uint64_t huge = (uint64_t)UINT32_MAX + 1;
	char str[8] = "16";
	OSSL_PARAM p[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	size_t kl = 0;
	OSSL_PARAM q[2] = { OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl),
			    OSSL_PARAM_END };
	const struct {
		const char *key;
		unsigned int type;
		void *data;
		size_t size;
	} bad_set[] = {
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UTF8_STRING, str, 2 },
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, raw, 3 },
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_INTEGER, &neg, sizeof neg },
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, NULL, 8 },
		{ OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_UNSIGNED_INTEGER, &huge,
		  sizeof huge },
		{ OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_OCTET_STRING, raw, 1 },
	}, bad_get[] = {
		/* 256 in one unsigned byte, in one signed byte */
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_UNSIGNED_INTEGER, &u8, 1 },
		{ OSSL_CIPHER_PARAM_KEYLEN, OSSL_PARAM_INTEGER, &s8, 1 },
		{ OSSL_CIPHER_PARAM_IVLEN, OSSL_PARAM_UTF8_STRING, str, sizeof str },
		{ OSSL_CIPHER_PARAM_PADDING, OSSL_PARAM_INTEGER, raw, 3 },
	};

	ck_assert_ptr_nonnull(ctx);
	kl = 256;
	ck_assert_int_eq(f.set_ctx_params(ctx, q), 1);
	for (size_t i = 0; i < sizeof bad_set / sizeof bad_set[0]; i++) {
		p[0] = (OSSL_PARAM){ bad_set[i].key, bad_set[i].type,
				     bad_set[i].data, bad_set[i].size, 0 };
		ck_assert_msg(f.set_ctx_params(ctx, p) == 0, "set %zu", i);
		ck_error("parameter of the wrong type or size");
	}
	for (size_t i = 0; i < sizeof bad_get / sizeof bad_get[0]; i++) {
		p[0] = (OSSL_PARAM){ bad_get[i].key, bad_get[i].type,
				     bad_get[i].data, bad_get[i].size, 0 };
		ck_assert_msg(f.get_ctx_params(ctx, p) == 0, "get %zu", i);
		ck_error("parameter of the wrong type or size");
	}
	/* nothing changed: the key length is still 256 */
	kl = 0;
	ck_assert_int_eq(f.get_ctx_params(ctx, q), 1);
	ck_assert_uint_eq(kl, 256);
	/* the algorithm's own parameters, in a type they do not convert to */
	EVP_CIPHER *c = fetch("RC4");
	p[0] = (OSSL_PARAM){ OSSL_CIPHER_PARAM_MODE, OSSL_PARAM_UTF8_STRING,
			     str, sizeof str, 0 };
	ck_assert_int_eq(EVP_CIPHER_get_params(c, p), 0);
	EVP_CIPHER_free(c);
	f.freectx(ctx);
}
END_TEST

/* The provider's own parameters asked for in a type they are not given
 * in: each refused with rc4tune's error; a good one still answered. */
START_TEST(test_provider_params_unconverted)
{
	const char *const keys[] = { OSSL_PROV_PARAM_NAME,
				     OSSL_PROV_PARAM_VERSION,
				     OSSL_PROV_PARAM_STATUS,
				     OSSL_PROV_PARAM_BUILDINFO,
				     "rc4tune-kernel" };
	char buf[64];
	const char *name = NULL;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		OSSL_PARAM p[2] = { OSSL_PARAM_utf8_string(keys[i], buf,
							   sizeof buf),
				    OSSL_PARAM_END };
		ck_assert_msg(OSSL_PROVIDER_get_params(prov, p) == 0, "%s",
			      keys[i]);
		ck_error("parameter of the wrong type or size");
	}
	OSSL_PARAM p[2] = { OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, &name, 0),
			    OSSL_PARAM_END };
	ck_assert_int_eq(OSSL_PROVIDER_get_params(prov, p), 1);
	ck_assert_str_eq(name, "rc4tune: RC4 by librc4tune");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("provider_errors");
	TCase *tc = tcase_create("bad input");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bad_key_length);
	tcase_add_test(tc, test_no_key);
	tcase_add_test(tc, test_update_after_final);
	tcase_add_test(tc, test_null_buffers);
	tcase_add_test(tc, test_tls_refused);
	tcase_add_test(tc, test_bad_calls_direct);
	tcase_add_test(tc, test_out_of_memory);
	tcase_add_test(tc, test_params_unconverted);
	tcase_add_test(tc, test_provider_params_unconverted);
	suite_add_tcase(s, tc);
	return test_run(s);
}
