/* batch_selftest.c - what a batch kernel must get right before it is timed
 * or used: the reference kernel's bytes for every lane. */
#include <string.h>
#include "batch.h"

/* A full group of 8 lanes plus 3 more (a 2- and a 1-lane group); short keys
 * that do not divide 256, common ones, and both limits. */
#define NKEYS 11
static const size_t lens[NKEYS] = { 256, 1, 5, 16, 3, 54, 107, 13, 200, 7, 40 };
/* Key 1 starts a byte ahead, so its group is out of step (lanes whose x
 * differ) while later groups are in step. */
#define AHEAD 1
/* Two batch calls, the first odd so the next starts mid-word, then the rest
 * through the companion single-stream kernel. */
static const size_t parts[] = { 37, 3 };
#define TOTAL 60

int rc4k_batch_selftest(const struct rc4k_batch *b)
{
	const struct rc4k *ref = rc4k_registry[0];
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
	b->set_keys(pst, NKEYS, pkey, lens);
	b->single->crypt(&st[1], AHEAD, src[1], buf[1]);
	done[1] = AHEAD;
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
		for (size_t i = 0; i < NKEYS; i++) {
			pin[i] = src[i] + done[i];
			pout[i] = buf[i] + done[i];
			done[i] += parts[p];
		}
		b->crypt_many(pst, NKEYS, parts[p], pin, pout);
	}
	for (size_t i = 0; i < NKEYS; i++) {
		b->single->crypt(&st[i], TOTAL - done[i], src[i] + done[i],
				 buf[i] + done[i]);
		ref->set_key(&rs, key[i], lens[i]);
		ref->crypt(&rs, TOTAL, in[i], want);
		bad |= memcmp(buf[i], want, TOTAL) != 0;
	}
	return bad ? -1 : 0;
}
