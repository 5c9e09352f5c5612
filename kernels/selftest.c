/* SPDX-License-Identifier: MIT */
/* selftest.c - what a kernel of each kind must get right before it is
 * timed or used (rc4k_kinds[].selftest). */
#include <string.h>
#include "family.h"
#include "selftest.h"

struct kat {
	const char *key, *plain;
	const uint8_t cipher[16];
};

/* The classic published examples (ASCII keys and texts). */
static const struct kat kats[] = {
	{ "Key", "Plaintext",
	  { 0xbb, 0xf3, 0x16, 0xe8, 0xd9, 0x40, 0xaf, 0x0a, 0xd3 } },
	{ "Wiki", "pedia", { 0x10, 0x21, 0xbf, 0x04, 0x20 } },
	{ "Secret", "Attack at dawn",
	  { 0x45, 0xa0, 0x1f, 0x64, 0x5f, 0xc3, 0x5b, 0x38, 0x35, 0x52, 0x54,
	    0x4b, 0x9b, 0xf5 } },
};

/* RFC 6229, key 0x0102030405: keystream at offsets 0, 1008 and 4096. */
static const uint8_t rfc_key[] = { 1, 2, 3, 4, 5 };
static const struct {
	size_t off;
	uint8_t ks[16];
} rfc_rows[] = {
	{ 0, { 0xb2, 0x39, 0x63, 0x05, 0xf0, 0x3d, 0xc0, 0x27, 0xcc, 0xc3, 0x52,
	       0x4a, 0x0a, 0x11, 0x18, 0xa8 } },
	{ 1008, { 0x45, 0x12, 0x90, 0x48, 0xe6, 0xa0, 0xed, 0x0b, 0x56, 0xb4,
		  0x90, 0x33, 0x8f, 0x07, 0x8d, 0xa5 } },
	{ 4096, { 0xff, 0x25, 0xb5, 0x89, 0x95, 0x99, 0x67, 0x07, 0xe5, 0x1f,
		  0xbd, 0xf0, 0x8b, 0x34, 0xd8, 0x75 } },
};

#define RFC_LEN (4096 + 16)

int rc4k_selftest_single(const struct rc4k_info *info)
{
	const struct rc4k *k = rc4k_single(info);
	struct rc4k_state st;
	uint8_t buf[RFC_LEN + 16], zero[RFC_LEN + 16];
	/* Uneven pieces, so loops enter at every phase of their unrolling. */
	static const size_t pieces[] = { 1, 7, 300, 13, 2048, 33, 0, 5 };
	int bad = 0;

	for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++) {
		size_t n = strlen(kats[i].plain);
		uint8_t *p = buf + 3; /* in place, odd address */

		memcpy(p, kats[i].plain, n);
		k->set_key(&st, (const uint8_t *)kats[i].key,
			   strlen(kats[i].key));
		k->crypt(&st, n, p, p);
		bad |= memcmp(p, kats[i].cipher, n) != 0;
	}

	memset(zero, 0, sizeof zero);
	k->set_key(&st, rfc_key, sizeof rfc_key);
	size_t done = 0;
	for (size_t i = 0; done < RFC_LEN; i++) {
		size_t n = RFC_LEN - done; /* the rest, after the pieces */
		if (i < sizeof pieces / sizeof pieces[0] && pieces[i] < n)
			n = pieces[i];
		/* input at offset 5, output at offset 3: misaligned apart */
		k->crypt(&st, n, zero + 5 + done, buf + 3 + done);
		done += n;
	}
	for (size_t i = 0; i < sizeof rfc_rows / sizeof rfc_rows[0]; i++)
		bad |= memcmp(buf + 3 + rfc_rows[i].off, rfc_rows[i].ks, 16) != 0;
	return bad ? -1 : 0;
}

/* --- batch kernels: the reference kernel's bytes for every lane --- */

/* A full group of 8 lanes plus 3 more (a 2- and a 1-lane group); short keys
 * that do not divide 256, common ones, and both limits. */
#define NKEYS 11
static const size_t lens[NKEYS] = { 256, 1, 5, 16, 3, 54, 107, 13, 200, 7, 40 };
/* Key 1 starts a byte ahead, so its group is out of step (lanes whose x
 * differ) while later groups are in step. */
#define AHEAD 1
/* Three batch calls, the first odd so the next starts mid-word, the last
 * long enough for the assembly lanes' 16-byte blocks in states of any
 * cell width (RC4K_SHORT), then the rest through a single-stream kernel
 * of the keys' layout. */
static const size_t parts[] = { 37, 3, 256 };
#define TOTAL 300

/* B against the reference kernel over an odd number of keys of several
 * lengths, in place and not, and its keys continued by the portable
 * kernel of its layout (family.h; serial runs the reference kernel). */
int rc4k_selftest_batch(const struct rc4k_info *info)
{
	const struct rc4k_batch *b = rc4k_batch(info);
	const struct rc4k *ref = &rc4k_char_ref;
	const struct rc4k_family *f = rc4k_family(info->width);
	const struct rc4k *single = f != NULL ? f->portable : ref;
	struct rc4k_state st[NKEYS], rs;
	struct rc4k_state *pst[NKEYS];
	uint8_t key[NKEYS][256], in[NKEYS][TOTAL], buf[NKEYS][TOTAL];
	uint8_t want[TOTAL];
	const uint8_t *pkey[NKEYS], *src[NKEYS], *pin[NKEYS];
	uint8_t *pout[NKEYS];
	size_t done[NKEYS];
	int bad = 0;

	for (size_t i = 0; i < NKEYS; i++) {
		for (size_t k = 0; k < lens[i]; k++)
			key[i][k] = (uint8_t)(i * 7 + k * 13 + 1);
		for (size_t k = 0; k < TOTAL; k++)
			in[i][k] = buf[i][k] = (uint8_t)(i + k * 3);
		/* odd keys in place, even keys from IN to BUF */
		src[i] = i & 1 ? buf[i] : in[i];
		pst[i] = &st[i];
		pkey[i] = key[i];
		done[i] = 0;
	}
	b->set_keys(single, pst, NKEYS, pkey, lens);
	single->crypt(&st[1], AHEAD, src[1], buf[1]);
	done[1] = AHEAD;
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
		for (size_t i = 0; i < NKEYS; i++) {
			pin[i] = src[i] + done[i];
			pout[i] = buf[i] + done[i];
			done[i] += parts[p];
		}
		b->crypt_many(single, pst, NKEYS, parts[p], pin, pout);
	}
	for (size_t i = 0; i < NKEYS; i++) {
		single->crypt(&st[i], TOTAL - done[i], src[i] + done[i],
			   buf[i] + done[i]);
		ref->set_key(&rs, key[i], lens[i]);
		ref->crypt(&rs, TOTAL, in[i], want);
		bad |= memcmp(buf[i], want, TOTAL) != 0;
	}
	return bad ? -1 : 0;
}
