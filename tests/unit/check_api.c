/* SPDX-License-Identifier: MIT */
/* check_api.c - the public key API as a program sees it (librc4tune(3),
 * DESCRIPTION, RETURN VALUE). */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "rc4tune.h"
#include "testutil.h"

/* Key "Key" on zeros: the keystream every RC4 prints for it. */
static const uint8_t key_ks[8] = { 0xeb, 0x9f, 0x77, 0x81,
				   0xb7, 0x34, 0xca, 0x72 };

START_TEST(test_known_answer)
{
	rc4tune_key k;
	uint8_t buf[8] = { 0 };

	ck_assert_int_eq(rc4tune_set_key(&k, "Key", 3), 0);
	rc4tune_crypt(&k, sizeof buf, buf, buf);
	ck_assert_mem_eq(buf, key_ks, sizeof buf);
}
END_TEST

/* The first call runs the selection, which may look for a config that
 * does not exist: a call that succeeds leaves errno alone. */
START_TEST(test_first_use_keeps_errno)
{
	rc4tune_key k;

	setenv("RC4TUNE_CONF", "/nonexistent/rc4tune.conf", 1);
	errno = 12345;
	ck_assert_int_eq(rc4tune_set_key(&k, "Key", 3), 0);
	ck_assert_int_eq(errno, 12345);
}
END_TEST

