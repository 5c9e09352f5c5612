/* SPDX-License-Identifier: MIT */
/* check_provider.c - RC4 and RC4-40 through the provider module rc4tune.so
 * give OpenSSL's bytes, as OpenSSL programs see it (rc4tune-provider(7),
 * ALGORITHMS; The kernel): through EVP only, fetched by the property
 * "provider=rc4tune" (provfix.h).  Against OpenSSL's low-level RC4():
 * random key lengths, random update splits, copies mid-stream, in place,
 * both directions, the one-shot EVP_Cipher, RC4-40; the parameters EVP and
 * `openssl list` ask for; the kernel the provider names, for every kernel
 * (switched through the library, which the module shares with this
 * process), to four threads asking and encrypting at once.  Bad input is
 * check_provider_errors.c's. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rc4.h>
#include "rc4tune.h"
#include "provfix.h"

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


/* Threads at once on one provider, as a server's workers: each kernel in
 * turn, set between two barriers, then every thread asks the buildinfo
 * (its first asker fills the provider's cache) and runs a stream of its
 * own through EVP.  A ThreadSanitizer build (.ci/test) sees their
 * accesses to what the provider shares. */
enum { WORKERS = 4, MSG = 1000 };

struct worker {
	EVP_CIPHER *c;
	uint64_t seed;
	size_t rounds;
	pthread_barrier_t *turn;
	char info[128]; /* the last round's buildinfo */
	int bad;        /* rounds whose bytes differed */
};

static void worker_round(struct worker *w)
{
	const char *info = NULL;
	OSSL_PARAM p[2] = { OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO,
						&info, 0),
			    OSSL_PARAM_END };
	uint8_t key[16], in[MSG], out[MSG], ref[MSG];
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int outl = 0;

	snprintf(w->info, sizeof w->info, "%s",
		 OSSL_PROVIDER_get_params(prov, p) == 1 && info ? info : "");
	test_fill(&w->seed, key, sizeof key);
	test_fill(&w->seed, in, sizeof in);
	oracle(key, sizeof key, in, ref, sizeof in);
	if (ctx == NULL ||
	    EVP_EncryptInit_ex2(ctx, w->c, key, NULL, NULL) != 1 ||
	    EVP_EncryptUpdate(ctx, out, &outl, in, MSG) != 1 || outl != MSG ||
	    memcmp(out, ref, MSG) != 0)
		w->bad++;
	EVP_CIPHER_CTX_free(ctx);
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	for (size_t r = 0; r < w->rounds; r++) {
		pthread_barrier_wait(w->turn); /* the kernel is set */
		worker_round(w);
		pthread_barrier_wait(w->turn); /* the round is checked */
	}
	return NULL;
}

START_TEST(test_threads)
{
	pthread_barrier_t turn;
	pthread_t t[WORKERS];
	struct worker w[WORKERS];
	EVP_CIPHER *c = fetch("RC4");
	size_t rounds = 0;
	const char *name;
	int usable;

	for (size_t i = 0; rc4tune_kernel_info(i, NULL, NULL) != NULL; i++)
		rounds++;
	ck_assert_int_eq(pthread_barrier_init(&turn, NULL, WORKERS + 1), 0);
	for (int i = 0; i < WORKERS; i++) {
		w[i] = (struct worker){ c, 0x7ead0000u + (uint64_t)i, rounds,
					&turn, "", 0 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker_run, &w[i]),
				 0);
	}
	for (size_t r = 0; r < rounds; r++) {
		name = rc4tune_kernel_info(r, NULL, &usable);
		if (!usable || rc4tune_use_kernel(name) != 0)
			name = kernel_param(); /* unchanged */
		pthread_barrier_wait(&turn);
		pthread_barrier_wait(&turn);
		char want_info[128];
		snprintf(want_info, sizeof want_info, "rc4tune %s, kernel %s",
			 PACKAGE_VERSION, name);
		for (int i = 0; i < WORKERS; i++)
			ck_assert_str_eq(w[i].info, want_info);
	}
	for (int i = 0; i < WORKERS; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_int_eq(w[i].bad, 0);
	}
	pthread_barrier_destroy(&turn);
	EVP_CIPHER_free(c);
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
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return test_run(s);
}
