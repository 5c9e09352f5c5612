/* SPDX-License-Identifier: MIT */
/* bench.c - every kernel side by side through the public API, and the RC4s
 * users would otherwise pick where built with them (OpenSSL's RC4(),
 * libgcrypt's ARCFOUR, nettle's arcfour_crypt), in one run: `make bench`.
 *
 * Timed through the tuner's timing core (tuner/speed.h), with its keys
 * and buffers: each row's key in an rc4tune_key array at the core's
 * placements in turn, separate input and output buffers; slices of a few
 * milliseconds, round-robin over rows so drift hits all alike; a row's
 * speed at a size is the core's (the median as at its worst placement).
 * Prints MB/s per block size, the geometric mean, its spread over rounds,
 * each kernel's ratio to the best, and the library's own pick with its
 * ratio to the best (pick/best), which is what the tuner must get right.
 * Then the best kernel against each library per block size: the ratio, and
 * both in cycles per byte by the TSC (x86); and the best kernel of each
 * block size against OpenSSL.  Last, each row at 8192 B beside the store
 * bound of its cell width (storebound.h, measured in the same rounds):
 * its ticks per byte, its ratio to OpenSSL and its share of the bound
 * (bound / its ticks per byte).  Ticks per byte are the TSC's rate over
 * the run divided by the row's speed.  The TSC ticks at the nominal clock,
 * not the boost clock the core may run at, so these are TSC ticks per byte,
 * comparable between runs on one machine rather than core cycles. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rc4tune.h"
#include "storebound.h"
#include "tuner/speed.h"
#include "tuner/timing.h"
#if defined(__x86_64__) || defined(__i386__)
#define HAVE_TSC 1
#endif
#ifdef HAVE_LIBCRYPTO
#include <openssl/rc4.h>
#endif
#ifdef HAVE_LIBGCRYPT
#include <gcrypt.h>
#endif
#ifdef HAVE_NETTLE
#include <nettle/arcfour.h>
#endif

#define NSIZES 5
static const size_t sizes[NSIZES] = { 16, 64, 256, 1024, 8192 };
#define MAXK 64
#define MAXROUNDS SB_MAXROUNDS

/* What a row times: a kernel through the public API, or a library. */
enum lib { KERNEL, OPENSSL, GCRYPT, NETTLE };

struct cand {
	const char *name;
	enum lib lib;
	unsigned long reps[NSIZES]; /* calls a slice */
	double med[NSIZES], cpbmed[NSIZES], score, spread;
};

/* The store bound's rates, measured among the rounds. */
static struct sb_rounds bound;

/* A row's keyed state, at the core's keys' placement (libgcrypt's
 * handle is its own). */
union keyed {
	rc4tune_key k;
#ifdef HAVE_LIBCRYPTO
	RC4_KEY ok;
#endif
#ifdef HAVE_LIBGCRYPT
	gcry_cipher_hd_t gh;
#endif
#ifdef HAVE_NETTLE
	struct arcfour_ctx nc;
#endif
};
_Static_assert(sizeof(union keyed) <= SPEED_NKEYS * sizeof(rc4tune_key),
	       "a library's key fits where the core's keys sit");

/* Key C's row (a kernel: made the library's current one first). */
static void set_key(const struct cand *c, union keyed *st)
{
	static const char key[] = "0123456789abcdef";

	switch (c->lib) {
	case KERNEL:
		rc4tune_use_kernel(c->name);
		rc4tune_set_key(&st->k, key, 16);
		break;
#ifdef HAVE_LIBCRYPTO
	case OPENSSL:
		RC4_set_key(&st->ok, 16, (const unsigned char *)key);
		break;
#endif
#ifdef HAVE_LIBGCRYPT
	case GCRYPT:
		if (gcry_cipher_open(&st->gh, GCRY_CIPHER_ARCFOUR,
				     GCRY_CIPHER_MODE_STREAM, 0) != 0 ||
		    gcry_cipher_setkey(st->gh, key, 16) != 0) {
			fprintf(stderr, "bench: libgcrypt has no ARCFOUR\n");
			exit(1);
		}
		break;
#endif
#ifdef HAVE_NETTLE
	case NETTLE:
		arcfour_set_key(&st->nc, 16, (const uint8_t *)key);
		break;
#endif
	default:
		break;
	}
}

