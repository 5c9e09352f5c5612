/* SPDX-License-Identifier: MIT */
/* check_wipe.c - no secret left where the program cannot reach it, and
 * rc4tune_wipe (librc4tune(3), SECRETS IN MEMORY).
 *
 * Each public call that takes a key runs on a stack of this test's own
 * (makecontext), painted with a canary first.  Afterwards the part of that
 * stack the call used is searched for the raw key bytes, for runs of 16 or
 * more entries of a key's RC4 state (as 8-, 32- or 64-bit entries, before
 * and after the call), and for keystream: the call's own, what
 * rc4tune_skip dropped, and the next bytes of the stream (made ahead).  The states
 * and keystreams come from this file's own RC4, checked against every
 * call's output.  Every single-stream kernel, every batch kernel, and the
 * provider module through EVP.  And rc4tune_skip in a fresh process for
 * each kernel, where the dynamic linker binds the library's calls for
 * the first time (librc4tune is linked -z now: it binds none there).
 * Under ASan, locals stay on this stack: the test turns off its fake
 * stack (detect_stack_use_after_return); under ThreadSanitizer no stack
 * is scanned (NO_STACK_SCAN). */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#include "rc4tune.h"
#include "layout.h"
#include "testutil.h"
#ifdef HAVE_LIBCRYPTO
#include <openssl/evp.h>
#include <openssl/provider.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#endif
#endif
#ifndef VALGRIND_MAKE_MEM_DEFINED
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#endif

#if TEST_ASAN
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define NO_ASAN
#endif

/* ThreadSanitizer calls its runtime at every load and store, and the
 * compiler spills a kernel's registers to the kernel's frame around each
 * call: a scan would find the instrumentation's copies.  Why the stacks
 * are not scanned in this build, or NULL. */
#if TEST_TSAN
#define NO_STACK_SCAN "a ThreadSanitizer build"
#else
#define NO_STACK_SCAN NULL
#endif
static const char *const no_stack_scan = NO_STACK_SCAN;

/* ASan's switch for its fake stack (present only in an ASan build). */
extern int __asan_option_detect_stack_use_after_return __attribute__((weak));

/* The states and keystreams to look for come from the tests' own RC4
 * (testutil.h). */

/* --- what the scan looks for --- */

#define MAXSEC 64
#define AHEAD 1280 /* more than any kernel makes ahead (1 KiB) */

static struct secrets {
	size_t nkeys, nstates, nks;
	const uint8_t *key[MAXSEC];
	size_t keylen[MAXSEC];
	uint8_t state[MAXSEC][256];
	uint8_t ks[MAXSEC][AHEAD];
	size_t kslen[MAXSEC];
} sec;

static void forget_all(void)
{
	sec.nkeys = sec.nstates = sec.nks = 0;
}

static void look_for_key(const uint8_t *key, size_t len)
{
	ck_assert_uint_lt(sec.nkeys, MAXSEC);
	sec.key[sec.nkeys] = key;
	sec.keylen[sec.nkeys++] = len;
}

static void look_for_state(const struct test_rc4 *r)
{
	ck_assert_uint_lt(sec.nstates, MAXSEC);
	memcpy(sec.state[sec.nstates++], r->S, 256);
}

/* The N keystream bytes R makes next (R itself does not move). */
static void look_for_next(const struct test_rc4 *r, size_t n)
{
	struct test_rc4 copy = *r;

	ck_assert_uint_lt(sec.nks, MAXSEC);
	ck_assert_uint_le(n, AHEAD);
	test_rc4_ks(&copy, n, sec.ks[sec.nks]);
	sec.kslen[sec.nks++] = n;
}

struct found {
	size_t keys, states, ks;
};

/* The test's own loops: the stack holds what ASan may still think of as
 * dead frames, and memcmp would be intercepted. */
