/* SPDX-License-Identifier: MIT */
/* check_batch.c - many keys at once (librc4tune(3), Many keys at once:
 * rc4tune_set_keys, rc4tune_crypt_many, rc4tune_skip) give the bytes of
 * separate single-key runs of the reference kernel, for every batch kernel
 * and awkward key counts. */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "rc4tune.h"
#include "kernels/family.h"
#include "heuristic.h"
#include "select.h"
#include "testutil.h"

static size_t nbatch;

/* The Ith batch kernel. */
static const struct rc4k_batch *batch(size_t i)
{
	return rc4k_batch(rc4k_nth(RC4K_BATCH, i));
}

/* Key counts: none, one, odd, lane multiples and one past them. */
static const size_t counts[] = { 0, 1, 2, 3, 5, 7, 8, 9, 17 };
#define NCOUNTS (sizeof counts / sizeof counts[0])
#define MAXN 17
#define MSG 600

/* Single-stream kernels the batch keys meet: same layout as some batch
 * kernels, another layout for others (so both companions are used). */
static const char *const singles[] = { "int-8x", "char-1x", "long-8x-chunk" };

/* One stream as the reference kernel runs it, alongside the batch one. */
struct mirror {
	struct rc4k_state st;
	uint8_t key[256];
	size_t len;
};

static void mirror_crypt(struct mirror *m, size_t len, const uint8_t *in,
			 uint8_t *out)
{
	rc4k_char_ref.crypt(&m->st, len, in, out);
}

static void mirror_skip(struct mirror *m, size_t n)
{
	static uint8_t junk[2048];

	for (; n > sizeof junk; n -= sizeof junk)
		mirror_crypt(m, sizeof junk, junk, junk);
	mirror_crypt(m, n, junk, junk);
}

/* One run of test_batch_vs_reference: the batch keys, the reference's
 * mirrors and the buffers; static, too large for the stack. */
static struct {
	rc4tune_key keys[MAXN];
	struct mirror ref[MAXN];
	uint8_t in[MAXN][MSG], out[MAXN][MSG], want[MSG];
	const void *data[MAXN], *pin[MAXN];
	void *pout[MAXN];
	size_t len[MAXN];
} vs;

/* Key I: LEN random bytes, for the batch and set up in its mirror. */
static void vs_key(size_t i, size_t len, uint64_t *seed)
{
	vs.ref[i].len = vs.len[i] = len;
	test_fill(seed, vs.ref[i].key, len);
	vs.data[i] = vs.ref[i].key;
	rc4k_char_ref.set_key(&vs.ref[i].st, vs.ref[i].key, len);
}

/* N random keys of 1..256 bytes set up as a batch and in the mirrors;
 * the single kernel SINGLE continues them, whoever set them up. */
static void vs_set_keys(size_t n, const char *single, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		vs_key(i, 1 + test_below(seed, 256), seed);
	ck_assert_int_eq(rc4tune_set_keys(vs.keys, n, vs.data, vs.len), 0);
	const struct rc4k *cur = rc4k_single(rc4k_find(RC4K_SINGLE, single));
	/* one family per key: whoever set it up, the kernel chosen for
	 * single streams continues it (family.h) */
	for (size_t i = 0; i < n; i++)
		ck_assert_ptr_eq(vs.keys[i].kernel, cur);
}

/* After which message half the keys skip ahead. */
#define SKIP_AFTER 3

/* Message MSG, M bytes a key, through crypt_many (in place for some
 * streams), checked against the mirrors. */
static void vs_message(const struct rc4k_batch *b, size_t n, int msg,
		       size_t m, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++) {
		test_fill(seed, vs.in[i], m);
		int inplace = (i + (size_t)msg) % 3 == 0;
		if (inplace)
			memcpy(vs.out[i], vs.in[i], m);
		vs.pin[i] = inplace ? vs.out[i] : vs.in[i];
		vs.pout[i] = vs.out[i];
	}
	rc4tune_crypt_many(vs.keys, n, m, vs.pin, vs.pout);
	for (size_t i = 0; i < n; i++) {
		mirror_crypt(&vs.ref[i], m, vs.in[i], vs.want);
		ck_assert_msg(memcmp(vs.out[i], vs.want, m) == 0,
			      "%s: %zu keys, key %zu (%zu bytes), "
			      "message %d (%zu bytes)",
			      b->info.name, n, i, vs.len[i], msg, m);
		/* half the keys skip: they fall out of step */
		if (msg == SKIP_AFTER && i % 2 == 1) {
			size_t skip = test_below(seed, 1100);
			rc4tune_skip(&vs.keys[i], skip);
			mirror_skip(&vs.ref[i], skip);
		}
	}
}

