/* key.c - the key API: set up a key with the current kernel, then crypt
 * with the kernel that key remembers. */
#include <config.h>

#include <errno.h>
#include "rc4tune.h"
#include "select.h"

_Static_assert(sizeof(struct rc4k_state) <= sizeof(((rc4tune_key *)0)->state),
	       "rc4tune_key too small for the widest kernel state");
_Static_assert(_Alignof(struct rc4k_state) <= _Alignof(rc4tune_key),
	       "rc4tune_key under-aligned for the kernel state");

static struct rc4k_state *state_of(rc4tune_key *key)
{
	return (struct rc4k_state *)(void *)key->state.bytes;
}

int rc4tune_set_key(rc4tune_key *key, const void *data, size_t len)
{
	if (key == NULL || data == NULL || len < 1 || len > 256) {
		errno = EINVAL;
		return -1;
	}
	const struct rc4k *k = rc4_current();
	k->set_key(state_of(key), data, len);
	key->kernel = k;
	return 0;
}

void rc4tune_crypt(rc4tune_key *key, size_t len, const void *in, void *out)
{
	const struct rc4k *k = key->kernel;
	k->crypt(state_of(key), len, in, out);
}