static NO_ASAN int same(const uint8_t *a, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static NO_ASAN size_t occurrences(const uint8_t *hay, size_t n,
				  const uint8_t *needle, size_t len)
{
	size_t c = 0;

	for (size_t p = 0; p + len <= n; p++)
		c += same(hay + p, needle, len);
	return c;
}

static NO_ASAN unsigned entry(const uint8_t *p, unsigned w)
{
	uint64_t v = 0;

	for (unsigned b = w; b-- > 0;)
		v = v << 8 | p[b]; /* little-endian, as x86 and the canary */
	return v < 256 ? (unsigned)v : 256;
}

/* Runs of 16 or more entries of S, W bytes each, in HAY. */
static NO_ASAN size_t state_runs(const uint8_t *hay, size_t n,
				 const uint8_t S[256], unsigned w)
{
	unsigned pos[256];
	size_t runs = 0;

	for (unsigned i = 0; i < 256; i++)
		pos[S[i]] = i;
	for (size_t p = 0; p + 16 * w <= n;) {
		unsigned e = entry(hay + p, w), len = 0;
		if (e < 256) {
			unsigned i = pos[e];
			while (i + len < 256 && p + (len + 1) * w <= n &&
			       entry(hay + p + len * w, w) == S[i + len])
				len++;
		}
		if (len >= 16) {
			runs++;
			p += len * w;
		} else {
			p += w;
		}
	}
	return runs;
}

static NO_ASAN struct found scan(const uint8_t *hay, size_t n)
{
	static const unsigned widths[] = { 1, 4, 8 };
	struct found f = { 0, 0, 0 };

	for (size_t i = 0; i < sec.nkeys; i++)
		f.keys += occurrences(hay, n, sec.key[i], sec.keylen[i]);
	for (size_t i = 0; i < sec.nstates; i++)
		for (size_t w = 0; w < 3; w++)
			f.states += state_runs(hay, n, sec.state[i], widths[w]);
	/* 8-byte windows every 4 bytes: any 11 bytes copied in a row */
	for (size_t i = 0; i < sec.nks; i++)
		for (size_t o = 0; o + 8 <= sec.kslen[i]; o += 4)
			f.ks += occurrences(hay, n, sec.ks[i] + o, 8) != 0;
	return f;
}

/* --- the painted stack --- */

#define STACK_SIZE (512 * 1024)
#define CANARY 0x5a

static uint8_t *stack;
static ucontext_t probe_ctx, main_ctx;
static void (*probe_fn)(void);

static void trampoline(void)
{
	probe_fn();
}

static void stack_setup(void)
{
	stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stack, MAP_FAILED);
	if (&__asan_option_detect_stack_use_after_return != NULL)
		__asan_option_detect_stack_use_after_return = 0;
}

/* Run FN on the painted stack; what the part it used holds. */
static NO_ASAN struct found probe(void (*fn)(void))
{
	memset(stack, CANARY, STACK_SIZE);
	ck_assert_int_eq(getcontext(&probe_ctx), 0);
	probe_ctx.uc_stack.ss_sp = stack;
	probe_ctx.uc_stack.ss_size = STACK_SIZE;
	probe_ctx.uc_link = &main_ctx;
	makecontext(&probe_ctx, trampoline, 0);
	probe_fn = fn;
	ck_assert_int_eq(swapcontext(&main_ctx, &probe_ctx), 0);
	/* valgrind marks a returned frame unaddressable */
	VALGRIND_MAKE_MEM_DEFINED(stack, STACK_SIZE);
	size_t low = 0;
	while (low < STACK_SIZE && stack[low] == CANARY)
		low++;
	ck_assert_msg(low > 0, "the call used the whole probe stack");
	return scan(stack + low, STACK_SIZE - low);
}

/* What the scans of one kind of call found, over all kernels. */
struct tally {
	const char *call;
	struct found sum;
	size_t calls;
};

static void count(struct tally *t, const char *kernel, struct found f)
{
	t->calls++;
	t->sum.keys += f.keys;
	t->sum.states += f.states;
	t->sum.ks += f.ks;
	if (f.keys + f.states + f.ks > 0)
		printf("  %s, %s: %zu key copies, %zu state runs, %zu "
		       "keystream windows\n",
		       kernel, t->call, f.keys, f.states, f.ks);
}

/* One line per kind of call, then fail if anything was found. */
static void report(struct tally *t, size_t n)
{
	size_t all = 0;

	for (size_t i = 0; i < n; i++) {
		printf("%-14s %4zu calls: %zu key copies, %zu state runs, %zu "
		       "keystream windows left on the stack\n",
		       t[i].call, t[i].calls, t[i].sum.keys, t[i].sum.states,
		       t[i].sum.ks);
		all += t[i].sum.keys + t[i].sum.states + t[i].sum.ks;
	}
	fflush(stdout);
	ck_assert_msg(all == 0, "%zu secrets left on the stack (see above)",
		      all);
}

/* --- the calls, run by probe() with arguments from here --- */

