/* SPDX-License-Identifier: MIT */
/* keysearch.c - an exhaustive search of 40-bit RC4 keys through the batch
 * calls of librc4tune(3), beside the same search with OpenSSL's RC4.
 *
 * PDF's standard security handler, revision 2 (ISO 32000-1 7.6.3.4,
 * algorithm 4), stores in the /U entry RC4(file key, P), P being the
 * 32-byte padding string of 7.6.3.3, with a 5-byte file key: a candidate
 * key is right when RC4(key, P) equals /U.
 *
 *   keysearch [--prefix HEX] --bits N --u HEX
 *	search the 2^N keys that begin as PREFIX (10 hex digits, the key's
 *	bytes in order, its low N bits 0; default 0000000000) for the /U
 *	given as 64 hex digits, and print the keys that give it
 *   keysearch --selftest N
 *	plant a random key in a random slice of 2^N keys, compute its /U,
 *	search; exit 0 only when each search finds exactly that key
 *
 * The whole slice is searched, so that both searches time the same keys;
 * they must agree.  Exit 0 found, 1 not found (or an error), 2 usage.
 *
 * Build: cc keysearch.c $(pkg-config --cflags --libs librc4tune); add
 * -DKEYSEARCH_OPENSSL and libcrypto's flags for the OpenSSL search. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rc4tune.h>
#ifdef KEYSEARCH_OPENSSL
/* RC4_set_key and RC4 are deprecated in OpenSSL 3: ask for the 1.1.1 API,
 * which declares them without the warning. */
#define OPENSSL_API_COMPAT 10101
#include <openssl/rc4.h>
#endif

#define KEYLEN 5     /* a 40-bit key */
#define ULEN 32      /* the padding, and /U */
#define BLOCK 256    /* candidates a batch call */
#define MAXFOUND 8   /* keys listed; all are counted */

static const unsigned char padding[ULEN] = {
	0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41,
	0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
	0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80,
	0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
};

struct search {
	uint64_t first;          /* the slice's first key, as a number */
	unsigned bits;           /* 2^bits keys */
	unsigned char u[ULEN];   /* the /U to match */
};

struct result {
	uint64_t found[MAXFOUND];
	size_t nfound;
	double secs;
};

/* One block's buffers, in a program's layout: the keys in a malloc'd
 * array, the input and the output rows apart (the padding in a row a key:
 * the calls allow no overlap but in[i] == out[i]). */
struct batch {
	rc4tune_key *keys;
	unsigned char (*in)[ULEN];
	unsigned char (*out)[ULEN];
	unsigned char bytes[BLOCK][KEYLEN];
	const void *data[BLOCK];
	size_t len[BLOCK];
	const void *pin[BLOCK];
	void *pout[BLOCK];
};

static const char usage[] =
	"usage: keysearch [--prefix HEX] --bits N --u HEX\n"
	"       keysearch --selftest N\n"
	"  --prefix HEX  the slice's first key, 10 hex digits (default 0)\n"
	"  --bits N      search 2^N keys, N 0..40\n"
	"  --u HEX       the /U entry, 64 hex digits\n"
	"  --selftest N  plant a random key in a 2^N slice and find it\n";

/* Key number K as its bytes, most significant first: the hex digits of
 * the number are the key's bytes in order. */
