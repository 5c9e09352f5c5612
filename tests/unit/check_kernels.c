/* SPDX-License-Identifier: MIT */
/* check_kernels.c - every kernel in the registry gives RC4's bytes
 * (librc4tune(3), DESCRIPTION): against RFC 6229, against the reference
 * kernel on random input, and against OpenSSL's RC4(). */
#include <config.h>

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "kernels/kernel.h"
#include "testutil.h"
#ifdef HAVE_LIBCRYPTO
#include <openssl/rc4.h>
#endif

static size_t nkernels;

/* The Ith single-stream kernel. */
static const struct rc4k *kernel(int i)
{
	return rc4k_single(rc4k_nth(RC4K_SINGLE, (size_t)i));
}

/* --- RFC 6229, parsed from tests/unit/rfc6229.txt --- */
#define RFC_KEYS 14
#define RFC_ROWS 18
static struct {
	uint8_t key[32];
	size_t len;
	size_t off[RFC_ROWS];
	uint8_t ks[RFC_ROWS][16];
	int nrows;
} rfc[RFC_KEYS];
static int nrfc;

static void load_rfc6229(void)
{
	const char *dir = getenv("RC4TUNE_TEST_DATA");
	char path[4096], line[256];

	snprintf(path, sizeof path, "%s/unit/rfc6229.txt", dir ? dir : "tests");
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		perror(path);
		exit(EXIT_FAILURE);
	}
	while (fgets(line, sizeof line, f)) {
		unsigned dec, hex, b[16];
		char keyhex[80];

		if (sscanf(line, "key: 0x%79s", keyhex) == 1) {
			if (nrfc == RFC_KEYS)
				break;
			size_t n = strlen(keyhex) / 2;
			for (size_t i = 0; i < n; i++)
				sscanf(keyhex + 2 * i, "%2hhx", &rfc[nrfc].key[i]);
			rfc[nrfc++].len = n;
		} else if (sscanf(line,
				  "DEC %u HEX %x: %x %x %x %x %x %x %x %x %x %x "
				  "%x %x %x %x %x %x",
				  &dec, &hex, &b[0], &b[1], &b[2], &b[3], &b[4],
				  &b[5], &b[6], &b[7], &b[8], &b[9], &b[10],
				  &b[11], &b[12], &b[13], &b[14], &b[15]) == 18 &&
			   nrfc > 0 && rfc[nrfc - 1].nrows < RFC_ROWS) {
			int r = rfc[nrfc - 1].nrows++;
			rfc[nrfc - 1].off[r] = dec;
			for (int i = 0; i < 16; i++)
				rfc[nrfc - 1].ks[r][i] = (uint8_t)b[i];
		}
	}
	fclose(f);
}

START_TEST(test_rfc6229_data)
{
	/* A truncated data file must not pass as "every vector checked". */
	ck_assert_int_eq(nrfc, RFC_KEYS);
	for (int i = 0; i < nrfc; i++)
		ck_assert_int_eq(rfc[i].nrows, RFC_ROWS);
}
END_TEST

START_TEST(test_rfc6229)
{
	const struct rc4k *k = kernel(_i);
	static uint8_t zero[4112], out[4112];
	struct rc4k_state st;

	if (!rc4k_usable(&k->info)) {
		printf("%s: not usable on this CPU, RFC 6229 skipped\n",
		       k->info.name);
		return;
	}
	for (int v = 0; v < nrfc; v++) {
		k->set_key(&st, rfc[v].key, rfc[v].len);
		k->crypt(&st, sizeof out, zero, out);
		for (int r = 0; r < rfc[v].nrows; r++)
			ck_assert_msg(memcmp(out + rfc[v].off[r], rfc[v].ks[r],
					     16) == 0,
				      "%s: key %d (%zu bytes) offset %zu",
				      k->info.name, v, rfc[v].len, rfc[v].off[r]);
	}
}
END_TEST

START_TEST(test_selftest)
{
	const struct rc4k *k = kernel(_i);
	if (rc4k_usable(&k->info))
		ck_assert_msg(rc4k_selftest(&k->info) == 0,
			      "%s fails its self-test", k->info.name);
}
END_TEST