static struct {
	rc4tune_key *key;
	const uint8_t *data;
	size_t len, n;
	const uint8_t *in;
	uint8_t *out;
	const void *const *datas;
	const size_t *lens;
	const void *const *ins;
	void *const *outs;
} arg;

static void call_set_key(void)
{
	rc4tune_set_key(arg.key, arg.data, arg.len);
}

static void call_crypt(void)
{
	rc4tune_crypt(arg.key, arg.len, arg.in, arg.out);
}

static void call_skip(void)
{
	rc4tune_skip(arg.key, arg.n);
}

static void call_set_keys(void)
{
	rc4tune_set_keys(arg.key, arg.n, arg.datas, arg.lens);
}

static void call_crypt_many(void)
{
	rc4tune_crypt_many(arg.key, arg.n, arg.len, arg.ins, arg.outs);
}

/* Two pages: buffers that cross from one to the next, where the AVX-512
 * kernels go a byte at a time. */
static uint8_t *pages(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint8_t *p = mmap(NULL, 2 * (size_t)ps, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	return p;
}

/* --- single-stream kernels: set_key, crypt, skip --- */

#define KEYLEN 16

/* Call lengths: short ones (from and into the buffer of a kernel that
 * makes keystream ahead, and its refills), and long ones. */
static const size_t lens_single[] = { 7, 16, 33, 300, 1, 12, 2000, 16, 5 };

/* Secrets of one stream: its KEY, R's state and the N bytes R makes next
 * (what was looked for before is kept: a batch adds each key's). */
static void look_for_stream(const uint8_t *key, size_t keylen,
			    const struct test_rc4 *r, size_t n)
{
	look_for_key(key, keylen);
	look_for_state(r);
	look_for_next(r, n);
}

/* arg.key set up from KEY (R its stream) on the painted stack. */
static void probe_set_key(struct tally *t, const char *name,
			  const uint8_t *key, const struct test_rc4 *r)
{
	forget_all();
	look_for_stream(key, KEYLEN, r, AHEAD);
	arg.data = key;
	arg.len = KEYLEN;
	count(t, name, probe(call_set_key));
}

/* arg.key's crypt calls of every length in lens_single, in place across
 * the boundary of BUF's pages; R follows the stream. */
static void probe_crypts(struct tally *t, const char *name,
			 const uint8_t *key, struct test_rc4 *r, uint8_t *buf,
			 uint64_t *s)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint8_t want[2048];

	for (size_t c = 0; c < sizeof lens_single / sizeof *lens_single; c++) {
		size_t n = lens_single[c];
		/* in place, across the pages' boundary */
		uint8_t *io = buf + ps - n / 2 - c;

		test_fill(s, io, n);
		memcpy(want, io, n);
		forget_all();
		/* its own keystream */
		look_for_stream(key, KEYLEN, r, n < AHEAD ? n : AHEAD);
		for (size_t b = 0; b < n; b++) {
			uint8_t ks;
			test_rc4_ks(r, 1, &ks);
			want[b] ^= ks;
		}
		look_for_state(r);
		look_for_next(r, AHEAD);
		arg.len = n;
		arg.in = arg.out = io;
		count(t, name, probe(call_crypt));
		ck_assert_msg(memcmp(io, want, n) == 0, "%s: not RC4's bytes",
			      name);
	}
}

/* arg.key's skips of 100 and 300 bytes; R follows the stream. */
static void probe_skips(struct tally *t, const char *name, const uint8_t *key,
			struct test_rc4 *r)
{
	uint8_t drop[300];

	for (size_t n = 100; n <= 300; n += 200) {
		forget_all();
		look_for_stream(key, KEYLEN, r, n); /* what skip drops */
		test_rc4_ks(r, n, drop);
		look_for_state(r);
		look_for_next(r, AHEAD);
		arg.n = n;
		count(t, name, probe(call_skip));
	}
}

/* One kernel's set_key, crypt and skip calls on K (T: their tallies), with
 * a fresh key from *S; KEY stays alive while the probes look for it. */
static void single_kernel_stack(struct tally t[3], const char *name,
				rc4tune_key *k, uint8_t *buf, uint64_t *s)
{
	uint8_t key[KEYLEN], want[16], got[16] = { 0 };
	struct test_rc4 r;

	test_fill(s, key, sizeof key);
	test_rc4_key(&r, key, sizeof key);
	arg.key = k; /* for all three kinds of call */
	probe_set_key(&t[0], name, key, &r);
	probe_crypts(&t[1], name, key, &r, buf, s);
	probe_skips(&t[2], name, key, &r);
	/* the stream went on where this file's RC4 says */
	test_rc4_ks(&r, 16, want);
	rc4tune_crypt(k, 16, got, got);
	ck_assert_msg(memcmp(got, want, 16) == 0, "%s: skip", name);
}