static void key_bytes(uint64_t k, unsigned char *b)
{
	for (int i = KEYLEN - 1; i >= 0; i--, k >>= 8)
		b[i] = (unsigned char)k;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void note(struct result *r, uint64_t k)
{
	if (r->nfound < MAXFOUND)
		r->found[r->nfound] = k;
	r->nfound++;
}

static struct batch *batch_new(void)
{
	struct batch *b = calloc(1, sizeof *b);

	if (b == NULL)
		return NULL;
	b->keys = malloc(BLOCK * sizeof *b->keys);
	b->in = malloc(BLOCK * sizeof *b->in);
	b->out = malloc(BLOCK * sizeof *b->out);
	if (b->keys == NULL || b->in == NULL || b->out == NULL) {
		free(b->keys);
		free(b->in);
		free(b->out);
		free(b);
		return NULL;
	}
	for (size_t i = 0; i < BLOCK; i++) {
		memcpy(b->in[i], padding, ULEN);
		b->data[i] = b->bytes[i];
		b->len[i] = KEYLEN;
		b->pin[i] = b->in[i];
		b->pout[i] = b->out[i];
	}
	return b;
}

static void batch_free(struct batch *b)
{
	free(b->keys);
	free(b->in);
	free(b->out);
	free(b);
}

/* Keys FIRST.. (N of them, at most BLOCK) set up together, each run over
 * the padding, the outputs held against /U. */
static int search_block(struct batch *b, const struct search *s,
			uint64_t first, size_t n, struct result *r)
{
	for (size_t i = 0; i < n; i++)
		key_bytes(first + i, b->bytes[i]);
	if (rc4tune_set_keys(b->keys, n, b->data, b->len) != 0) {
		fprintf(stderr, "keysearch: rc4tune_set_keys, %zu keys from "
			"%010llx: %s\n", n, (unsigned long long)first,
			strerror(errno));
		return -1;
	}
	rc4tune_crypt_many(b->keys, n, ULEN, b->pin, b->pout);
	for (size_t i = 0; i < n; i++)
		if (memcmp(b->out[i], s->u, ULEN) == 0)
			note(r, first + i);
	return 0;
}

static int search_rc4tune(const struct search *s, struct result *r)
{
	uint64_t count = (uint64_t)1 << s->bits;
	struct batch *b = batch_new();
	struct result warm = { { 0 }, 0, 0 };
	int rc = 0;

	if (b == NULL) {
		fprintf(stderr, "keysearch: out of memory for %d keys\n", BLOCK);
		return -1;
	}
	/* The first calls choose the kernels (config, self-tests): before
	 * the clock starts. */
	if (search_block(b, s, s->first, 1, &warm) != 0) {
		batch_free(b);
		return -1;
	}
	double t = now();
	for (uint64_t done = 0; done < count && rc == 0; done += BLOCK) {
		size_t n = count - done < BLOCK ? (size_t)(count - done) : BLOCK;
		rc = search_block(b, s, s->first + done, n, r);
	}
	r->secs = now() - t;
	batch_free(b);
	return rc;
}

#ifdef KEYSEARCH_OPENSSL
static void search_openssl(const struct search *s, struct result *r)
{
	uint64_t count = (uint64_t)1 << s->bits;
	unsigned char kb[KEYLEN], out[ULEN];
	RC4_KEY k;

	double t = now();
	for (uint64_t i = 0; i < count; i++) {
		key_bytes(s->first + i, kb);
		RC4_set_key(&k, KEYLEN, kb);
		RC4(&k, ULEN, padding, out);
		if (memcmp(out, s->u, ULEN) == 0)
			note(r, s->first + i);
	}
	r->secs = now() - t;
}

static int same_keys(const struct result *a, const struct result *b)
{
	return a->nfound == b->nfound &&
	       memcmp(a->found, b->found,
		      (a->nfound < MAXFOUND ? a->nfound : MAXFOUND) *
			      sizeof a->found[0]) == 0;
}
#endif

static void print_result(const char *who, const struct result *r,
			 uint64_t count, const char *how)
{
	printf("%-8s found", who);
	if (r->nfound == 0)
		printf(" nothing");
	for (size_t i = 0; i < r->nfound && i < MAXFOUND; i++)
		printf(" %010llx", (unsigned long long)r->found[i]);
	if (r->nfound > MAXFOUND)
		printf(" (and %zu more)", r->nfound - MAXFOUND);
	printf("; %llu keys in %.4f s, %.0f keys/s (%s)\n",
	       (unsigned long long)count, r->secs,
	       r->secs > 0 ? (double)count / r->secs : 0.0, how);
}

/* Both searches over the slice, printed; 0 when they agree and found
 * something (exactly *PLANTED, if given), else 1. */
static int run(const struct search *s, const uint64_t *planted)
{
	uint64_t count = (uint64_t)1 << s->bits;
	struct result mine = { { 0 }, 0, 0 };
	char how[128];

	printf("slice %010llx..%010llx (2^%u keys), /U ",
	       (unsigned long long)s->first,
	       (unsigned long long)(s->first + count - 1), s->bits);
	for (int i = 0; i < ULEN; i++)
		printf("%02x", s->u[i]);
	printf("\n");
	if (search_rc4tune(s, &mine) != 0)
		return 1;
	snprintf(how, sizeof how, "rc4tune_set_keys + rc4tune_crypt_many, "
		 "%d a call; kernels: crypt_many %s, single %s", BLOCK,
		 rc4tune_batch_kernel_name(), rc4tune_kernel_name());
	print_result("rc4tune", &mine, count, how);
#ifdef KEYSEARCH_OPENSSL
	struct result theirs = { { 0 }, 0, 0 };

	search_openssl(s, &theirs);
	print_result("OpenSSL", &theirs, count, "RC4_set_key + RC4");
	if (mine.secs > 0)
		printf("rc4tune / OpenSSL: %.2fx keys/s\n",
		       theirs.secs / mine.secs);
	if (!same_keys(&mine, &theirs)) {
		fprintf(stderr, "keysearch: rc4tune and OpenSSL found "
			"different keys in the same slice\n");
		return 1;
	}
#else
	printf("OpenSSL  not built in (-DKEYSEARCH_OPENSSL)\n");
#endif
	if (planted != NULL)
		return mine.nfound == 1 && mine.found[0] == *planted ? 0 : 1;
	return mine.nfound > 0 ? 0 : 1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly 2 * N hex digits of S into the N bytes at OUT. */
static int parse_hex(const char *s, unsigned char *out, size_t n)
{
	if (strlen(s) != 2 * n)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static int parse_bits(const char *s, unsigned *bits)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > 8 * KEYLEN)
		return -1;
	*bits = (unsigned)v;
	return 0;
}

static uint64_t key_number(const unsigned char *b)
{
	uint64_t k = 0;

	for (int i = 0; i < KEYLEN; i++)
		k = k << 8 | b[i];
	return k;
}

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "keysearch: %s%s\n%s", what, arg, usage);
	return 2;
}