/* Random keys of 1..256 bytes set up as a batch, then messages of odd
 * lengths (in place for some streams), skips between them for some keys,
 * and at the end each key alone through rc4tune_crypt. */
START_TEST(test_batch_vs_reference)
{
	const struct rc4k_batch *b = batch((size_t)_i / NCOUNTS);
	size_t n = counts[_i % NCOUNTS];
	/* odd lengths, a zero, one long enough for whole words, and one for
	 * the assembly cores' 16-byte blocks of every cell width with the
	 * lanes still in step (RC4K_SHORT), a tail after them */
	static const size_t lens[] = { 1, 13, 600, 0, 8, 77, 261 };
	uint64_t seed = 0xba7c0000u + (uint64_t)_i;

	if (!rc4k_usable(&b->info))
		return;
	/* mostly a kernel of B's layout, whose keys B's lanes run; every
	 * third case one of the list, maybe of another layout (then the
	 * keys are set up and run one by one) */
	const struct rc4k_family *f = rc4k_family(b->info.width);
	const char *single = f != NULL && _i % 3 != 0 ? f->portable->info.name
						      : singles[_i % 3];
	ck_assert_int_eq(rc4tune_use_batch_kernel(b->info.name), 0);
	ck_assert_int_eq(rc4tune_use_kernel(single), 0);
	vs_set_keys(n, single, &seed);
	for (int msg = 0; msg < (int)(sizeof lens / sizeof lens[0]); msg++)
		vs_message(b, n, msg, lens[msg], &seed);
	for (size_t i = 0; i < n; i++) {
		test_fill(&seed, vs.in[i], 40);
		rc4tune_crypt(&vs.keys[i], 40, vs.in[i], vs.out[i]);
		mirror_crypt(&vs.ref[i], 40, vs.in[i], vs.want);
		ck_assert_msg(memcmp(vs.out[i], vs.want, 40) == 0,
			      "%s: key %zu of %zu alone", b->info.name, i, n);
	}
}
END_TEST

/* Key lengths set up by more than one path (powers of two up to 16 are
 * repeated from a register, the rest by copies: lanes.h's expanded key),
 * each in every lane of a group, through every batch kernel. */
START_TEST(test_key_lengths)
{
	static const size_t klen[] = { 1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17,
				       24, 31, 32, 255, 256 };
	const struct rc4k_batch *b = batch((size_t)_i);
	uint64_t seed = 0x6b65790000u + (uint64_t)_i;
	size_t n = sizeof klen / sizeof klen[0];

	if (!rc4k_usable(&b->info))
		return;
	ck_assert_int_eq(rc4tune_use_batch_kernel(b->info.name), 0);
	for (size_t i = 0; i < n; i++)
		vs_key(i, klen[i], &seed);
	ck_assert_int_eq(rc4tune_set_keys(vs.keys, n, vs.data, vs.len), 0);
	vs_message(b, n, 0, 40, &seed);
}
END_TEST

START_TEST(test_selftest)
{
	const struct rc4k_batch *b = batch((size_t)_i);

	ck_assert_int_eq(b->info.kind, RC4K_BATCH);
	if (b->info.width == 0) {
		/* serial: no lanes, no layout; its keys are the kernel's it
		 * runs */
		ck_assert_uint_eq(b->lanes, 1);
	} else {
		ck_assert_uint_ge(b->lanes, 2);
		ck_assert_ptr_nonnull(rc4k_family(b->info.width));
	}
	ck_assert_ptr_eq(rc4k_find(RC4K_BATCH, b->info.name), &b->info);
	/* batch and single-stream names never meet */
	ck_assert_ptr_null(rc4k_find(RC4K_SINGLE, b->info.name));
	if (rc4k_usable(&b->info))
		ck_assert_msg(rc4k_selftest(&b->info) == 0,
			      "%s fails its self-test", b->info.name);
}
END_TEST

