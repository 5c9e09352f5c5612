/* kernel.h - what every RC4 kernel provides, and the registry of them all. */
#ifndef RC4K_KERNEL_H
#define RC4K_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* The state a key carries.  Each family uses one member of the union: 8-,
 * 32- or 64-bit entries.  x and y are the two RC4 indices (i and j). */
struct rc4k_state {
	uint32_t x, y;
	uint32_t reserved[2]; /* keeps s 16-byte aligned for vector kernels */
	union {
		uint8_t c[256];
		uint32_t i[256];
		uint64_t l[256];
	} s;
};

struct rc4k {
	const char *name;    /* stable: configs name kernels by it */
	const char *summary; /* one line for --list */
	int (*usable)(void); /* NULL: runs on any CPU */
	/* State layout: bytes per s entry (1 char, 4 int, 8 long), with x and
	 * y the plain indices.  Kernels of one nonzero width can continue each
	 * other's keys; 0: a private layout, shared with no other kernel. */
	uint8_t width;
	void (*set_key)(struct rc4k_state *st, const uint8_t *key, size_t len);
	void (*crypt)(struct rc4k_state *st, size_t len, const uint8_t *in,
		      uint8_t *out);
};

/* Every kernel this build compiled, NULL-terminated; [0] is the reference. */
extern const struct rc4k *const rc4k_registry[];

/* The kernel used when nothing better is known: portable C. */
extern const struct rc4k *const rc4k_default;

const struct rc4k *rc4k_find(const char *name);
int rc4k_usable(const struct rc4k *k);

/* Known-answer test of K (RFC 6229 and classic vectors, split calls,
 * unaligned and in-place buffers).  Returns 0 when every answer is right. */
int rc4k_selftest(const struct rc4k *k);

#endif
