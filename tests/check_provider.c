/* SPDX-License-Identifier: MIT */
/* check_provider.c - the provider module rc4tune.so as OpenSSL programs see
 * it (rc4tune-provider(7), ALGORITHMS): through EVP only, in a library
 * context of this test's own that loads the built module from
 * RC4TUNE_PROVIDER_DIR, fetched by the property "provider=rc4tune".
 * Against OpenSSL's low-level RC4(): random key lengths, random update
 * splits, copies mid-stream, in place, both directions, the one-shot
 * EVP_Cipher, RC4-40; the parameters EVP and `openssl list` ask for; the
 * kernel the provider names, for every kernel (switched through the
 * library, which the module shares with this process); and every bad input,
 * which must fail with an rc4tune error. Calls that EVP never makes with
 * bad arguments (an output shorter than the input, a NULL outl) go straight
 * to the module's dispatch table; so do allocations failed (this program's
 * malloc and calloc, which the module's resolve to) and parameters that do
 * not convert. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rc4.h>
#include "rc4tune.h"
#include "testutil.h"

/* Allocation failure: while fail_allocs is set, every malloc and calloc
 * in the process fails, the module's included (the executable's
 * definitions come first for a dlopened module too).  glibc only (its
 * __libc_ allocators), and not under ASan, whose allocator this would
 * bypass. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_ALLOC_HOOK "a sanitized build"
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(NO_ALLOC_HOOK)
#define NO_ALLOC_HOOK "a sanitized build"
#endif
#if !defined(__GLIBC__) && !defined(NO_ALLOC_HOOK)
#define NO_ALLOC_HOOK "not glibc"
#endif
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

static OSSL_LIB_CTX *libctx;
static OSSL_PROVIDER *prov, *deflt;

/* Checked fixture: each forked test loads the module afresh. */
static void setup(void)
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

static void teardown(void)
{
	OSSL_PROVIDER_unload(deflt);
	OSSL_PROVIDER_unload(prov);
	OSSL_LIB_CTX_free(libctx);
}

static EVP_CIPHER *fetch(const char *name)
{
	EVP_CIPHER *c = EVP_CIPHER_fetch(libctx, name, "provider=rc4tune");

	ck_assert_msg(c != NULL, "cannot fetch %s from rc4tune", name);
	ck_assert_str_eq(OSSL_PROVIDER_get0_name(EVP_CIPHER_get0_provider(c)),
			 "rc4tune");
	return c;
}

/* Whether the error queue holds rc4tune's error REASON; empties it. */
static int had_error(const char *reason)
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
static void oracle(const uint8_t *key, size_t keylen, const uint8_t *in,
		   uint8_t *out, size_t n)
{
	RC4_KEY k;

	RC4_set_key(&k, (int)keylen, key);
	RC4(&k, n, in, out);
}

#define MAXN (1 << 17)
static uint8_t plain[MAXN], want[MAXN], got[MAXN], got2[MAXN];

/* One stream through EVP: KEYLEN random key bytes, N random bytes fed in
 * random pieces (some empty), encrypting or decrypting, in place or not,
 * copied with EVP_CIPHER_CTX_copy at a random point; the original and the
 * copy must each give RC4()'s bytes from there on. */
static void one_stream(uint64_t *s, EVP_CIPHER *c, size_t keylen, size_t n)
{
	uint8_t key[256];
	int enc = (int)test_below(s, 2), inplace = (int)test_below(s, 2);
	size_t cut = test_below(s, n + 1), done = 0;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new(), *dup = NULL;

	test_fill(s, key, keylen);
	test_fill(s, plain, n);
	oracle(key, keylen, plain, want, n);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(EVP_CipherInit_ex2(ctx, c, NULL, NULL, enc, NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, (int)keylen), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), (int)keylen);
	ck_assert_int_eq(EVP_CipherInit_ex2(ctx, NULL, key, NULL, -1, NULL), 1);
	memcpy(got, plain, n);
	memcpy(got2, plain, n);
	while (done < n || dup == NULL) {
		if (dup == NULL && done >= cut) {
			dup = EVP_CIPHER_CTX_new();
			ck_assert_ptr_nonnull(dup);
			ck_assert_int_eq(EVP_CIPHER_CTX_copy(dup, ctx), 1);
			continue;
		}
		size_t step = test_below(s, 4) == 0 ? 0
			    : 1 + test_below(s, test_below(s, 2) ? 16 : 9000);
		if (step > n - done)
			step = n - done;
		if (dup == NULL && done + step > cut)
			step = cut - done;
		int outl = -1;
		for (int twice = 0; twice < (dup != NULL ? 2 : 1); twice++) {
			EVP_CIPHER_CTX *x = twice ? dup : ctx;
			uint8_t *buf = twice ? got2 : got;
			const uint8_t *in = inplace ? buf + done : plain + done;
			ck_assert_int_eq(EVP_CipherUpdate(x, buf + done, &outl,
							  in, (int)step), 1);
			ck_assert_int_eq(outl, (int)step);
		}
		if (dup == NULL) /* the copy starts from the original's bytes */
			memcpy(got2 + done, got + done, step);
		done += step;
	}
	int outl = -1;
	ck_assert_int_eq(EVP_CipherFinal_ex(ctx, got + n, &outl), 1);
	ck_assert_int_eq(outl, 0);
	ck_assert_int_eq(EVP_CipherFinal_ex(dup, got2 + n, &outl), 1);
	ck_assert_int_eq(outl, 0);
	ck_assert_msg(memcmp(got, want, n) == 0,
		      "keylen %zu, %zu bytes, enc %d, in place %d: wrong bytes",
		      keylen, n, enc, inplace);
	ck_assert_msg(memcmp(got2, want, n) == 0,
		      "keylen %zu, %zu bytes, copied at %zu: the copy differs",
		      keylen, n, cut);
	EVP_CIPHER_CTX_free(dup);
	EVP_CIPHER_CTX_free(ctx);
}