/* --- random cross-check against the reference --- */
#define MAXLEN 5000

/* Run K over IN in random pieces, with IN/OUT at the given misalignments,
 * in place if asked; the result lands in RESULT. */
static void crypt_split(const struct rc4k *k, struct rc4k_state *st,
			uint64_t *seed, const uint8_t *in, size_t len,
			unsigned ain, unsigned aout, int inplace,
			uint8_t *result)
{
	static uint8_t bin[MAXLEN + 16], bout[MAXLEN + 16];
	uint8_t *pi = bin + ain, *po = inplace ? pi : bout + aout;
	size_t done = 0;

	memcpy(pi, in, len);
	while (done < len) {
		size_t n = test_below(seed, 4) == 0 ? len - done
			   : test_below(seed, len - done + 1);
		k->crypt(st, n, pi + done, po + done);
		done += n;
	}
	memcpy(result, po, len);
}

START_TEST(test_vs_reference)
{
	const struct rc4k *k = kernel(_i), *ref = &rc4k_char_ref;
	static uint8_t key[256], in[MAXLEN], want[MAXLEN], got[MAXLEN];
	uint64_t seed = 0x5eed0000u + (uint64_t)_i;
	struct rc4k_state sr, sk;

	if (!rc4k_usable(&k->info))
		return;
	for (int trial = 0; trial < 300; trial++) {
		size_t klen = 1 + test_below(&seed, 256);
		/* mostly short lengths, where head/tail handling lives */
		size_t len = test_below(&seed, 3) ? test_below(&seed, 80)
						  : test_below(&seed, MAXLEN + 1);
		unsigned ain = (unsigned)test_below(&seed, 8);
		unsigned aout = (unsigned)test_below(&seed, 8);
		int inplace = test_below(&seed, 3) == 0;

		test_fill(&seed, key, klen);
		test_fill(&seed, in, len);
		ref->set_key(&sr, key, klen);
		k->set_key(&sk, key, klen);
		/* the same stream continues over two messages */
		for (int msg = 0; msg < 2; msg++) {
			ref->crypt(&sr, len, in, want);
			crypt_split(k, &sk, &seed, in, len, ain, aout, inplace,
				    got);
			ck_assert_msg(memcmp(want, got, len) == 0,
				      "%s: trial %d key %zu bytes, len %zu, "
				      "in+%u out+%u%s, message %d",
				      k->info.name, trial, klen, len, ain, aout,
				      inplace ? " in place" : "", msg);
		}
	}
}
END_TEST

/* --- one long stream in many short calls, as a key carrying records or
 * packets sees it: runs of 1..40-byte calls, a long call in between now
 * and then (past any buffer a kernel keeps, and from its middle). --- */
START_TEST(test_short_calls)
{
	const struct rc4k *k = kernel(_i), *ref = &rc4k_char_ref;
	static uint8_t in[3 * MAXLEN], want[3 * MAXLEN], got[3 * MAXLEN];
	uint64_t seed = 0x5407c000u + (uint64_t)_i;
	struct rc4k_state sr, sk;
	size_t done = 0;

	if (!rc4k_usable(&k->info))
		return;
	test_fill(&seed, in, sizeof in);
	ref->set_key(&sr, (const uint8_t *)"short calls", 11);
	k->set_key(&sk, (const uint8_t *)"short calls", 11);
	ref->crypt(&sr, sizeof in, in, want);
	while (done < sizeof in) {
		size_t n = test_below(&seed, 50) == 0 ? test_below(&seed, 3000)
						      : 1 + test_below(&seed, 40);
		if (n > sizeof in - done)
			n = sizeof in - done;
		k->crypt(&sk, n, in + done, got + done);
		ck_assert_msg(memcmp(got + done, want + done, n) == 0,
			      "%s: %zu bytes at offset %zu", k->info.name, n,
			      done);
		done += n;
	}
}
END_TEST

/* Whether every byte of [P, P + N) outside IN's and OUT's LEN bytes is
 * still FILL. */
