/* SPDX-License-Identifier: MIT */
/* provfix.h - the fixture of the provider's suites (check_provider.c,
 * check_provider_errors.c, check_provider_wipe.c): a library context of
 * the test's own that loads the built module from RC4TUNE_PROVIDER_DIR
 * beside the default provider, the cipher fetched by "provider=rc4tune",
 * rc4tune's errors read back, OpenSSL's low-level RC4() as the reference,
 * and the module's own functions for calls past EVP. */
#ifndef RC4TUNE_PROVFIX_H
#define RC4TUNE_PROVFIX_H

#include <stdlib.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>
#include <openssl/rc4.h>
#include "testutil.h"

/* Suites that put their own malloc, calloc or free in the module's way
 * (the executable's definitions come first for a dlopened module too)
 * call glibc's __libc_ ones; NO_ALLOC_HOOK says why they cannot. */
#if TEST_ASAN || TEST_TSAN
#define NO_ALLOC_HOOK "a sanitized build"
#endif
#if !defined(__GLIBC__) && !defined(NO_ALLOC_HOOK)
#define NO_ALLOC_HOOK "not glibc"
#endif

/* Why the module's allocations do not reach such functions in this run,
 * or NULL: NO_ALLOC_HOOK, or valgrind's preloaded allocator serving it. */
static inline const char *alloc_hook_missing(void)
{
#ifdef NO_ALLOC_HOOK
	return NO_ALLOC_HOOK;
#else
	const char *pre = getenv("LD_PRELOAD");
	return pre != NULL && strstr(pre, "vgpreload") != NULL
		       ? "valgrind's allocator serves the module"
		       : NULL;
#endif
}

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov, *deflt;

/* Checked fixture: each forked test loads the module afresh. */
static inline void setup(void)
{
	const char *dir = getenv("RC4TUNE_PROVIDER_DIR");

	ck_assert_msg(dir != NULL, "RC4TUNE_PROVIDER_DIR is not set");
	libctx = OSSL_LIB_CTX_new();
	ck_assert_ptr_nonnull(libctx);
	ck_assert_int_eq(OSSL_PROVIDER_set_default_search_path(libctx, dir), 1);
	prov = OSSL_PROVIDER_load(libctx, "rc4tune");
	if (prov == NULL)
		ERR_print_errors_fp(stderr);
	ck_assert_msg(prov != NULL, "cannot load rc4tune from %s", dir);
	/* another provider beside it, so that the property has to choose */
	deflt = OSSL_PROVIDER_load(libctx, "default");
	ck_assert_ptr_nonnull(deflt);
	ERR_clear_error();
}

static inline void teardown(void)
{
	OSSL_PROVIDER_unload(deflt);
	OSSL_PROVIDER_unload(prov);
	OSSL_LIB_CTX_free(libctx);
}

static inline EVP_CIPHER *fetch(const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, "provider=rc4tune");

	ck_assert_msg(c != NULL, "cannot fetch %s from rc4tune", name);
	ck_assert_str_eq(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)),
			 "rc4tune");
	return c;
}

/* Whether the error queue holds rc4tune's error REASON; empties it. */
static inline int had_error(const char *reason)
{
	unsigned long e;
	int found = 0;

	while ((e = ERR_get_error()) != 0) {
		const char *lib = ERR_lib_error_string(e);
		const char *r = ERR_reason_error_string(e);
		if (lib != NULL && strcmp(lib, "rc4tune") == 0 && r != NULL &&
		    strcmp(r, reason) == 0)
			found = 1;
	}
	return found;
}

#define ck_error(reason) \
	ck_assert_msg(had_error(reason), "no rc4tune error '%s'", reason)

/* The reference: OpenSSL's own low-level RC4 (no provider involved). */
static inline void oracle(const uint8_t *key, size_t keylen,
			  const uint8_t *in, uint8_t *out, size_t n)
{
	RC4_KEY k;

	RC4_set_key(&k, (int)keylen, key);
	RC4(&k, n, in, out);
}

/* The module's functions for RC4 from its dispatch table: for calls that
 * EVP always makes with good arguments, and for the context itself, which
 * EVP keeps to itself. */
struct fns {
	void *provctx;
	OSSL_FUNC_cipher_newctx_fn *newctx;
	OSSL_FUNC_cipher_freectx_fn *freectx;
	OSSL_FUNC_cipher_dupctx_fn *dupctx;
	OSSL_FUNC_cipher_encrypt_init_fn *einit;
	OSSL_FUNC_cipher_decrypt_init_fn *dinit;
	OSSL_FUNC_cipher_update_fn *update;
	OSSL_FUNC_cipher_final_fn *final;
	OSSL_FUNC_cipher_cipher_fn *cipher;
	OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
	OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
};

static inline struct fns dispatch(void)
{
	struct fns f = { .provctx = OSSL_PROVIDER_get0_provider_ctx(prov) };
	int no_cache = 0;
	const OSSL_ALGORITHM *a =
		OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_cache);

	ck_assert_ptr_nonnull(a);
	while (a->algorithm_names != NULL &&
	       strncmp(a->algorithm_names, "RC4:", 4) != 0)
		a++;
	ck_assert_ptr_nonnull(a->algorithm_names);
	for (const OSSL_DISPATCH *d = a->implementation; d->function_id; d++) {
		switch (d->function_id) {
		case OSSL_FUNC_CIPHER_NEWCTX:
			f.newctx = OSSL_FUNC_cipher_newctx(d);
			break;
		case OSSL_FUNC_CIPHER_FREECTX:
			f.freectx = OSSL_FUNC_cipher_freectx(d);
			break;
		case OSSL_FUNC_CIPHER_DUPCTX:
			f.dupctx = OSSL_FUNC_cipher_dupctx(d);
			break;
		case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
			f.einit = OSSL_FUNC_cipher_encrypt_init(d);
			break;
		case OSSL_FUNC_CIPHER_DECRYPT_INIT:
			f.dinit = OSSL_FUNC_cipher_decrypt_init(d);
			break;
		case OSSL_FUNC_CIPHER_UPDATE:
			f.update = OSSL_FUNC_cipher_update(d);
			break;
		case OSSL_FUNC_CIPHER_FINAL:
			f.final = OSSL_FUNC_cipher_final(d);
			break;
		case OSSL_FUNC_CIPHER_CIPHER:
			f.cipher = OSSL_FUNC_cipher_cipher(d);
			break;
		case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
			f.get_ctx_params = OSSL_FUNC_cipher_get_ctx_params(d);
			break;
		case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
			f.set_ctx_params = OSSL_FUNC_cipher_set_ctx_params(d);
			break;
		}
	}
	OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, a);
	ck_assert(f.newctx && f.freectx && f.dupctx && f.einit && f.dinit &&
		  f.update && f.final && f.cipher && f.get_ctx_params &&
		  f.set_ctx_params);
	return f;
}

#endif