static size_t random_length(uint64_t *s)
{
	switch (test_below(s, 4)) {
	case 0:
		return test_below(s, 64);
	case 1:
		return test_below(s, 1024);
	default:
		return test_below(s, MAXN / 2 + 1);
	}
}

START_TEST(test_names_and_constants)
{
	static const char *const names[] = { "RC4", "rc4",
					     "1.2.840.113549.3.4", "RC4-40" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		EVP_CIPHER *c = fetch(names[i]);
		ck_assert(EVP_CIPHER_is_a(c, i < 3 ? "RC4" : "RC4-40"));
		ck_assert_int_eq(EVP_CIPHER_get_key_length(c), i < 3 ? 16 : 5);
		ck_assert_int_eq(EVP_CIPHER_get_iv_length(c), 0);
		ck_assert_int_eq(EVP_CIPHER_get_block_size(c), 1);
		ck_assert_int_eq(EVP_CIPHER_get_mode(c), EVP_CIPH_STREAM_CIPHER);
		ck_assert_int_eq(EVP_CIPHER_get_flags(c) &
					 (EVP_CIPH_FLAG_AEAD_CIPHER |
					  EVP_CIPH_CUSTOM_IV | EVP_CIPH_RAND_KEY),
				 0);
		EVP_CIPHER_free(c);
	}
	/* RC4 is all it offers */
	ck_assert_ptr_null(EVP_CIPHER_fetch(libctx, "AES-128-CBC",
					    "provider=rc4tune"));
	ERR_clear_error();
}
END_TEST

START_TEST(test_random_streams)
{
	uint64_t s = 0x5eed0000u + (uint64_t)_i;
	EVP_CIPHER *c = fetch("RC4");

	for (int round = 0; round < 8; round++)
		one_stream(&s, c, 1 + test_below(&s, 256), random_length(&s));
	/* the edges of the key length, and a stream of nothing */
	one_stream(&s, c, 1, 1000);
	one_stream(&s, c, 256, 1000);
	one_stream(&s, c, 16, 0);
	EVP_CIPHER_free(c);
}
END_TEST

/* RC4-40 with its default key length, as `openssl enc -rc4-40` uses it. */
START_TEST(test_rc4_40)
{
	uint64_t s = 40;
	uint8_t key[5];
	int outl;
	EVP_CIPHER *c = fetch("RC4-40");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	test_fill(&s, key, sizeof key);
	test_fill(&s, plain, 5000);
	oracle(key, sizeof key, plain, want, 5000);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, got, &outl, plain, 5000), 1);
	ck_assert_mem_eq(got, want, 5000);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

/* EVP_Cipher: the module's one-shot cipher function, any split. */
START_TEST(test_one_shot)
{
	uint64_t s = 7;
	uint8_t key[16];
	size_t n = 100000, done = 0;
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	test_fill(&s, key, sizeof key);
	test_fill(&s, plain, n);
	oracle(key, sizeof key, plain, want, n);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL), 1);
	memcpy(got, plain, n);
	while (done < n) {
		size_t step = 1 + test_below(&s, 3000);
		if (step > n - done)
			step = n - done;
		ck_assert_int_eq(EVP_Cipher(ctx, got + done, got + done,
					    (unsigned int)step), (int)step);
		done += step;
	}
	ck_assert_mem_eq(got, want, n);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