static int untouched(const uint8_t *p, size_t n, const uint8_t *in,
		     const uint8_t *out, size_t len, uint8_t fill)
{
	for (const uint8_t *q = p; q < p + n; q++)
		if (*q != fill && !(q >= in && q < in + len) &&
		    !(q >= out && q < out + len))
			return 0;
	return 1;
}

/* --- buffers at page edges: messages that start at a page's first byte
 * or end at its last, next to a page nobody may touch, in every phase of
 * the state's x; in place and not.  Any byte read or written past the
 * message beyond the page faults, and no other byte of the two pages
 * changes; the bytes must be the reference's. --- */
START_TEST(test_page_edges)
{
	const struct rc4k *k = kernel(_i), *ref = &rc4k_char_ref;
	long page = sysconf(_SC_PAGESIZE);
	static const size_t lens[] = { 1, 5, 15, 16, 17, 31, 47, 64, 100, 300 };
	uint8_t *map = mmap(NULL, 4 * (size_t)page, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t want[300], src[300], junk[16];
	struct rc4k_state sr, sk;
	uint64_t seed = 0x9a6e0000u + (uint64_t)_i;

	ck_assert_ptr_ne(map, MAP_FAILED);
	/* pages 0 and 3 are guards; 1 and 2 hold the buffers */
	ck_assert_int_eq(mprotect(map, (size_t)page, PROT_NONE), 0);
	ck_assert_int_eq(mprotect(map + 3 * page, (size_t)page, PROT_NONE), 0);
	if (!rc4k_usable(&k->info))
		return;
	for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
		for (unsigned phase = 0; phase < 16; phase++)
			for (int where = 0; where < 4; where++) {
				size_t len = lens[l];
				/* in at page 1's start or page 2's end; out the
				 * same (in place) or at the other edge */
				uint8_t *start = map + page, *end = map + 3 * page - len;
				uint8_t *in = where & 1 ? end : start;
				uint8_t *out = where == 0 ? in : where == 1 ? start
					       : where == 2 ? end : in;
				test_fill(&seed, src, len);
				memset(start, 0x5a, 2 * (size_t)page);
				memcpy(in, src, len);
				ref->set_key(&sr, (const uint8_t *)"page edges", 10);
				k->set_key(&sk, (const uint8_t *)"page edges", 10);
				ref->crypt(&sr, phase, junk, junk);
				k->crypt(&sk, phase, junk, junk);
				ref->crypt(&sr, len, src, want);
				k->crypt(&sk, len, in, out);
				ck_assert_msg(memcmp(out, want, len) == 0,
					      "%s: %zu bytes, x phase %u, case %d",
					      k->info.name, len, phase, where);
				ck_assert_msg(untouched(start, 2 * (size_t)page, in,
							out, len, 0x5a),
					      "%s: %zu bytes, x phase %u, case %d: "
					      "a byte outside the message changed",
					      k->info.name, len, phase, where);
			}
	munmap(map, 4 * (size_t)page);
}
END_TEST

/* --- states where y lands just ahead of x, where kernels that read S[x]
 * ahead must fix up what they read: Finney states (y = x + 1, S[y] = 1:
 * every step hits the next entry, forever) and random permutations with y
 * 0..7 past x, in every phase of x.  A kernel with a shared layout must
 * leave x, y and every entry as the reference does, so that another
 * kernel of its width can continue the key. --- */

/* The state of K's WIDTH from the permutation P and indices X, Y, with
 * no keystream made ahead. */
static void put_state(struct rc4k_state *st, unsigned width,
		      const uint8_t *p, unsigned x, unsigned y)
{
	rc4k_state_fresh(st);
	st->x = x;
	st->y = y;
	for (int i = 0; i < 256; i++) {
		if (width == 1)
			st->s.c[i] = p[i];
		else if (width == 4)
			st->s.i[i] = p[i];
		else
			st->s.l[i] = p[i];
	}
}

/* Whether ST (entries of WIDTH bytes) is the reference state REF. */
static int same_state(const struct rc4k_state *st, unsigned width,
		      const struct rc4k_state *ref)
{
	if (st->x != ref->x || st->y != ref->y)
		return 0;
	for (int i = 0; i < 256; i++) {
		uint64_t v = width == 1 ? st->s.c[i]
			     : width == 4 ? st->s.i[i] : st->s.l[i];
		if (v != ref->s.c[i])
			return 0;
	}
	return 1;
}

START_TEST(test_near_x)
{
	const struct rc4k *k = kernel(_i), *ref = &rc4k_char_ref;
	static uint8_t in[1200], want[1200], got[1200];
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 15, 16, 17, 31,
				       33, 63, 64, 65, 100, 300, 1200 };
	const size_t nlens = sizeof lens / sizeof lens[0];
	uint64_t seed = 0x4ea40000u + (uint64_t)_i;
	unsigned w = k->info.width;
	uint8_t p[256];
	struct rc4k_state sr, sk;

	if (w == 0 || !rc4k_usable(&k->info))
		return;
	test_fill(&seed, in, sizeof in);
	for (unsigned x = 0; x < 256; x++)
		for (unsigned d = 0; d < 9; d++) {
			/* d 8: Finney; else a random permutation, y = x + d */
			for (int i = 0; i < 256; i++)
				p[i] = (uint8_t)i;
			for (int i = 255; i > 0; i--) {
				size_t j = test_below(&seed, (size_t)i + 1);
				uint8_t t = p[i];
				p[i] = p[j];
				p[j] = t;
			}
			unsigned y = (x + (d == 8 ? 1 : d)) & 0xff;
			if (d == 8)
				for (int i = 0; i < 256; i++)
					if (p[i] == 1) {
						p[i] = p[y];
						p[y] = 1;
						break;
					}
			size_t len = lens[test_below(&seed, nlens)];
			put_state(&sr, 1, p, x, y);
			put_state(&sk, w, p, x, y);
			ref->crypt(&sr, len, in, want);
			k->crypt(&sk, len, in, got);
			ck_assert_msg(memcmp(want, got, len) == 0 &&
				      same_state(&sk, w, &sr),
				      "%s: x %u, y %u%s, %zu bytes",
				      k->info.name, x, y,
				      d == 8 ? " (Finney)" : "", len);
		}
}
END_TEST