/* Encrypt LEN bytes of the core's input into its output at PLACE with
 * C's row. */
static void crypt_buf(const struct cand *c, union keyed *st, size_t len,
		      int place)
{
	const uint8_t *in = speed_in(place);
	uint8_t *out = speed_out(place);

	switch (c->lib) {
	case KERNEL:
		rc4tune_crypt(&st->k, len, in, out);
		break;
#ifdef HAVE_LIBCRYPTO
	case OPENSSL:
		RC4(&st->ok, len, in, out);
		break;
#endif
#ifdef HAVE_LIBGCRYPT
	case GCRYPT:
		gcry_cipher_encrypt(st->gh, out, len, in, len);
		break;
#endif
#ifdef HAVE_NETTLE
	case NETTLE:
		arcfour_crypt(&st->nc, len, out, in);
		break;
#endif
	default:
		break;
	}
}

/* Seconds that REPS calls of size CELL take with row ROW, its key at
 * PLACE (set up first: a slice starts from a fresh key); the core's
 * speed_run. */
static double run(void *ctx, size_t row, int cell, int place,
		  unsigned long reps)
{
	const struct cand *c = (const struct cand *)ctx + row;
	union keyed *st = (union keyed *)(void *)speed_keys(place);
	double t0;

	set_key(c, st);
	t0 = timing_now();
	for (unsigned long r = 0; r < reps; r++)
		crypt_buf(c, st, sizes[cell], place);
	double t = timing_now() - t0;
#ifdef HAVE_LIBGCRYPT
	if (c->lib == GCRYPT)
		gcry_cipher_close(st->gh);
#endif
	return t;
}

/* Row ROW's bytes per second at size CELL over one slice (the core's
 * speed_slice), or the seam's rate. */
static double slice(void *ctx, size_t row, int cell, int place)
{
	const struct cand *c = (const struct cand *)ctx + row;
	unsigned long n = c->reps[cell];

	if (speed_seam != NULL)
		return speed_seam(c->name, place);
	double t = run(ctx, row, cell, place, n);
	return (double)n * (double)sizes[cell] / (t > 0 ? t : 1e-9);
}

/* What the command line asks for. */
struct opts {
	int rounds;
	double secs;
	const char *pick, *picker;
	/* the pick's size split (--short, --below: the tuner's
	 * short_kernel and short_below); NULL: none */
	const char *shrt;
	size_t below;
};

/* The options, and the kernels named into CANDS; the count, or -1 on a
 * usage error. */
static int parse_args(int argc, char **argv, struct opts *o,
		      struct cand *cands)
{
	int n = 0;

	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--rounds") == 0 && a + 1 < argc)
			o->rounds = atoi(argv[++a]);
		else if (strcmp(argv[a], "--ms") == 0 && a + 1 < argc)
			o->secs = atof(argv[++a]) / 1000;
		else if (strcmp(argv[a], "--pick") == 0 && a + 1 < argc) {
			o->pick = argv[++a]; /* e.g. what the tuner wrote */
			o->picker = "--pick";
		} else if (strcmp(argv[a], "--short") == 0 && a + 1 < argc)
			o->shrt = argv[++a];
		else if (strcmp(argv[a], "--below") == 0 && a + 1 < argc)
			o->below = (size_t)atol(argv[++a]);
		else if (n < MAXK)
			cands[n++].name = argv[a];
	}
	if (o->rounds < 1 || o->rounds > MAXROUNDS || o->secs <= 0 ||
	    (o->shrt != NULL) != (o->below > 0)) {
		fprintf(stderr, "usage: bench [--rounds 1..%d] [--ms MS] [--pick KERNEL [--short KERNEL --below BYTES]] [KERNEL...]\n",
			MAXROUNDS);
		return -1;
	}
	o->rounds = speed_whole_turns(o->rounds, MAXROUNDS, speed_cpus());
	return n;
}