START_TEST(test_bad_key_length)
{
	rc4tune_key k;
	uint8_t data[257] = { 1 };

	errno = 0;
	ck_assert_int_eq(rc4tune_set_key(&k, data, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(rc4tune_set_key(&k, data, 257), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(rc4tune_set_key(&k, NULL, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(rc4tune_set_key(NULL, data, 5), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rc4tune_set_key(&k, data, 1), 0);
	ck_assert_int_eq(rc4tune_set_key(&k, data, 256), 0);
}
END_TEST

START_TEST(test_use_kernel)
{
	ck_assert_int_eq(rc4tune_use_kernel("long-1x"), 0);
	ck_assert_str_eq(rc4tune_kernel_name(), "long-1x");
	ck_assert_int_eq(rc4tune_use_kernel("char-1x"), 0);
	ck_assert_str_eq(rc4tune_kernel_name(), "char-1x");

	errno = 0;
	ck_assert_int_eq(rc4tune_use_kernel("no-such-kernel"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(rc4tune_use_kernel(NULL), -1);
	ck_assert_str_eq(rc4tune_kernel_name(), "char-1x");
}
END_TEST

/* A key keeps the kernel (and state layout) that set it up, so switching
 * kernels mid-stream must not change its bytes. */
START_TEST(test_key_keeps_kernel)
{
	static uint8_t zero[4096], a[4096], b[4096];
	rc4tune_key k1, k2;

	ck_assert_int_eq(rc4tune_use_kernel("char-1x"), 0);
	ck_assert_int_eq(rc4tune_set_key(&k1, "Key", 3), 0);
	rc4tune_crypt(&k1, 1000, zero, a);

	ck_assert_int_eq(rc4tune_use_kernel("long-8x-chunk"), 0);
	rc4tune_crypt(&k1, sizeof a - 1000, zero, a + 1000);
	ck_assert_int_eq(rc4tune_set_key(&k2, "Key", 3), 0);
	rc4tune_crypt(&k2, sizeof b, zero, b);

	ck_assert_mem_eq(a, key_ks, sizeof key_ks);
	ck_assert_mem_eq(a, b, sizeof a);
	/* each key remembers the kernel that set it up */
	ck_assert_ptr_nonnull(k1.kernel);
	ck_assert_ptr_ne(k1.kernel, k2.kernel);
}
END_TEST

/* A key copied mid-stream continues the same stream, apart from the
 * original, with every kernel. */
START_TEST(test_copy_key)
{
	const char *name = rc4tune_kernel_info((size_t)_i, NULL, NULL);
	static const uint8_t zero[300];
	uint8_t a[300], b[300];
	rc4tune_key k1, k2;

	if (rc4tune_use_kernel(name) != 0)
		return; /* not usable on this CPU */
	ck_assert_int_eq(rc4tune_set_key(&k1, "copy me", 7), 0);
	/* short calls, so that a kernel that makes keystream ahead has some
	 * buffered in the key when it is copied */
	rc4tune_crypt(&k1, 37, zero, a);
	rc4tune_crypt(&k1, 20, zero, a);
	rc4tune_crypt(&k1, 9, zero, a);
	k2 = k1;
	rc4tune_crypt(&k1, sizeof a, zero, a);
	rc4tune_crypt(&k1, 5, zero, b); /* the original moves on alone */
	rc4tune_crypt(&k2, sizeof b, zero, b);
	ck_assert_msg(memcmp(a, b, sizeof a) == 0, "%s", name);
}
END_TEST

/* One listing per kind: names unique and known to the kind's use call
 * (a usable one taken, an unusable one refused with ENOTSUP), never the
 * other kind's, and the current kernel among them. */
static void check_listing(const char *(*info)(size_t, const char **, int *),
			  int (*use)(const char *), int (*other)(const char *),
			  const char *(*current)(void), size_t at_least)
{
	const char *name, *summary, *names[128];
	int usable;
	size_t n = 0;
	bool current_seen = false;

	const char *was = current();
	while ((name = info(n, &summary, &usable)) != NULL) {
		ck_assert_uint_lt(n, 128);
		ck_assert_uint_gt(strlen(summary), 0);
		for (size_t i = 0; i < n; i++)
			ck_assert_str_ne(names[i], name);
		names[n++] = name;
		current_seen |= strcmp(name, was) == 0;
		errno = 0;
		ck_assert_int_eq(use(name), usable ? 0 : -1);
		if (!usable)
			ck_assert_int_eq(errno, ENOTSUP);
		errno = 0;
		ck_assert_int_eq(other(name), -1);
		ck_assert_int_eq(errno, ENOENT);
	}
	ck_assert(current_seen);
	ck_assert_uint_ge(n, at_least);
	ck_assert_ptr_null(info((size_t)-1, NULL, NULL));
	ck_assert_ptr_null(info(n, NULL, NULL));
}

START_TEST(test_kernel_info)
{
	check_listing(rc4tune_kernel_info, rc4tune_use_kernel,
		      rc4tune_use_batch_kernel, rc4tune_kernel_name, 12);
	check_listing(rc4tune_batch_kernel_info, rc4tune_use_batch_kernel,
		      rc4tune_use_kernel, rc4tune_batch_kernel_name, 6);
}
END_TEST

/* Every kernel agrees with every other through the public API, for the
 * same key and a stream split over calls. */
START_TEST(test_every_kernel_public)
{
	static uint8_t in[3000], want[3000], got[3000];
	rc4tune_key k;
	const char *name;

	for (size_t i = 0; i < sizeof in; i++)
		in[i] = (uint8_t)(i * 7);
	ck_assert_int_eq(rc4tune_use_kernel("char-ref"), 0);
	ck_assert_int_eq(rc4tune_set_key(&k, "secret key", 10), 0);
	rc4tune_crypt(&k, sizeof in, in, want);
	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, NULL)); i++) {
		if (rc4tune_use_kernel(name) != 0)
			continue; /* not usable on this CPU */
		ck_assert_int_eq(rc4tune_set_key(&k, "secret key", 10), 0);
		rc4tune_crypt(&k, 17, in, got);
		rc4tune_crypt(&k, sizeof in - 17, in + 17, got + 17);
		ck_assert_msg(memcmp(want, got, sizeof in) == 0, "%s", name);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("api");
	TCase *tc = tcase_create("key");

	tcase_add_test(tc, test_known_answer);
	tcase_add_test(tc, test_first_use_keeps_errno);
	tcase_add_test(tc, test_bad_key_length);
	tcase_add_test(tc, test_use_kernel);
	tcase_add_test(tc, test_key_keeps_kernel);
	tcase_add_test(tc, test_kernel_info);
	size_t nk = 0;
	while (rc4tune_kernel_info(nk, NULL, NULL) != NULL)
		nk++;
	tcase_add_loop_test(tc, test_copy_key, 0, (int)nk);
	tcase_add_test(tc, test_every_kernel_public);
	suite_add_tcase(s, tc);
	return test_run(s);
}