/* --- OpenSSL's RC4() as an independent oracle --- */
START_TEST(test_vs_openssl)
{
#ifdef HAVE_LIBCRYPTO
	const struct rc4k *k = kernel(_i);
	static uint8_t key[256], in[MAXLEN], want[MAXLEN], got[MAXLEN];
	uint64_t seed = 0x055100u + (uint64_t)_i;
	struct rc4k_state st;
	RC4_KEY ok;

	if (!rc4k_usable(&k->info))
		return;
	for (int trial = 0; trial < 100; trial++) {
		size_t klen = 1 + test_below(&seed, 256);
		size_t len = test_below(&seed, MAXLEN + 1);

		test_fill(&seed, key, klen);
		test_fill(&seed, in, len);
		RC4_set_key(&ok, (int)klen, key);
		RC4(&ok, len, in, want);
		k->set_key(&st, key, klen);
		k->crypt(&st, len, in, got);
		ck_assert_msg(memcmp(want, got, len) == 0,
			      "%s differs from OpenSSL: key %zu bytes, len %zu",
			      k->info.name, klen, len);
	}
#else
	if (_i == 0)
		printf("OpenSSL libcrypto not found: oracle test skipped\n");
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kernels");
	TCase *tc = tcase_create("all");

	while (rc4k_nth(RC4K_SINGLE, nkernels))
		nkernels++;
	test_say_unusable(RC4K_SINGLE, nkernels,
			  "RFC 6229, self-test, reference, short calls, "
			  "page edges, OpenSSL");
	load_rfc6229();
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rfc6229_data);
	tcase_add_loop_test(tc, test_rfc6229, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_selftest, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_vs_reference, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_short_calls, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_page_edges, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_near_x, 0, (int)nkernels);
	tcase_add_loop_test(tc, test_vs_openssl, 0, (int)nkernels);
	suite_add_tcase(s, tc);
	return test_run(s);
}