/* Every usable kernel, then the libraries this build has; the count. */
static int all_cands(struct cand *cands)
{
	const char *name;
	int n = 0, usable;

	for (size_t i = 0; n < MAXK - 1 &&
			   (name = rc4tune_kernel_info(i, NULL, &usable));
	     i++)
		if (usable)
			cands[n++].name = name;
#ifdef HAVE_LIBCRYPTO
	cands[n].name = "openssl";
	cands[n++].lib = OPENSSL;
#endif
#ifdef HAVE_LIBGCRYPT
	cands[n].name = "libgcrypt";
	cands[n++].lib = GCRYPT;
#endif
#ifdef HAVE_NETTLE
	cands[n].name = "nettle";
	cands[n++].lib = NETTLE;
#endif
	return n;
}

/* The index in sb_widths of the cells row C stores, or -1: a kernel's by
 * its name, a library's by its state's type where its header shows it. */
static int cand_width(const struct cand *c)
{
	switch (c->lib) {
	case KERNEL:
		return sb_width_of(c->name);
#ifdef HAVE_LIBCRYPTO
	case OPENSSL:
		return sb_width_index(sizeof(((RC4_KEY *)0)->data[0]));
#endif
#ifdef HAVE_NETTLE
	case NETTLE:
		return sb_width_index(sizeof(((struct arcfour_ctx *)0)->S[0]));
#endif
	default:
		return -1;
	}
}

/* Each row's speeds (the core's), ticks per byte at TICKS_PER_S, score
 * and spread; the best kernel's index. */
static int summarize(const struct speed_table *t, struct cand *cands, int n,
		     double ticks_per_s)
{
	int best = 0;

	for (int i = 0; i < n; i++) {
		struct speed_row r;
		speed_row(t, (size_t)i, NULL, &r, NULL);
		for (int s = 0; s < NSIZES; s++) {
			cands[i].med[s] = r.rate[s] / 1e6;
			cands[i].cpbmed[s] = ticks_per_s / r.rate[s];
		}
		cands[i].score = r.score / 1e6;
		cands[i].spread = r.spread;
		if (cands[i].lib == KERNEL &&
		    (cands[best].lib != KERNEL ||
		     cands[i].score > cands[best].score))
			best = i;
	}
	return best;
}

/* LABEL, then the block sizes as a header row. */
static void size_row(const char *label)
{
	printf("%-24s", label);
	for (int s = 0; s < NSIZES; s++)
		printf(" %8zu", sizes[s]);
}

/* "pick/best" for row PICK against row BEST, after WHAT: the ratio of
 * the scores, then round by round in T (the rows timed side by side),
 * their median ratio and its lower bound at 95 %, as the tuner's
 * confidence reckons it. */
static void print_ratio(const struct speed_table *t, const struct cand *cands,
			int pick, int best, const char *what,
			const struct opts *o)
{
	double a[SPEED_MAX_ROUNDS], b[SPEED_MAX_ROUNDS], median;
	struct speed_row r;

	speed_row(t, (size_t)pick, NULL, &r, a);
	speed_row(t, (size_t)best, NULL, &r, b);
	double low = speed_ratio_bound(a, b, t->rounds, 0.95, &median);
	printf("%s %s: %spick/best = %.3f (best %s); round by round over %d "
	       "rounds: median %.3f, at least %.3f at 95 %%\n",
	       o->picker, o->pick, what, cands[pick].score / cands[best].score,
	       cands[best].name, t->rounds, median, low);
}

/* The state layout a kernel's name starts with ("char-"), its length. */
static size_t layout_len(const char *name)
{
	const char *dash = strchr(name, '-');

	return dash ? (size_t)(dash - name) + 1 : 0;
}

/* Row PICK against the best, and, where that best is of another state
 * layout, against the best of its own: the tuner may give up to its
 * family cost for the batch calls' lanes of a layout (rc4tune(1)), so
 * the second says how it chose within the layout it took. */
static void print_pick(const struct speed_table *t, const struct cand *cands,
		       int n, int pick, int best, const struct opts *o)
{
	const char *mine = cands[pick].name;
	size_t len = layout_len(mine);
	int top = pick;
	char what[64];

	print_ratio(t, cands, pick, best, "", o);
	if (len == 0 || strncmp(cands[best].name, mine, len) == 0)
		return;
	for (int i = 0; i < n; i++)
		if (cands[i].lib == KERNEL &&
		    strncmp(cands[i].name, mine, len) == 0 &&
		    cands[i].score > cands[top].score)
			top = i;
	snprintf(what, sizeof what, "of the %.*s layout, ", (int)len, mine);
	print_ratio(t, cands, pick, top, what, o);
}

