/* SPDX-License-Identifier: MIT */
/* testutil.h - what the Check suites share: a seeded PRNG, a scratch
 * directory and files in it, and a main that refuses to pass when no test
 * ran (CK_RUN_SUITE with a typo runs none). */
#ifndef RC4_TESTUTIL_H
#define RC4_TESTUTIL_H

#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Which sanitizer this build runs under (1 or 0): gcc says so with
 * __SANITIZE_*__, clang with __has_feature. */
#if defined(__has_feature)
#define TEST_HAS(f) __has_feature(f)
#else
#define TEST_HAS(f) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || TEST_HAS(address_sanitizer)
#define TEST_ASAN 1
#else
#define TEST_ASAN 0
#endif
#if defined(__SANITIZE_THREAD__) || TEST_HAS(thread_sanitizer)
#define TEST_TSAN 1
#else
#define TEST_TSAN 0
#endif

/* splitmix64: deterministic, so a failure can be replayed. */
static inline uint64_t test_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static inline size_t test_below(uint64_t *s, size_t n)
{
	return (size_t)(test_rand(s) % n);
}

static inline void test_fill(uint64_t *s, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)test_rand(s);
}

/* The textbook RC4, the tests' own: no code of the library's. */
struct test_rc4 {
	uint8_t S[256], x, y;
};

static inline void test_rc4_key(struct test_rc4 *r, const uint8_t *key,
				size_t len)
{
	unsigned j = 0;

	for (unsigned i = 0; i < 256; i++)
		r->S[i] = (uint8_t)i;
	for (unsigned i = 0; i < 256; i++) {
		uint8_t t = r->S[i];
		j = (j + t + key[i % len]) & 0xff;
		r->S[i] = r->S[j];
		r->S[j] = t;
	}
	r->x = r->y = 0;
}

/* N bytes of R's keystream into KS. */
static inline void test_rc4_ks(struct test_rc4 *r, size_t n, uint8_t *ks)
{
	for (size_t k = 0; k < n; k++) {
		uint8_t tx = r->S[++r->x];
		r->y = (uint8_t)(r->y + tx);
		uint8_t ty = r->S[r->y];
		r->S[r->x] = ty;
		r->S[r->y] = tx;
		ks[k] = r->S[(uint8_t)(tx + ty)];
	}
}

/* A scratch directory per test, made in a tcase's checked fixture (Check
 * forks each test, so each child gets its own), removed with its files. */
static char test_dir[64];

static inline void test_dir_make(const char *name)
{
	snprintf(test_dir, sizeof test_dir, "/tmp/%s.XXXXXX", name);
	ck_assert_ptr_nonnull(mkdtemp(test_dir));
}

static inline void test_dir_remove(void)
{
	char cmd[sizeof test_dir + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* PATH holding TEXT, with MODE. */
static inline void test_write_file(const char *path, const char *text,
				   mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
}

#ifdef RC4K_KERNEL_H
/* The kernels of KIND (N of them) this CPU cannot run: their tests return
 * early, and Check counts them as passed, so each is named in the log
 * with the TESTS it skips. */
static inline void test_say_unusable(enum rc4k_kind kind, size_t n,
				     const char *tests)
{
	size_t skipped = 0;

	for (size_t i = 0; i < n; i++) {
		const struct rc4k_info *k = rc4k_nth(kind, i);
		if (!rc4k_usable(k)) {
			printf("SKIP: %s: this CPU cannot run it (%s: not run)\n",
			       k->name, tests);
			skipped++;
		}
	}
	printf("%zu of %zu kernels run, %zu skipped\n", n - skipped, n,
	       skipped);
	fflush(stdout);
}
#endif

static inline int test_run(Suite *suite)
{
	SRunner *sr = srunner_create(suite);
	srunner_run_all(sr, CK_NORMAL);
	int ran = srunner_ntests_run(sr), failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (ran == 0) {
		fprintf(stderr, "no test ran (check CK_RUN_SUITE/CK_RUN_CASE)\n");
		return EXIT_FAILURE;
	}
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
