/* testutil.h - what the Check suites share: a seeded PRNG, and a main that
 * refuses to pass when no test ran (CK_RUN_SUITE with a typo runs none). */
#ifndef RC4_TESTUTIL_H
#define RC4_TESTUTIL_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