/* MB/s per block size, geometric mean and ratio to the best for each row;
 * the pick's ratio to the best. */
static void print_table(const struct speed_table *t, const struct cand *cands,
			int n, int best, const struct opts *o)
{
	size_row("MB/s");
	printf(" %8s %7s %7s\n", "geomean", "spread", "/best");
	for (int i = 0; i < n; i++) {
		printf("%-24s", cands[i].name);
		for (int s = 0; s < NSIZES; s++)
			printf(" %8.1f", cands[i].med[s]);
		printf(" %8.1f %6.1f%% %7.3f%s\n", cands[i].score,
		       100 * cands[i].spread,
		       cands[i].score / cands[best].score, i == best ? " *" : "");
	}
	for (int i = 0; i < n; i++)
		if (strcmp(cands[i].name, o->pick) == 0)
			print_pick(t, cands, n, i, best, o);
}

/* The row named NAME, or -1. */
static int row_of(const struct cand *cands, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(cands[i].name, name) == 0)
			return i;
	return -1;
}

/* At each size, the kernel the pick runs there (its split's short kernel
 * below the threshold) over that size's fastest kernel. */
static void print_pick_sizes(const struct cand *cands, int n,
			     const struct opts *o)
{
	size_row("pick / size's best");
	printf("\n%-24s", "");
	for (int s = 0; s < NSIZES; s++) {
		const char *k = o->shrt && sizes[s] < o->below ? o->shrt
							      : o->pick;
		int i = row_of(cands, n, k), top = i;
		for (int j = 0; j < n; j++)
			if (cands[j].lib == KERNEL && top >= 0 &&
			    cands[j].med[s] > cands[top].med[s])
				top = j;
		if (i < 0)
			printf(" %8s", "-");
		else
			printf(" %8.3f", cands[i].med[s] / cands[top].med[s]);
	}
	printf("  %s%s%s", o->pick, o->shrt ? ", below: " : "",
	       o->shrt ? o->shrt : "");
	printf("\n");
}

/* The best kernel against each library: ratio per block size, and both in
 * TSC ticks per byte where there is a TSC. */
static void print_vs_libs(const struct cand *cands, int n, int best)
{
	for (int i = 0; i < n; i++) {
		if (cands[i].lib == KERNEL)
			continue;
		printf("best/%s = %.3f\n", cands[i].name,
		       cands[best].score / cands[i].score);
		printf("\n");
		size_row("best vs");
		printf("\n%-24s", "MB/s ratio");
		for (int s = 0; s < NSIZES; s++)
			printf(" %8.3f", cands[best].med[s] / cands[i].med[s]);
		printf("  %s / %s", cands[best].name, cands[i].name);
#ifdef HAVE_TSC
		const int who[2] = { best, i };
		for (int w = 0; w < 2; w++) {
			printf("\n%-24s", "TSC cycles/byte");
			for (int s = 0; s < NSIZES; s++)
				printf(" %8.2f", cands[who[w]].cpbmed[s]);
			printf("  %s", cands[who[w]].name);
		}
#endif
		printf("\n");
	}
}

/* The fastest kernel of each block size, against OpenSSL. */
static void print_per_size(const struct cand *cands, int n, int best)
{
	for (int i = 0; i < n; i++) {
		if (cands[i].lib != OPENSSL)
			continue;
		int top[NSIZES];
		printf("\n");
		size_row("per-size best");
		for (int s = 0; s < NSIZES; s++) {
			top[s] = best;
			for (int j = 0; j < n; j++)
				if (cands[j].lib == KERNEL &&
				    cands[j].med[s] > cands[top[s]].med[s])
					top[s] = j;
		}
		printf("\n%-24s", "vs openssl");
		for (int s = 0; s < NSIZES; s++)
			printf(" %8.3f", cands[top[s]].med[s] / cands[i].med[s]);
		printf("\n");
		for (int s = 0; s < NSIZES; s++)
			printf("  %5zu B: %s\n", sizes[s], cands[top[s]].name);
	}
}