/* An IV that a caller passes through EVP reaches the module with length 0
 * (the cipher's IV length), just as `openssl enc -rc4 -K` passes its
 * unused IV buffer: the module cannot tell them apart, so it ignores it,
 * as rc4tune-provider(7) says and OpenSSL's own RC4 does: the stream is
 * the key's alone. */
START_TEST(test_iv_ignored)
{
	uint8_t key[16], iv[16], in[64] = { 0 }, out[64], want64[64];
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;

	for (int i = 0; i < 16; i++) {
		key[i] = (uint8_t)(i + 1);
		iv[i] = (uint8_t)(0xa0 + i);
	}
	oracle(key, sizeof key, in, want64, sizeof in);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, key, iv, NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_iv_length(ctx), 0);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, out, &outl, in, sizeof in), 1);
	ck_assert_int_eq(outl, (int)sizeof in);
	ck_assert_mem_eq(out, want64, sizeof in);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

/* An init without a key continues the stream (as OpenSSL's RC4 does) and
 * allows updates again after a final. */
START_TEST(test_reinit_continues)
{
	uint8_t key[16] = "0123456789abcdef";
	int outl;
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	memset(plain, 0, 64);
	oracle(key, sizeof key, plain, want, 64);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, key, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, got, &outl, plain, 32), 1);
	ck_assert_int_eq(EVP_EncryptFinal_ex(ctx, got + 32, &outl), 1);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL, NULL, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, got + 32, &outl, plain, 32), 1);
	ck_assert_mem_eq(got, want, 64);
	/* a key restarts it */
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL, key, NULL, NULL), 1);
	ck_assert_int_eq(EVP_EncryptUpdate(ctx, got, &outl, plain, 64), 1);
	ck_assert_mem_eq(got, want, 64);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

static int listed(const OSSL_PARAM *list, const char *name)
{
	return list != NULL && OSSL_PARAM_locate_const(list, name) != NULL;
}

START_TEST(test_parameters)
{
	EVP_CIPHER *c = fetch("RC4");
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	const OSSL_PARAM *g = EVP_CIPHER_gettable_params(c);
	static const char *const alg[] = {
		OSSL_CIPHER_PARAM_MODE, OSSL_CIPHER_PARAM_KEYLEN,
		OSSL_CIPHER_PARAM_IVLEN, OSSL_CIPHER_PARAM_BLOCK_SIZE,
		OSSL_CIPHER_PARAM_AEAD, OSSL_CIPHER_PARAM_CUSTOM_IV,
		OSSL_CIPHER_PARAM_CTS, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK,
		OSSL_CIPHER_PARAM_HAS_RAND_KEY
	};
	for (size_t i = 0; i < sizeof alg / sizeof alg[0]; i++)
		ck_assert_msg(listed(g, alg[i]), "%s not gettable", alg[i]);
	g = EVP_CIPHER_gettable_ctx_params(c);
	ck_assert(listed(g, OSSL_CIPHER_PARAM_KEYLEN));
	ck_assert(listed(g, OSSL_CIPHER_PARAM_IVLEN));
	ck_assert(listed(g, OSSL_CIPHER_PARAM_PADDING));
	g = EVP_CIPHER_settable_ctx_params(c);
	ck_assert(listed(g, OSSL_CIPHER_PARAM_KEYLEN));
	ck_assert(listed(g, OSSL_CIPHER_PARAM_PADDING));

	/* what a context reports, before and after a key */
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, c, NULL, NULL, NULL), 1);
	ck_assert(listed(EVP_CIPHER_CTX_gettable_params(ctx),
			 OSSL_CIPHER_PARAM_KEYLEN));
	ck_assert(listed(EVP_CIPHER_CTX_settable_params(ctx),
			 OSSL_CIPHER_PARAM_KEYLEN));
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 16);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_iv_length(ctx), 0);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_block_size(ctx), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_key_length(ctx, 7), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 7);
	ck_assert_int_eq(EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
	unsigned int pad = 9;
	OSSL_PARAM p[2] = { OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, &pad),
			    OSSL_PARAM_END };
	ck_assert_int_eq(EVP_CIPHER_CTX_get_params(ctx, p), 1);
	ck_assert_uint_eq(pad, 0);
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL,
					     (const uint8_t *)"1234567", NULL,
					     NULL), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 7);
	/* a key length in the init's own parameters */
	size_t kl = 33;
	OSSL_PARAM q[2] = { OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, &kl),
			    OSSL_PARAM_END };
	ck_assert_int_eq(EVP_EncryptInit_ex2(ctx, NULL, NULL, NULL, q), 1);
	ck_assert_int_eq(EVP_CIPHER_CTX_get_key_length(ctx), 33);
	/* random keys come from OpenSSL's RNG at the context's key length */
	uint8_t rk[33];
	ck_assert_int_eq(EVP_CIPHER_CTX_rand_key(ctx, rk), 1);
	EVP_CIPHER_CTX_free(ctx);
	EVP_CIPHER_free(c);
}
END_TEST

