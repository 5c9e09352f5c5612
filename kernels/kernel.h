/* SPDX-License-Identifier: MIT */
/* kernel.h - what every RC4 kernel provides, and the registry of them all.
 * A kernel is a const struct whose first member, struct rc4k_info, is the
 * head through which lookup, usability, self-tests, --list, the config and
 * the selection handle every kind; a single-stream kernel (struct rc4k)
 * runs one key, a batch kernel (batch.h) many together. */
#ifndef RC4K_KERNEL_H
#define RC4K_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The state a key carries.  Each family uses one member of the union: 8-,
 * 32- or 64-bit entries.  x and y are the two RC4 indices (i and j); s
 * starts at offset 16, where the assembly expects it (x86_64/layout.h).
 * ahead is the keystream buffer's bookkeeping of ahead.c's kernels. */
struct rc4k_state {
	uint32_t x, y;
	uint32_t ahead[2];
	union {
		uint8_t c[256];
		uint32_t i[256];
		uint64_t l[256];
	} s;
};

/* What a kernel is chosen for: each public call that runs kernels has its
 * own choice, config key and measurement, since on some CPUs the kernel
 * that sets up keys fastest streams slowest.  A descriptor's info.kind is
 * the first call it serves: single-stream kernels rc4tune_crypt (and
 * rc4tune_set_key), batch kernels (RC4K_BATCH) both batch calls. */
enum rc4k_kind {
	RC4K_SINGLE,     /* rc4tune_set_key, rc4tune_crypt */
	RC4K_SET_KEYS,   /* rc4tune_set_keys */
	RC4K_CRYPT_MANY, /* rc4tune_crypt_many */
	RC4K_KINDS,
	RC4K_BATCH = RC4K_SET_KEYS
};

/* The head of every kernel descriptor. */
struct rc4k_info {
	const char *name;    /* stable: configs name kernels by it */
	const char *summary; /* one line for --list */
	int (*usable)(void); /* NULL: runs on any CPU */
	enum rc4k_kind kind;
	/* State layout: bytes per s entry (1 char, 4 int, 8 long), with x and
	 * y the plain indices.  Kernels of one nonzero width can continue each
	 * other's keys (a single kernel's made_ahead says when not); 0: serial,
	 * which runs the keys of whichever kernel it is handed. */
	uint8_t width;
};

/* A single-stream kernel. */
struct rc4k {
	struct rc4k_info info;
	void (*set_key)(struct rc4k_state *st, const uint8_t *key, size_t len);
	void (*crypt)(struct rc4k_state *st, size_t len, const uint8_t *in,
		      uint8_t *out);
	/* NULL, or whether ST holds keystream made ahead (x86_64/ahead.c):
	 * x, y and S have run past what the caller used, so until the key
	 * has used it up no other kernel of its width may continue it. */
	int (*made_ahead)(const struct rc4k_state *st);
};

/* A key just set up: both indices at 0 and no keystream made ahead, so
 * that any kernel of its width may take it first. */
static inline void rc4k_state_fresh(struct rc4k_state *st)
{
	st->x = st->y = 0;
	st->ahead[0] = st->ahead[1] = 0;
}

/* What a kind of kernel is to the rest of the code.  A new kind is one
 * entry in rc4k_kinds (and its kernels' lines in registry.def). */
struct rc4k_kind_info {
	const char *what;  /* in messages: "kernel", "set_keys kernel" */
	enum rc4k_kind type; /* the info.kind of the kernels it runs */
	const char *env;   /* the environment variable that forces one, or
			    * NULL */
	const char *tag;   /* what starts its lines in the selection trail
			    * and in --list */
	/* Portable C, used when nothing better is known. */
	const struct rc4k_info *fallback;
	/* Known answers (selftest.c); 0 when every answer is right. */
	int (*selftest)(const struct rc4k_info *k);
};

extern const struct rc4k_kind_info rc4k_kinds[RC4K_KINDS];

/* Every kernel this build compiled, of every kind, in registry.def's
 * order, NULL-terminated. */
extern const struct rc4k_info *const rc4k_registry[];

/* The reference kernel (ref.c) that every other one is tested against. */
extern const struct rc4k rc4k_char_ref;

/* The kernel of KIND's type named NAME, or NULL. */
const struct rc4k_info *rc4k_find(enum rc4k_kind kind, const char *name);

/* The Ith kernel of KIND's type in registry order, or NULL past the
 * last. */
const struct rc4k_info *rc4k_nth(enum rc4k_kind kind, size_t i);

/* Whether this CPU can run K. */
int rc4k_usable(const struct rc4k_info *k);

/* Whether K may run here: usable on this CPU and its self-test passed
 * (run at most once per kernel per process).  Returns NULL, or why not. */
const char *rc4k_refused(const struct rc4k_info *k);

/* K's self-test, by its kind: 0 when every answer is right. */
int rc4k_selftest(const struct rc4k_info *k);

/* K as the single-stream kernel it is (K->kind == RC4K_SINGLE). */
static inline const struct rc4k *rc4k_single(const struct rc4k_info *k)
{
	return (const struct rc4k *)k;
}

#endif