/* One option and its argument into *S (the prefix into PREFIX); *SEEN
 * gets the option's letter.  Returns 0, or 2 after saying what is wrong. */
static int parse_option(const char *opt, const char *arg, struct search *s,
			unsigned char *prefix, int *seen)
{
	int bad;

	if (strcmp(opt, "--bits") == 0 || strcmp(opt, "--selftest") == 0)
		bad = arg == NULL || parse_bits(arg, &s->bits) != 0;
	else if (strcmp(opt, "--prefix") == 0)
		bad = arg == NULL || parse_hex(arg, prefix, KEYLEN) != 0;
	else if (strcmp(opt, "--u") == 0)
		bad = arg == NULL || parse_hex(arg, s->u, ULEN) != 0;
	else
		return bad_usage("unknown option ", opt);
	*seen = opt[2];
	if (!bad)
		return 0;
	fprintf(stderr, "keysearch: %s %s: not %s\n%s", opt,
		arg != NULL ? arg : "(missing)",
		*seen == 'p' ? "10 hex digits" :
		*seen == 'u' ? "64 hex digits" : "a number of bits, 0..40",
		usage);
	return 2;
}

/* The command line into *S; *SELFTEST set by --selftest.  Returns 0, or
 * 2 after saying what is wrong. */
static int parse_args(int argc, char **argv, struct search *s, int *selftest)
{
	unsigned char prefix[KEYLEN] = { 0 };
	int count[128] = { 0 }, seen;

	/* argv[argc] is NULL: an option without its argument gets NULL */
	for (int i = 1; i < argc; i += 2) {
		int rc = parse_option(argv[i], argv[i + 1], s, prefix, &seen);
		if (rc != 0)
			return rc;
		count[seen]++;
	}
	*selftest = count['s'] == 1;
	if (*selftest ? argc != 3
		      : count['b'] != 1 || count['u'] != 1 || count['p'] > 1)
		return bad_usage("give --bits N and --u HEX (and --prefix HEX "
				 "once, if at all), or --selftest N alone", "");
	s->first = key_number(prefix);
	if (s->first & (((uint64_t)1 << s->bits) - 1)) {
		fprintf(stderr, "keysearch: --prefix %010llx: its low %u bits "
			"are the ones searched, so must be 0\n",
			(unsigned long long)s->first, s->bits);
		return 2;
	}
	return 0;
}

/* A random key in a random slice of 2^S->bits keys, and its /U by the
 * single-key calls. */
static int plant(struct search *s, uint64_t *planted)
{
	unsigned char r[2 * KEYLEN], kb[KEYLEN];
	FILE *f = fopen("/dev/urandom", "rb");
	rc4tune_key k;

	if (f == NULL || fread(r, 1, sizeof r, f) != sizeof r) {
		fprintf(stderr, "keysearch: /dev/urandom: %s\n",
			f == NULL ? strerror(errno) : "short read");
		if (f != NULL)
			fclose(f);
		return -1;
	}
	fclose(f);
	uint64_t mask = ((uint64_t)1 << s->bits) - 1;
	s->first = key_number(r) & ~mask;
	*planted = s->first | (key_number(r + KEYLEN) & mask);
	key_bytes(*planted, kb);
	if (rc4tune_set_key(&k, kb, KEYLEN) != 0) {
		fprintf(stderr, "keysearch: rc4tune_set_key: %s\n", strerror(errno));
		return -1;
	}
	rc4tune_crypt(&k, ULEN, padding, s->u);
	printf("planted %010llx\n", (unsigned long long)*planted);
	return 0;
}

int main(int argc, char **argv)
{
	struct search s = { 0, 0, { 0 } };
	int selftest = 0;
	uint64_t planted;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			  strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	int rc = parse_args(argc, argv, &s, &selftest);
	if (rc != 0)
		return rc;
	if (!selftest)
		return run(&s, NULL);
	if (plant(&s, &planted) != 0)
		return 1;
	rc = run(&s, &planted);
	printf("selftest: %s\n", rc == 0 ? "ok, each search found exactly the "
		"planted key" : "FAILED: the planted key was not the one found");
	return rc;
}