START_TEST(test_single_stack)
{
	struct tally t[] = { { .call = "set_key" }, { .call = "crypt" },
			     { .call = "skip" } };
	long ps = sysconf(_SC_PAGESIZE);
	uint8_t *pg = pages(), *buf = pages();
	uint64_t s = 23;
	const char *name;

	stack_setup();
	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, NULL)); i++) {
		if (rc4tune_use_kernel(name) != 0)
			continue; /* not on this CPU */
		/* the key's end (an ahead buffer's) a little past a page */
		rc4tune_key *k = (rc4tune_key *)(void *)(pg + ps + 8 * (i % 4) -
							 sizeof(rc4tune_key));
		single_kernel_stack(t, name, k, buf, &s);
	}
	report(t, sizeof t / sizeof *t);
}
END_TEST

/* --- batch kernels: set_keys, crypt_many --- */

#define NB 15 /* groups of 8, 4, 2 and 1 lanes */
#define BMSG 1000

/* The batch kernels' names: registry.def's ids, '_' made '-'. */
static const char *const batch_ids[] = {
#define SINGLE(id)
#define ASM(id, ...)
#define BATCH(id) #id,
#define LANES(id, ...) BATCH(id)
#include "kernels/registry.def"
};

/* The NB keys of a batch kernel's probes and this file's RC4 of each;
 * static: too large for the stack, and alive while the probes look. */
static struct {
	rc4tune_key keys[NB];
	uint8_t keyb[NB][32], in[NB][BMSG], out[NB][BMSG], want[NB][BMSG];
	const void *data[NB], *pin[NB];
	void *pout[NB];
	size_t lens[NB];
	struct test_rc4 r[NB];
} bat;

/* NAME (SIZE bytes) from the registry's ID. */
static void batch_name(const char *id, char *name, size_t size)
{
	snprintf(name, size, "%s", id);
	for (char *p = name; *p; p++)
		*p = *p == '_' ? '-' : *p;
}

/* Fresh keys from *S, set up as a batch on the painted stack: of lengths
 * that take each way of expanding a key (kernels/lanes.h, KX_LEN), none
 * under 5 bytes, which chance alone would find in a stack. */
static void probe_batch_set_keys(struct tally *t, const char *name,
				 uint64_t *s)
{
	static const size_t lens[NB] = { 16, 5, 13, 8, 7, 31, 6, 17,
					 11, 24, 15, 10, 9, 12, 30 };

	forget_all();
	for (size_t i = 0; i < NB; i++) {
		bat.lens[i] = lens[i];
		test_fill(s, bat.keyb[i], bat.lens[i]);
		bat.data[i] = bat.keyb[i];
		test_rc4_key(&bat.r[i], bat.keyb[i], bat.lens[i]);
		look_for_stream(bat.keyb[i], bat.lens[i], &bat.r[i], 64);
		bat.pin[i] = bat.in[i];
		bat.pout[i] = bat.out[i];
	}
	arg.key = bat.keys;
	arg.n = NB;
	arg.datas = bat.data;
	arg.lens = bat.lens;
	count(t, name, probe(call_set_keys));
}

/* One crypt_many call of N bytes a key on the painted stack; ODD puts key
 * 1 a byte ahead first, its group out of step. */
static void probe_batch_crypt(struct tally *t, const char *name, size_t n,
			      int odd, uint64_t *s)
{
	if (odd) {
		uint8_t one = 0;
		rc4tune_crypt(&bat.keys[1], 1, &one, &one);
		test_rc4_ks(&bat.r[1], 1, &one);
	}
	forget_all();
	for (size_t i = 0; i < NB; i++) {
		look_for_stream(bat.keyb[i], bat.lens[i], &bat.r[i],
				n < 64 ? n : 64);
		test_fill(s, bat.in[i], n);
		test_rc4_ks(&bat.r[i], n, bat.want[i]);
		for (size_t k = 0; k < n; k++)
			bat.want[i][k] ^= bat.in[i][k];
		look_for_state(&bat.r[i]);
	}
	arg.len = n;
	arg.ins = bat.pin;
	arg.outs = bat.pout;
	count(t, name, probe(call_crypt_many));
	for (size_t i = 0; i < NB; i++)
		ck_assert_msg(memcmp(bat.out[i], bat.want[i], n) == 0,
			      "%s: not RC4's bytes", name);
}

