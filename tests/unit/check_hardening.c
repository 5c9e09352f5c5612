/* SPDX-License-Identifier: MIT */
/* check_hardening.c - the public API under bad input and many threads:
 * NULL pointers and bad lengths fail cleanly as librc4tune(3) says; first
 * use from many threads while another switches kernels; switching kernels
 * while threads encrypt with keys they set up before (each key keeps its
 * kernel: its bytes never change).  Every test is its own process (Check's
 * fork mode), so each one's first call is a first use. */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include "rc4tune.h"
#include "testutil.h"

/* Key "Key" on zeros: the keystream every RC4 prints for it. */
static const uint8_t key_ks[8] = { 0xeb, 0x9f, 0x77, 0x81,
				   0xb7, 0x34, 0xca, 0x72 };

START_TEST(test_crypt_bad_input)
{
	static rc4tune_key zeroed; /* never set up */
	rc4tune_key k;
	uint8_t buf[8] = { 0 }, copy[8];

	/* len 0: nothing, whatever the pointers */
	errno = 0;
	rc4tune_crypt(NULL, 0, NULL, NULL);
	ck_assert_int_eq(errno, 0);

	memset(&k, 0, sizeof k); /* compared whole below */
	ck_assert_int_eq(rc4tune_set_key(&k, "Key", 3), 0);
	rc4tune_key before = k;
	errno = 0;
	rc4tune_crypt(NULL, sizeof buf, buf, buf);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	rc4tune_crypt(&k, sizeof buf, NULL, buf);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	rc4tune_crypt(&k, sizeof buf, buf, NULL);
	ck_assert_int_eq(errno, EINVAL);
	memcpy(copy, buf, sizeof buf);
	errno = 0;
	rc4tune_crypt(&zeroed, sizeof buf, buf, buf);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(buf, copy, sizeof buf); /* nothing written */

	/* the failed calls did not advance the stream */
	ck_assert_mem_eq(&k, &before, sizeof k);
	rc4tune_crypt(&k, sizeof buf, buf, buf);
	ck_assert_mem_eq(buf, key_ks, sizeof buf);
}
END_TEST

START_TEST(test_set_key_bad_input)
{
	rc4tune_key k;
	static const uint8_t data[257];
	const size_t bad[] = { 0, 257, 4096, (size_t)-1 };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		errno = 0;
		ck_assert_int_eq(rc4tune_set_key(&k, data, bad[i]), -1);
		ck_assert_int_eq(errno, EINVAL);
	}
	errno = 0;
	ck_assert_int_eq(rc4tune_set_key(NULL, NULL, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
}
END_TEST

START_TEST(test_names_bad_input)
{
	const char *name = rc4tune_kernel_name();

	errno = 0;
	ck_assert_int_eq(rc4tune_use_kernel(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(rc4tune_use_kernel(""), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(rc4tune_kernel_name(), name);
	/* past the end, and far past it; NULL out-pointers are allowed */
	size_t n = 0;
	while (rc4tune_kernel_info(n, NULL, NULL) != NULL)
		n++;
	ck_assert_ptr_null(rc4tune_kernel_info(n, NULL, NULL));
	ck_assert_ptr_null(rc4tune_kernel_info((size_t)-1, NULL, NULL));
}
END_TEST

/* The usable kernels of this build, for the threads to switch between. */
static const char *usable[64];
static size_t nusable;

static void find_usable(void)
{
	const char *name;
	int ok;

	nusable = 0;
	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, &ok)); i++)
		if (ok && nusable < sizeof usable / sizeof usable[0])
			usable[nusable++] = name;
	ck_assert_uint_gt(nusable, 1);
}

#define THREADS 16
static pthread_barrier_t start;

static void *first_use(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	rc4tune_key k;
	uint8_t buf[8] = { 0 };
	if (rc4tune_set_key(&k, "Key", 3) != 0)
		return "set_key failed";
	rc4tune_crypt(&k, sizeof buf, buf, buf);
	return memcmp(buf, key_ks, sizeof buf) == 0 ? NULL : "wrong keystream";
}

/* First use in 16 threads at once while another switches the kernel: the
 * selection must not undo the switch, and every thread's key works. */
START_TEST(test_first_use_with_switch)
{
	pthread_t t[THREADS];
	void *err;

	ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREADS + 1), 0);
	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, first_use, NULL),
				 0);
	pthread_barrier_wait(&start);
	ck_assert_int_eq(rc4tune_use_kernel("char-1x"), 0);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &err), 0);
		ck_assert_msg(err == NULL, "thread %d: %s", i, (char *)err);
	}
	ck_assert_str_eq(rc4tune_kernel_name(), "char-1x");
	pthread_barrier_destroy(&start);
}
END_TEST

/* Each thread holds keys set up before and during the switching, and checks
 * every chunk of their streams against the tests' own RC4. */
#define ROUNDS 300
#define CHUNK 61 /* odd: chunks start at every alignment */
static atomic_bool stop;

static void *encrypt_while_switching(void *arg)
{
	uint64_t seed = (uintptr_t)arg;
	rc4tune_key k;
	struct test_rc4 want = { { 0 }, 0, 0 }; /* keyed in round 0 */
	uint8_t key[16], zero[CHUNK] = { 0 }, got[CHUNK], exp[CHUNK];

	for (int round = 0; round < ROUNDS; round++) {
		/* a fresh key now and then, with whatever kernel is current */
		if (round % 50 == 0) {
			test_fill(&seed, key, sizeof key);
			if (rc4tune_set_key(&k, key, sizeof key) != 0)
				return "set_key failed";
			test_rc4_key(&want, key, sizeof key);
		}
		rc4tune_crypt(&k, CHUNK, zero, got);
		test_rc4_ks(&want, CHUNK, exp);
		if (memcmp(got, exp, CHUNK) != 0)
			return "a key's stream changed while kernels switched";
	}
	return NULL;
}

static void *switcher(void *arg)
{
	size_t i = 0;

	(void)arg;
	/* a switch, then the CPU to the others: valgrind runs one thread at
	 * a time, and a switcher that never yields took the test past its
	 * timeout there */
	while (!atomic_load(&stop)) {
		if (rc4tune_use_kernel(usable[i++ % nusable]) != 0)
			return "use_kernel failed on a usable kernel";
		sched_yield();
	}
	return NULL;
}

START_TEST(test_switch_while_encrypting)
{
	pthread_t sw, t[THREADS];
	void *err;

	find_usable();
	atomic_store(&stop, false);
	ck_assert_int_eq(pthread_create(&sw, NULL, switcher, NULL), 0);
	for (uintptr_t i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL,
						encrypt_while_switching,
						(void *)(i + 1)),
				 0);
	for (int i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &err), 0);
		ck_assert_msg(err == NULL, "thread %d: %s", i, (char *)err);
	}
	atomic_store(&stop, true);
	ck_assert_int_eq(pthread_join(sw, &err), 0);
	ck_assert_msg(err == NULL, "switcher: %s", (char *)err);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("hardening");
	TCase *tc = tcase_create("bad input");

	tcase_add_test(tc, test_crypt_bad_input);
	tcase_add_test(tc, test_set_key_bad_input);
	tcase_add_test(tc, test_names_bad_input);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_set_timeout(tc, 120); /* valgrind and sanitizers are slow */
	tcase_add_test(tc, test_first_use_with_switch);
	tcase_add_test(tc, test_switch_while_encrypting);
	suite_add_tcase(s, tc);
	return test_run(s);
}