/* An invalid key anywhere fails the whole call before any key changes. */
START_TEST(test_invalid_key)
{
	static rc4tune_key keys[5], before[5];
	static const uint8_t k256[257] = { 1 };
	const void *data[5] = { k256, k256, k256, k256, k256 };
	size_t len[5] = { 16, 1, 256, 5, 16 };

	memset(keys, 0x5a, sizeof keys);
	memcpy(before, keys, sizeof keys);
	for (int bad = 0; bad < 3; bad++) {
		size_t save = len[4];
		if (bad == 0)
			len[4] = 0;
		else if (bad == 1)
			len[4] = 257;
		else
			data[4] = NULL;
		errno = 0;
		ck_assert_int_eq(rc4tune_set_keys(keys, 5, data, len), -1);
		ck_assert_int_eq(errno, EINVAL);
		ck_assert_mem_eq(keys, before, sizeof keys);
		len[4] = save;
		data[4] = k256;
	}
	errno = 0;
	ck_assert_int_eq(rc4tune_set_keys(keys, 5, NULL, len), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(rc4tune_set_keys(NULL, 0, NULL, NULL), 0);
	ck_assert_int_eq(rc4tune_set_keys(keys, 5, data, len), 0);
}
END_TEST

/* Keys keep working when the process switches kernels, single or batch,
 * and keys of every layout may share one rc4tune_crypt_many call. */
static void crypt_all(rc4tune_key *keys, size_t n, size_t off, size_t len,
		      const uint8_t *zero, uint8_t (*got)[600])
{
	const void *pin[8];
	void *pout[8];

	for (size_t i = 0; i < n; i++) {
		pin[i] = zero;
		pout[i] = got[i] + off;
	}
	rc4tune_crypt_many(keys, n, len, pin, pout);
}

START_TEST(test_mixed_layouts)
{
	/* NULL: set up by rc4tune_set_keys (while long-8x is current) */
	static const char *const setup[] = { "char-1x", "int-8x", "long-1x",
					     NULL, "char-ref", NULL, "int-4x" };
	enum { N = sizeof setup / sizeof setup[0] };
	static const uint8_t zero[600];
	static uint8_t got[N][600];
	uint8_t want[600];
	rc4tune_key keys[N], batch[2];
	const void *bdata[2] = { "key 3", "key 5" };
	size_t blen[2] = { 5, 5 };
	char name[N][8];

	ck_assert_int_eq(rc4tune_use_batch_kernel("char-4lane"), 0);
	ck_assert_int_eq(rc4tune_use_kernel("long-8x"), 0);
	ck_assert_int_eq(rc4tune_set_keys(batch, 2, bdata, blen), 0);
	keys[3] = batch[0];
	keys[5] = batch[1];
	for (size_t i = 0; i < N; i++) {
		snprintf(name[i], sizeof name[i], "key %zu", i);
		if (setup[i] == NULL)
			continue;
		ck_assert_int_eq(rc4tune_use_kernel(setup[i]), 0);
		ck_assert_int_eq(rc4tune_set_key(&keys[i], name[i], 5), 0);
	}

	crypt_all(keys, N, 0, 100, zero, got);
	ck_assert_int_eq(rc4tune_use_batch_kernel("int-8lane"), 0);
	ck_assert_int_eq(rc4tune_use_kernel("char-8x-chunk"), 0);
	crypt_all(keys, N, 100, 333, zero, got);
	for (size_t i = 0; i < N; i++)
		rc4tune_crypt(&keys[i], 167, zero, got[i] + 433);

	for (size_t i = 0; i < N; i++) {
		struct rc4k_state st;
		rc4k_char_ref.set_key(&st, (const uint8_t *)name[i], 5);
		rc4k_char_ref.crypt(&st, sizeof want, zero, want);
		ck_assert_msg(memcmp(got[i], want, sizeof want) == 0,
			      "key %zu (%s)", i, setup[i] ? setup[i] : "batch");
	}
}
END_TEST

/* A kernel that makes keystream ahead has the lanes of its width set up
 * and run its keys, except a key that holds keystream made ahead: that
 * one goes through its own kernel until the keystream is used up.  Short
 * calls (16, 16, 8 bytes) leave some keys holding 24 bytes, then
 * crypt_many runs all of them, twice; every byte is the reference's. */
static void ahead_with(const struct rc4k *k, const struct rc4k_batch *b,
		       uint64_t *seed)
{
	static const size_t shorts[] = { 16, 16, 8 };
	enum { N = 9 };
	size_t held = 0;

	ck_assert_ptr_null(rc4k_misfit_reason(&b->info, k));
	ck_assert_int_eq(rc4tune_use_batch_kernel(b->info.name), 0);
	ck_assert_int_eq(rc4tune_use_kernel(k->info.name), 0);
	vs_set_keys(N, k->info.name, seed);
	for (size_t i = 0; i < N; i += 2)
		for (size_t c = 0; c < 3; c++) {
			test_fill(seed, vs.in[i], shorts[c]);
			rc4tune_crypt(&vs.keys[i], shorts[c], vs.in[i],
				      vs.out[i]);
			mirror_crypt(&vs.ref[i], shorts[c], vs.in[i], vs.want);
			ck_assert_mem_eq(vs.out[i], vs.want, shorts[c]);
		}
	for (size_t i = 0; i < N; i++)
		held += k->made_ahead((const struct rc4k_state *)(const void *)
					      vs.keys[i].state.bytes) != 0;
	ck_assert_uint_eq(held, (N + 1) / 2);
	vs_message(b, N, 0, 77, seed);
	vs_message(b, N, 1, 261, seed);
}

START_TEST(test_made_ahead)
{
	uint64_t seed = 0xa4ead000u;

	for (size_t i = 0; rc4k_nth(RC4K_SINGLE, i) != NULL; i++) {
		const struct rc4k *k = rc4k_single(rc4k_nth(RC4K_SINGLE, i));
		if (k->made_ahead == NULL || !rc4k_usable(&k->info))
			continue;
		for (size_t j = 0; j < nbatch; j++)
			if (batch(j)->info.width == k->info.width &&
			    rc4k_usable(&batch(j)->info))
				ahead_with(k, batch(j), &seed);
	}
}
END_TEST

/* Bad input writes nothing: a zeroed key (never set up) or a NULL buffer
 * among the streams stops the whole call; so does a zeroed key to skip. */
START_TEST(test_bad_streams)
{
	static rc4tune_key keys[3], zero_key;
	static const uint8_t zero[32];
	uint8_t out[3][32], before[3][32];
	const void *in[3] = { zero, zero, zero };
	void *pout[3] = { out[0], out[1], out[2] };
	const void *data[3] = { "a", "b", "c" };
	size_t len[3] = { 1, 1, 1 };

	ck_assert_int_eq(rc4tune_set_keys(keys, 3, data, len), 0);
	memset(out, 0x77, sizeof out);
	memcpy(before, out, sizeof out);
	rc4tune_key saved = keys[2];
	keys[2] = zero_key;
	errno = 0;
	rc4tune_crypt_many(keys, 3, sizeof out[0], in, pout);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(out, before, sizeof out);
	keys[2] = saved;
	in[1] = NULL;
	errno = 0;
	rc4tune_crypt_many(keys, 3, sizeof out[0], in, pout);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(out, before, sizeof out);
	errno = 0;
	rc4tune_crypt_many(keys, 3, sizeof out[0], NULL, pout);
	ck_assert_int_eq(errno, EINVAL);
	rc4tune_crypt_many(NULL, 0, 5, NULL, NULL);
	rc4tune_crypt_many(keys, 3, 0, NULL, NULL);

	errno = 0;
	rc4tune_skip(&zero_key, 10);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	rc4tune_skip(NULL, 10);
	ck_assert_int_eq(errno, EINVAL);
	rc4tune_skip(NULL, 0);

	/* and the good keys were not moved on by the refused calls */
	in[1] = zero;
	rc4tune_crypt_many(keys, 3, 1, in, pout);
	for (size_t i = 0; i < 3; i++) {
		struct rc4k_state st;
		uint8_t want;
		rc4k_char_ref.set_key(&st, data[i], 1);
		rc4k_char_ref.crypt(&st, 1, zero, &want);
		ck_assert_uint_eq(out[i][0], want);
	}
}
END_TEST

/* RFC 6229: key 0x0102030405, keystream at offset 1008, after a skip. */
START_TEST(test_skip_known_answer)
{
	static const uint8_t key[] = { 1, 2, 3, 4, 5 };
	static const uint8_t at1008[16] = { 0x45, 0x12, 0x90, 0x48, 0xe6, 0xa0,
					    0xed, 0x0b, 0x56, 0xb4, 0x90, 0x33,
					    0x8f, 0x07, 0x8d, 0xa5 };
	uint8_t buf[16] = { 0 };
	const void *data[1] = { key };
	size_t len[1] = { sizeof key };
	rc4tune_key k;

	ck_assert_int_eq(rc4tune_set_keys(&k, 1, data, len), 0);
	rc4tune_skip(&k, 1000);
	rc4tune_skip(&k, 0);
	rc4tune_skip(&k, 8);
	rc4tune_crypt(&k, sizeof buf, buf, buf);
	ck_assert_mem_eq(buf, at1008, sizeof buf);
}
END_TEST

START_TEST(test_use_batch_kernel)
{
	ck_assert_int_eq(rc4tune_use_batch_kernel("int-2lane"), 0);
	ck_assert_str_eq(rc4tune_batch_kernel_name(), "int-2lane");
	errno = 0;
	ck_assert_int_eq(rc4tune_use_batch_kernel("int-8x"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(rc4tune_use_batch_kernel(NULL), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(rc4tune_batch_kernel_name(), "int-2lane");
}
END_TEST

/* The library's choice: this CPU's section > [default] > the default, and
 * the trail says why a step is skipped. */
static void write_conf(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* TRAIL has the line "set_keys: config PATH: WHAT". */
static void said_conf(const char *trail, const char *path, const char *what)
{
	char line[256];

	snprintf(line, sizeof line, "set_keys: config %s: %s\n", path, what);
	ck_assert_msg(strstr(trail, line) != NULL, "trail lacks \"%s\":\n%s",
		      line, trail);
}

START_TEST(test_select_from_config)
{
	char path[] = "/tmp/check_batch_XXXXXX", trail[1024];
	struct rc4_cpu cpu = { .vendor = "Nobody", .family = 1, .model = 2 };
	struct rc4_select_in in = { .conf = path, .cpu = NULL,
				    .cpu_why = "a fixture", .find = rc4k_find };
	/* past the config: the batch rule for any CPU, else the default */
	const struct rc4k_info *rule = rc4_heuristic_walk(
		RC4K_BATCH, NULL, &cpu, true, rc4k_find, NULL, NULL, NULL);
	const struct rc4k_info *fallback =
		rule ? rule : rc4k_kinds[RC4K_BATCH].fallback;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	write_conf(path, "[default]\nbatch_kernel = int-2lane\nkernel = int-8x\n"
			 "[cpu Nobody 1 2]\nbatch_kernel = char-8lane\n");
	ck_assert_str_eq(
		rc4_select(RC4K_BATCH, &in, trail, sizeof trail, NULL)->name,
		"int-2lane");
	ck_assert_ptr_nonnull(strstr(
		trail, "set_keys: chosen: int-2lane (config line 2 [default] "
		       "batch_kernel)"));
	/* the library's first use (each test runs in a fresh process), on
	 * a CPU that is not "Nobody 1 2" */
	ck_assert_int_eq(setenv("RC4TUNE_CONF", path, 1), 0);
	ck_assert_str_eq(rc4tune_batch_kernel_name(), "int-2lane");
	in.cpu = &cpu;
	ck_assert_str_eq(
		rc4_select(RC4K_BATCH, &in, trail, sizeof trail, NULL)->name,
		"char-8lane");

	write_conf(path, "[default]\nbatch_kernel = int-8x\n");
	ck_assert_ptr_eq(rc4_select(RC4K_BATCH, &in, trail, sizeof trail, NULL),
			 fallback);
	ck_assert_ptr_nonnull(strstr(
		trail, "\"int-8x\": unknown set_keys kernel; skipped"));
	said_conf(trail, path, "read");

	/* a file not used: the trail says why, as the single kernel's */
	write_conf(path, "[default]\nbatch_kernel = int-2lane\n[oops\n");
	ck_assert_ptr_eq(rc4_select(RC4K_BATCH, &in, trail, sizeof trail, NULL),
			 fallback);
	said_conf(trail, path, "whole file ignored: line 3: section header "
			       "without a closing ']'");
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_ptr_eq(rc4_select(RC4K_BATCH, &in, NULL, 0, NULL), fallback);
	ck_assert_ptr_eq(rc4_select(RC4K_BATCH, &in, trail, sizeof trail, NULL),
			 fallback);
	said_conf(trail, path, "no such file");
}
END_TEST

/* Each batch call has its own key; batch_kernel names both where a call's
 * own key is not in the same section, wherever it stands there. */
START_TEST(test_select_per_call)
{
	char path[] = "/tmp/check_batch_XXXXXX";
	struct rc4_cpu cpu = { .vendor = "Nobody", .family = 1, .model = 2 };
	struct rc4_select_in in = { .conf = path, .cpu = &cpu,
				    .cpu_why = "a fixture", .find = rc4k_find };
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	close(fd);
	write_conf(path, "[cpu Nobody 1 2]\ncrypt_many_kernel = int-4lane\n"
			 "batch_kernel = char-2lane\n");
	ck_assert_str_eq(rc4_select(RC4K_SET_KEYS, &in, NULL, 0, NULL)->name,
			 "char-2lane");
	ck_assert_str_eq(rc4_select(RC4K_CRYPT_MANY, &in, NULL, 0, NULL)->name,
			 "int-4lane");
	/* a call's own key in [default] does not outrank this CPU's shared
	 * key: sections keep their precedence */
	write_conf(path, "[default]\nset_keys_kernel = int-4lane\n"
			 "[cpu Nobody 1 2]\nbatch_kernel = char-4lane\n");
	ck_assert_str_eq(rc4_select(RC4K_SET_KEYS, &in, NULL, 0, NULL)->name,
			 "char-4lane");
	/* one family per key: a kernel of another family is passed over
	 * for the single-stream kernel whose keys the call runs */
	in.single = rc4k_family(4)->portable; /* int-8x */
	ck_assert_str_ne(rc4_select(RC4K_SET_KEYS, &in, NULL, 0, NULL)->name,
			 "char-4lane");
	in.single = rc4k_family(1)->portable; /* char-8x-chunk */
	ck_assert_str_eq(rc4_select(RC4K_SET_KEYS, &in, NULL, 0, NULL)->name,
			 "char-4lane");
	/* the library: each call its own kernel, of the kernel's family */
	write_conf(path, "[default]\nkernel = int-8x\n"
			 "set_keys_kernel = int-2lane\n"
			 "crypt_many_kernel = int-4lane\n");
	ck_assert_int_eq(setenv("RC4TUNE_CONF", path, 1), 0);
	ck_assert_str_eq(rc4_current(RC4K_SET_KEYS)->name, "int-2lane");
	ck_assert_str_eq(rc4_current(RC4K_CRYPT_MANY)->name, "int-4lane");
	ck_assert_str_eq(rc4tune_batch_kernel_name(), "int-4lane");
	ck_assert_int_eq(rc4tune_use_batch_kernel("int-8lane"), 0);
	ck_assert_str_eq(rc4_current(RC4K_SET_KEYS)->name, "int-8lane");
	ck_assert_str_eq(rc4_current(RC4K_CRYPT_MANY)->name, "int-8lane");
	ck_assert_int_eq(unlink(path), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("all");

	while (rc4k_nth(RC4K_BATCH, nbatch))
		nbatch++;
	test_say_unusable(RC4K_BATCH, nbatch, "self-test, reference");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_selftest, 0, (int)nbatch);
	tcase_add_loop_test(tc, test_batch_vs_reference, 0,
			    (int)(nbatch * NCOUNTS));
	tcase_add_loop_test(tc, test_key_lengths, 0, (int)nbatch);
	tcase_add_test(tc, test_invalid_key);
	tcase_add_test(tc, test_mixed_layouts);
	tcase_add_test(tc, test_made_ahead);
	tcase_add_test(tc, test_skip_known_answer);
	tcase_add_test(tc, test_bad_streams);
	tcase_add_test(tc, test_use_batch_kernel);
	tcase_add_test(tc, test_select_per_call);
	tcase_add_test(tc, test_select_from_config);
	suite_add_tcase(s, tc);
	return test_run(s);
}