START_TEST(test_batch_stack)
{
	struct tally t[] = { { .call = "set_keys" },
			     { .call = "crypt_many" } };
	static const size_t steps[] = { 16, 37, BMSG };
	uint64_t s = 5;

	stack_setup();
	for (size_t b = 0; b < sizeof batch_ids / sizeof *batch_ids; b++) {
		char name[64];
		batch_name(batch_ids[b], name, sizeof name);
		/* keys of its layout, so that its lanes run (not one by
		 * one, as for another layout's keys) */
		if (layout_portable(name) != NULL)
			ck_assert_int_eq(rc4tune_use_kernel(layout_portable(name)),
					 0);
		if (rc4tune_use_batch_kernel(name) != 0) {
			ck_assert_int_eq(errno, ENOTSUP); /* not on this CPU */
			continue;
		}
		probe_batch_set_keys(&t[0], name, &s);
		for (size_t c = 0; c < sizeof steps / sizeof *steps; c++)
			probe_batch_crypt(&t[1], name, steps[c], c == 2, &s);
	}
	report(t, sizeof t / sizeof *t);
}
END_TEST

/* --- the provider module, through EVP --- */

#ifdef HAVE_LIBCRYPTO
static EVP_CIPHER_CTX *ectx;
static const EVP_CIPHER *ecipher;

static void call_evp_init(void)
{
	EVP_EncryptInit_ex2(ectx, ecipher, arg.data, NULL, NULL);
}

static void call_evp_update(void)
{
	int outl;
	EVP_EncryptUpdate(ectx, arg.out, &outl, arg.in, (int)arg.len);
}

static void call_evp_free(void)
{
	EVP_CIPHER_CTX_free(ectx);
}

/* The provider's keys and buffers: static, alive while the probes look. */
static uint8_t pkey[2][KEYLEN], pio[300], pwant[300];

/* The module from DIR, loaded into LIB (*PROV), and its RC4. */
static EVP_CIPHER *fetch_rc4tune(OSSL_LIB_CTX *lib, const char *dir,
				 OSSL_PROVIDER **prov)
{
	ck_assert_msg(dir != NULL, "RC4TUNE_PROVIDER_DIR is not set");
	ck_assert_int_eq(OSSL_PROVIDER_set_default_search_path(lib, dir), 1);
	*prov = OSSL_PROVIDER_load(lib, "rc4tune");
	ck_assert_msg(*prov != NULL, "cannot load rc4tune from %s", dir);
	EVP_CIPHER *c = EVP_CIPHER_fetch(lib, "RC4", "provider=rc4tune");
	ck_assert_ptr_nonnull(c);
	return c;
}

/* EVP's first calls bind their symbols here, not in a probe. */
static void evp_warm_up(void)
{
	arg.data = pkey[0];
	arg.in = arg.out = pio;
	arg.len = 16;
	ectx = EVP_CIPHER_CTX_new();
	call_evp_init();
	call_evp_update();
	call_evp_init();
	call_evp_free();
}

/* Short updates on the painted stack after ectx was keyed with R's key:
 * a kernel that makes keystream ahead has some in the context when it is
 * re-keyed. */
static void probe_evp_updates(struct tally *t, const char *name,
			      struct test_rc4 *r, uint64_t *s)
{
	for (size_t n = 7; n < sizeof pio; n += 3 * n) {
		test_fill(s, pio, n);
		memcpy(pwant, pio, n);
		uint8_t ks[sizeof pio];
		look_for_next(r, n);
		test_rc4_ks(r, n, ks);
		for (size_t b = 0; b < n; b++)
			pwant[b] ^= ks[b];
		look_for_state(r);
		arg.in = arg.out = pio;
		arg.len = n;
		count(t, name, probe(call_evp_update));
		ck_assert_msg(memcmp(pio, pwant, n) == 0, "%s: not RC4's bytes",
			      name);
	}
}

/* One kernel through EVP: init, updates, re-key, updates, free, each on
 * the painted stack (T: the four tallies). */