static const char *kernel_param(void)
{
	const char *kernel = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_utf8_ptr("rc4tune-kernel", &kernel, 0),
			    OSSL_PARAM_END };
	ck_assert_int_eq(OSSL_PROVIDER_get_params(prov, p), 1);
	ck_assert_ptr_nonnull(kernel);
	return kernel;
}

START_TEST(test_provider_parameters)
{
	const char *name = NULL, *version = NULL, *info = NULL;
	int status = 0;
	OSSL_PARAM p[5] = {
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, &name, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, &version, 0),
		OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, &info, 0),
		OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, &status),
		OSSL_PARAM_END
	};
	ck_assert_int_eq(OSSL_PROVIDER_get_params(prov, p), 1);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(version, PACKAGE_VERSION);
	ck_assert_int_eq(status, 1);
	ck_assert(listed(OSSL_PROVIDER_gettable_params(prov), "rc4tune-kernel"));
	/* buildinfo (what `openssl list -providers -verbose` prints) names
	 * the library's kernel */
	char want_info[128];
	snprintf(want_info, sizeof want_info, "rc4tune %s, kernel %s",
		 PACKAGE_VERSION, kernel_param());
	ck_assert_str_eq(info, want_info);
}
END_TEST

/* Every kernel this build has, switched through the library the module
 * shares with this process: the provider names it and gives its bytes. */
START_TEST(test_every_kernel)
{
	int usable = 0;
	const char *name = rc4tune_kernel_info((size_t)_i, NULL, &usable);
	uint64_t s = 0xc0ffee00u + (uint64_t)_i;

	ck_assert_ptr_nonnull(name);
	if (!usable || rc4tune_use_kernel(name) != 0) {
		ck_assert(!usable || errno == ENOTSUP);
		return;
	}
	ck_assert_str_eq(kernel_param(), name);
	EVP_CIPHER *c = fetch("RC4");
	for (int round = 0; round < 3; round++)
		one_stream(&s, c, 1 + test_below(&s, 256), random_length(&s));
	EVP_CIPHER_free(c);
	ck_assert_str_eq(kernel_param(), name);
}
END_TEST

/* --- bad input: an rc4tune error, never a crash ------------------------ */

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

/* The module's functions for RC4 from its dispatch table, for calls that
 * EVP always makes with good arguments. */
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

static struct fns dispatch(void)
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
#ifdef NO_ALLOC_HOOK
	fprintf(stderr, "SKIP: allocation failure: %s\n", NO_ALLOC_HOOK);
#else
	struct fns f = dispatch();
	uint8_t key[16] = { 7 }, zero[32] = { 0 }, want32[32], out[32];
	size_t outl;

	/* valgrind's preloaded allocator serves the module's calls, not
	 * ours: nothing would fail */
	const char *pre = getenv("LD_PRELOAD");
	if (pre != NULL && strstr(pre, "vgpreload") != NULL) {
		fprintf(stderr, "SKIP: allocation failure: valgrind's "
				"allocator serves the module\n");
		return;
	}

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

int main(void)
{
	Suite *s = suite_create("provider");
	TCase *tc = tcase_create("evp");
	size_t kernels = 0;

	while (rc4tune_kernel_info(kernels, NULL, NULL) != NULL)
		kernels++;
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_names_and_constants);
	tcase_add_loop_test(tc, test_random_streams, 0, 4);
	tcase_add_test(tc, test_rc4_40);
	tcase_add_test(tc, test_one_shot);
	tcase_add_test(tc, test_reinit_continues);
	tcase_add_test(tc, test_iv_ignored);
	tcase_add_test(tc, test_parameters);
	tcase_add_test(tc, test_provider_parameters);
	tcase_add_loop_test(tc, test_every_kernel, 0, (int)kernels);
	suite_add_tcase(s, tc);

	TCase *bad = tcase_create("bad input");
	tcase_add_checked_fixture(bad, setup, teardown);
	tcase_add_test(bad, test_bad_key_length);
	tcase_add_test(bad, test_no_key);
	tcase_add_test(bad, test_update_after_final);
	tcase_add_test(bad, test_null_buffers);
	tcase_add_test(bad, test_tls_refused);
	tcase_add_test(bad, test_bad_calls_direct);
	tcase_add_test(bad, test_out_of_memory);
	tcase_add_test(bad, test_params_unconverted);
	suite_add_tcase(s, bad);
	return test_run(s);
}