/* Each row at 8192 B: ticks per byte (TSC, or ns where the TSC is not
 * constant, as the bound), ratio to OpenSSL, and share of the store bound
 * of its cell width; first the bound per width. */
static void print_bound(const struct cand *cands, int n, int tsc)
{
	const int s = NSIZES - 1;
	int ossl = -1;

	printf("\nstore bound (%s/B):", tsc ? "TSC cycles" : "ns");
	for (int w = 0; w < SB_NWIDTHS; w++)
		printf(" %u-bit %.3f (%.3f stores/%s)%s", 8 * sb_widths[w],
		       sb_bound_cpb(bound.med[w]), bound.med[w], tsc ? "tsc" : "ns",
		       w + 1 < SB_NWIDTHS ? "," : "\n");
	for (int i = 0; i < n; i++)
		if (cands[i].lib == OPENSSL)
			ossl = i;
	printf("%-24s %8s %8s %8s %8s\n", "at 8192 B", tsc ? "TSC c/B" : "ns/B",
	       "/openssl", "bound", "share");
	for (int i = 0; i < n; i++) {
		const struct cand *c = &cands[i];
		double cpb = tsc ? c->cpbmed[s] : 1e3 / c->med[s];
		int w = cand_width(c);
		printf("%-24s %8.2f", c->name, cpb);
		if (ossl >= 0)
			printf(" %8.3f", c->med[s] / cands[ossl].med[s]);
		else
			printf(" %8s", "-");
		if (w >= 0) {
			double b = sb_bound_cpb(bound.med[w]);
			printf(" %8.3f %8.3f\n", b, b / cpb);
		} else {
			printf(" %8s %8s\n", "-", "-");
		}
	}
}

/* Each row's calls a slice of about SECS, at each size. */
static void calibrate(struct cand *cands, int n, double secs)
{
	for (int i = 0; i < n; i++)
		for (int s = 0; s < NSIZES; s++)
			cands[i].reps[s] = speed_calibrate(run, cands, (size_t)i,
							   s, secs);
}

/* ROUNDS rounds of the core, the store bound's among them; the TSC's
 * ticks a second over them (0: no TSC). */
static double measure(struct speed_table *t, struct cand *cands, int n,
		      int rounds, int tsc)
{
	double t0 = timing_now();
	uint64_t c0 = timing_tsc();

	/* on the seam the rows' rates are made up: no bound to set them by */
	for (int r = 0; r < rounds; r++) {
		if (speed_seam == NULL)
			sb_round(&bound, r, tsc);
		speed_round(t, NULL, (size_t)n, slice, cands);
	}
	sb_medians(&bound, rounds);
	return (double)(timing_tsc() - c0) / (timing_now() - t0);
}

int main(int argc, char **argv)
{
	static struct cand cands[MAXK];
	/* first use: the library's choice */
	struct opts o = { .rounds = 3 * SPEED_PLACES, .secs = 0.002,
			  .pick = rc4tune_kernel_name(),
			  .picker = "library picks" };
	int n = parse_args(argc, argv, &o, cands);
	struct speed_table t;

	if (n < 0)
		return 2;
	if (n == 0)
		n = all_cands(cands);
#ifdef HAVE_LIBGCRYPT
	/* libgcrypt wants its version checked before first use; no secure
	 * memory is needed for a benchmark key. */
	gcry_check_version(NULL);
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
#endif
	if (speed_init(&t, (size_t)n, NSIZES) != 0) {
		perror("bench");
		return 1;
	}
	int tsc = sb_use_tsc();
	calibrate(cands, n, o.secs);
	double hz = measure(&t, cands, n, o.rounds, tsc);
	int best = summarize(&t, cands, n, hz);
	print_table(&t, cands, n, best, &o);
	print_pick_sizes(cands, n, &o);
	print_vs_libs(cands, n, best);
	print_per_size(cands, n, best);
	print_bound(cands, n, tsc);
	speed_free(&t);
	return 0;
}