static void provider_kernel_stack(struct tally t[4], const char *name,
				  uint64_t *s)
{
	struct test_rc4 r[2];

	ectx = EVP_CIPHER_CTX_new();
	ck_assert_ptr_nonnull(ectx);
	forget_all();
	for (int k = 0; k < 2; k++) {
		test_fill(s, pkey[k], KEYLEN);
		test_rc4_key(&r[k], pkey[k], KEYLEN);
		look_for_key(pkey[k], KEYLEN);
		look_for_state(&r[k]);
	}
	for (int k = 0; k < 2; k++) {
		arg.data = pkey[k];
		count(&t[k == 0 ? 0 : 2], name, probe(call_evp_init));
		probe_evp_updates(&t[1], name, &r[k], s);
		look_for_next(&r[k], AHEAD);
	}
	count(&t[3], name, probe(call_evp_free));
}

START_TEST(test_provider_stack)
{
	struct tally t[] = { { .call = "EVP init" }, { .call = "EVP update" },
			     { .call = "EVP re-key" }, { .call = "EVP free" } };
	const char *name;
	OSSL_LIB_CTX *lib = OSSL_LIB_CTX_new();
	OSSL_PROVIDER *prov;
	uint64_t s = 7;

	EVP_CIPHER *c =
		fetch_rc4tune(lib, getenv("RC4TUNE_PROVIDER_DIR"), &prov);
	ecipher = c;
	evp_warm_up();
	stack_setup();
	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, NULL)); i++) {
		if (rc4tune_use_kernel(name) != 0)
			continue;
		provider_kernel_stack(t, name, &s);
	}
	EVP_CIPHER_free(c);
	OSSL_PROVIDER_unload(prov);
	OSSL_LIB_CTX_free(lib);
	report(t, sizeof t / sizeof *t);
}
END_TEST
#endif

/* --- the dynamic linker's first binding --- */

static const char *self; /* this program, run again for each kernel */

/* `check_wipe --first-binding`, RC4TUNE_KERNEL naming the kernel: a fresh
 * process, where nothing that rc4tune_skip calls has been bound yet.  The
 * key is set up on the main stack (the selection, the self-tests), then
 * rc4tune_skip runs on the painted stack: a library that binds lazily
 * resolves a call there for the first time, right after the kernel ran,
 * and the dynamic linker saves the vector registers, keystream in them,
 * a few KiB below. */
START_TEST(test_first_binding_here)
{
	const char *want = getenv("RC4TUNE_KERNEL");
	uint8_t key[KEYLEN], drop[300];
	struct test_rc4 r;
	rc4tune_key k;
	uint64_t s = 11;

	test_fill(&s, key, sizeof key);
	test_rc4_key(&r, key, sizeof key);
	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(rc4tune_set_key(&k, key, sizeof key), 0);
	ck_assert_str_eq(rc4tune_kernel_name(), want);
	/* this program's own first call of rc4tune_skip binds it, here: the
	 * library's bindings are what the probe watches */
	errno = 0;
	rc4tune_skip(NULL, 1);
	ck_assert_int_eq(errno, EINVAL);
	stack_setup();
	forget_all();
	look_for_stream(key, KEYLEN, &r, sizeof drop); /* what skip drops */
	test_rc4_ks(&r, sizeof drop, drop);
	look_for_state(&r);
	look_for_next(&r, AHEAD);
	arg.key = &k;
	arg.n = sizeof drop;
	struct found f = probe(call_skip);
	printf("  %s, first binding in skip: %zu key copies, %zu state runs, "
	       "%zu keystream windows\n",
	       want, f.keys, f.states, f.ks);
	fflush(stdout);
	ck_assert_msg(f.keys + f.states + f.ks == 0,
		      "%s: secrets left on the stack at the first binding",
		      want);
}
END_TEST

/* Each kernel's test_first_binding_here, in a process of its own. */
START_TEST(test_first_binding)
{
	const char *name;
	size_t runs = 0, left = 0;

	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, NULL)); i++) {
		if (rc4tune_use_kernel(name) != 0)
			continue; /* not on this CPU */
		fflush(stdout);
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			/* a cross build's program runs under its emulator */
			const char *emu = getenv("TEST_EMULATOR");
			setenv("RC4TUNE_KERNEL", name, 1);
			if (emu != NULL && *emu != '\0')
				execl(emu, emu, self, "--first-binding",
				      (char *)NULL);
			else
				execl(self, self, "--first-binding",
				      (char *)NULL);
			_exit(98);
		}
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert_msg(WIFEXITED(st), "%s: %s --first-binding: status %d",
			      name, self, st);
		runs++;
		left += WEXITSTATUS(st) != 0;
	}
	printf("first binding  %4zu kernels: %zu failed\n", runs, left);
	ck_assert_msg(left == 0, "%zu kernels failed at the first binding "
				 "(see above)",
		      left);
}
END_TEST

