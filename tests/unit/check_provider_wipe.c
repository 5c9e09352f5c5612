/* SPDX-License-Identifier: MIT */
/* check_provider_wipe.c - what the provider module leaves of a key in its
 * contexts (rc4tune-provider(7), Keys in memory): a context's key is
 * cleared before the module frees the context, and a new key keeps none
 * of the old one's state, such as keystream that an -ahead- kernel made
 * and the old key never used.  Straight through the module's dispatch
 * table, which hands out the context itself (its key first, as
 * provider/cipher.c lays it out).  The freed block is seen by this
 * program's free, which the module's calls resolve to (provfix.h: where
 * this can run). */
#include <config.h>

#include <string.h>
#include "rc4tune.h"
#include "provfix.h"

#ifndef NO_ALLOC_HOOK
extern void __libc_free(void *);
static void *watched;   /* the block to look at when it is freed */
static int seen, dirty; /* it was freed; its key's bytes were not all 0 */

__attribute__((visibility("default"))) void free(void *p)
{
	if (p != NULL && p == watched) {
		const unsigned char *b = p;
		for (size_t i = 0; i < sizeof(rc4tune_key); i++)
			dirty |= b[i] != 0;
		seen = 1;
		watched = NULL;
	}
	__libc_free(p);
}
#endif

/* Whether N bytes at P hold the 16 bytes at W anywhere. */
static int holds(const void *p, size_t n, const uint8_t *w)
{
	const uint8_t *b = p;

	for (size_t i = 0; i + 16 <= n; i++)
		if (memcmp(b + i, w, 16) == 0)
			return 1;
	return 0;
}

START_TEST(test_free_clears_the_key)
{
	const char *why = alloc_hook_missing();
	if (why != NULL) {
		fprintf(stderr, "SKIP: the freed context: %s\n", why);
		return;
	}
#ifndef NO_ALLOC_HOOK
	struct fns f = dispatch();
	uint8_t key[16] = { 1, 2, 3 }, buf[64] = { 0 };
	size_t outl;
	void *ctx = f.newctx(f.provctx);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(f.einit(ctx, key, sizeof key, NULL, 0, NULL), 1);
	ck_assert_int_eq(f.update(ctx, buf, &outl, sizeof buf, buf, sizeof buf),
			 1);
	watched = ctx;
	f.freectx(ctx);
	ck_assert_msg(seen, "the module's free did not reach this program's");
	ck_assert_msg(!dirty, "a freed context still held its key's state");
#endif
}
END_TEST

/* The first -ahead- kernel this build has and this CPU runs, in use; NULL
 * if none. */
static const char *use_ahead_kernel(void)
{
	const char *name;
	int usable;

	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, &usable)); i++)
		if (usable && strstr(name, "-ahead-") != NULL &&
		    rc4tune_use_kernel(name) == 0)
			return name;
	return NULL;
}

START_TEST(test_rekey_clears_the_old_key)
{
	const char *name = use_ahead_kernel();
	if (name == NULL) {
		fprintf(stderr, "SKIP: re-key: no -ahead- kernel runs here\n");
		return;
	}
	struct fns f = dispatch();
	uint8_t a[16] = { 0xa }, b[16] = { 0xb }, zero[128] = { 0 };
	uint8_t ks[128], buf[64];
	size_t outl;
	void *ctx = f.newctx(f.provctx);

	ck_assert_ptr_nonnull(ctx);
	oracle(a, sizeof a, zero, ks, sizeof ks);
	/* 64 bytes, then 16: the second call makes A's bytes 64..127 ahead
	 * (ahead.c: a refill is what the key used so far) */
	ck_assert_int_eq(f.einit(ctx, a, sizeof a, NULL, 0, NULL), 1);
	ck_assert_int_eq(f.update(ctx, buf, &outl, 64, zero, 64), 1);
	ck_assert_int_eq(f.update(ctx, buf, &outl, 16, zero, 16), 1);
	ck_assert_msg(holds(ctx, sizeof(rc4tune_key), ks + 96),
		      "%s made none of key A's bytes 96..111 ahead", name);
	ck_assert_int_eq(f.einit(ctx, b, sizeof b, NULL, 0, NULL), 1);
	ck_assert_msg(!holds(ctx, sizeof(rc4tune_key), ks + 96),
		      "%s: key B's context still holds A's keystream", name);
	/* and B's stream is B's */
	uint8_t want[16];
	oracle(b, sizeof b, zero, want, sizeof want);
	ck_assert_int_eq(f.update(ctx, buf, &outl, 16, zero, 16), 1);
	ck_assert_mem_eq(buf, want, 16);
	f.freectx(ctx);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("provider_wipe");
	TCase *tc = tcase_create("contexts");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_free_clears_the_key);
	tcase_add_test(tc, test_rekey_clears_the_old_key);
	suite_add_tcase(s, tc);
	return test_run(s);
}