/* --- rc4tune_wipe --- */

static int all_zero(const rc4tune_key *k)
{
	const uint8_t *p = (const uint8_t *)k;

	for (size_t i = 0; i < sizeof *k; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/* A wiped key, from either kind of call, holds nothing and behaves as a
 * zeroed key: crypt, skip and crypt_many do nothing and set EINVAL. */
static void wiped_is_zeroed(rc4tune_key *k, const char *name)
{
	uint8_t buf[64] = { 0 }, zero[64] = { 0 };
	const void *in[1] = { buf };
	void *out[1] = { buf };

	rc4tune_wipe(k);
	ck_assert_msg(all_zero(k), "%s: wiped key not all zeros", name);
	errno = 0;
	rc4tune_crypt(k, sizeof buf, buf, buf);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	rc4tune_skip(k, 10);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	rc4tune_crypt_many(k, 1, sizeof buf, in, out);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_msg(memcmp(buf, zero, sizeof buf) == 0, "%s: wrote", name);
	/* and it can be set up again */
	ck_assert_int_eq(rc4tune_set_key(k, "Key", 3), 0);
	rc4tune_crypt(k, sizeof buf, buf, buf);
	ck_assert_uint_eq(buf[0], 0xeb);
}

START_TEST(test_wipe)
{
	uint8_t buf[64] = { 0 };
	static rc4tune_key k[NB];
	const void *data[NB];
	size_t len[NB];
	const char *name;

	for (size_t i = 0; (name = rc4tune_kernel_info(i, NULL, NULL)); i++) {
		if (rc4tune_use_kernel(name) != 0)
			continue;
		ck_assert_int_eq(rc4tune_set_key(&k[0], "wipe me", 7), 0);
		/* short calls: keystream made ahead stays in the key */
		for (int c = 0; c < 5; c++)
			rc4tune_crypt(&k[0], 9, buf, buf);
		wiped_is_zeroed(&k[0], name);
	}
	for (size_t i = 0; i < NB; i++) {
		data[i] = "batch key";
		len[i] = 9;
	}
	ck_assert_int_eq(rc4tune_set_keys(k, NB, data, len), 0);
	for (size_t i = 0; i < NB; i++)
		wiped_is_zeroed(&k[i], rc4tune_batch_kernel_name());
	errno = 0;
	rc4tune_wipe(NULL);
	ck_assert_int_eq(errno, 0);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("wipe");
	TCase *tc = tcase_create("wipe");

	if (argc == 2 && strcmp(argv[1], "--first-binding") == 0) {
		/* no call into the library before the test's own */
		tcase_add_test(tc, test_first_binding_here);
		suite_add_tcase(s, tc);
		return test_run(s);
	}
	self = argv[0];

	/* the selection, the self-tests and the dynamic linker's first
	 * binding run here, on the main stack, not in a probe */
	rc4tune_key k;
	uint8_t b[16] = { 0 };
	const void *in[1] = { b };
	void *out[1] = { b };
	size_t len[1] = { sizeof b };
	rc4tune_set_key(&k, b, sizeof b);
	rc4tune_crypt(&k, sizeof b, b, b);
	rc4tune_skip(&k, 1);
	rc4tune_set_keys(&k, 1, in, len);
	rc4tune_crypt_many(&k, 1, sizeof b, in, out);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_wipe);
	tcase_add_test(tc, test_first_binding);
	if (no_stack_scan != NULL) {
		printf("%s: no call's stack scanned\n", no_stack_scan);
	} else {
		tcase_add_test(tc, test_single_stack);
		tcase_add_test(tc, test_batch_stack);
	}
#ifdef HAVE_LIBCRYPTO
	if (getenv("RC4TUNE_PROVIDER_DIR") == NULL)
		printf("no provider module (RC4TUNE_PROVIDER_DIR unset): its "
		       "calls not scanned\n");
	else if (no_stack_scan == NULL)
		tcase_add_test(tc, test_provider_stack);
#endif
	suite_add_tcase(s, tc);
	return test_run(s);
}
