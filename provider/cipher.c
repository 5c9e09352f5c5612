/* SPDX-License-Identifier: MIT */
/* cipher.c - the provider's cipher: RC4 through librc4tune's public API,
 * as provider-cipher(7) describes a cipher's functions.  The algorithms
 * differ only in their default key length; each is one line of
 * RC4TUNE_CIPHERS (provider.h), from which CIPHER below makes its
 * functions. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "params.h"
#include "provider.h"
#include "rc4tune.h"

/* One cipher operation. */
struct ctx {
	rc4tune_key key;     /* first, for malloc's alignment */
	struct prov *prov;
	size_t keylen;       /* of the key set, else of the next one */
	unsigned int padding; /* accepted and reported, as for any cipher */
	int keyed;           /* a key was set: update may run */
	int finished;        /* final ran: update may not, until an init */
};

static void *newctx(void *provctx, size_t keylen)
{
	struct prov *p = provctx;
	struct ctx *c = calloc(1, sizeof *c);

	if (c == NULL) {
		RAISE(p, R_NO_MEMORY, NULL);
		return NULL;
	}
	c->prov = p;
	c->keylen = keylen;
	c->padding = 1;
	return c;
}

/* The whole context, its key with the rest, before free has it. */
static void freectx(void *vctx)
{
	if (vctx == NULL)
		return;
	explicit_bzero(vctx, sizeof(struct ctx));
	free(vctx);
}

/* A copy continues the stream where the original stands: rc4tune_key
 * holds the state and the kernel's identity, and no pointer into itself. */
static void *dupctx(void *vctx)
{
	struct ctx *src = vctx, *c;

	if (src == NULL)
		return NULL;
	c = malloc(sizeof *c);
	if (c == NULL) {
		RAISE(src->prov, R_NO_MEMORY, NULL);
		return NULL;
	}
	memcpy(c, src, sizeof *c);
	return c;
}

static int set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
	struct ctx *c = vctx;
	const OSSL_PARAM *p;

	if (c == NULL)
		return 0;
	if (params == NULL)
		return 1;
	p = param_locate_const(params, OSSL_CIPHER_PARAM_KEYLEN);
	if (p != NULL) {
		size_t n;
		if (!param_get_size_t(p, &n)) {
			RAISE(c->prov, R_BAD_PARAM, "%s", p->key);
			return 0;
		}
		if (n < 1 || n > 256) {
			RAISE(c->prov, R_KEY_LENGTH, "keylen %lu", (unsigned long)n);
			return 0;
		}
		c->keylen = n;
	}
	p = param_locate_const(params, OSSL_CIPHER_PARAM_PADDING);
	if (p != NULL && !param_get_uint(p, &c->padding)) {
		RAISE(c->prov, R_BAD_PARAM, "%s", p->key);
		return 0;
	}
	/* libssl hands record processing (MAC removal) to a provider's stream
	 * cipher through these; without them it would get records unchecked,
	 * so refuse: a TLS RC4 suite fails at the handshake instead. */
	p = param_locate_const(params, OSSL_CIPHER_PARAM_TLS_VERSION);
	if (p == NULL)
		p = param_locate_const(params, OSSL_CIPHER_PARAM_TLS_MAC_SIZE);
	if (p != NULL) {
		RAISE(c->prov, R_TLS, "%s", p->key);
		return 0;
	}
	return 1;
}

/* RC4 is its own inverse: this is both encrypt_init and decrypt_init. */
static int init(void *vctx, const unsigned char *key, size_t keylen,
		const unsigned char *iv, size_t ivlen,
		const OSSL_PARAM params[])
{
	struct ctx *c = vctx;

	if (c == NULL)
		return 0;
	/* EVP passes a caller's IV with the cipher's IV length, 0, as
	 * `openssl enc -rc4` passes its unused IV buffer: the two look alike,
	 * so only a nonzero length is refused, and an IV is ignored. */
	if (iv != NULL && ivlen != 0) {
		RAISE(c->prov, R_IV, "ivlen %lu", (unsigned long)ivlen);
		return 0;
	}
	if (key != NULL) {
		/* a failed init leaves no key behind to continue with, and a
		 * new key none of the old one's state (set_key writes only
		 * what its kernel uses, an -ahead- kernel's keystream not) */
		c->keyed = 0;
		rc4tune_wipe(&c->key);
		if (keylen < 1 || keylen > 256) {
			RAISE(c->prov, R_KEY_LENGTH, "keylen %lu",
			      (unsigned long)keylen);
			return 0;
		}
		if (rc4tune_set_key(&c->key, key, keylen) != 0) {
			RAISE(c->prov, R_KEY_LENGTH, "keylen %lu",
			      (unsigned long)keylen);
			return 0;
		}
		c->keylen = keylen;
		c->keyed = 1;
	}
	/* Without a key the stream continues where it stands, as with
	 * OpenSSL's own RC4: there is no IV to restart from. */
	c->finished = 0;
	return set_ctx_params(c, params);
}

/* What update and final need first: a context, somewhere to say how much
 * was written (nothing yet), and a key. */
static int keyed(struct ctx *c, size_t *outl)
{
	if (c == NULL)
		return 0;
	if (outl == NULL) {
		RAISE(c->prov, R_NULL_BUFFER, "outl");
		return 0;
	}
	*outl = 0;
	if (!c->keyed) {
		RAISE(c->prov, R_NO_KEY, NULL);
		return 0;
	}
	return 1;
}

/* update and the one-shot cipher: the next INL keystream bytes over IN. */
static int update(void *vctx, unsigned char *out, size_t *outl,
		  size_t outsize, const unsigned char *in, size_t inl)
{
	struct ctx *c = vctx;

	if (!keyed(c, outl))
		return 0;
	if (c->finished) {
		RAISE(c->prov, R_FINISHED, NULL);
		return 0;
	}
	if (inl == 0)
		return 1;
	if (in == NULL || out == NULL) {
		RAISE(c->prov, R_NULL_BUFFER, "%s, %lu bytes",
		      in == NULL ? "in" : "out", (unsigned long)inl);
		return 0;
	}
	if (outsize < inl) {
		RAISE(c->prov, R_OUTPUT_TOO_SMALL, "%lu bytes for %lu",
		      (unsigned long)outsize, (unsigned long)inl);
		return 0;
	}
	uintptr_t i = (uintptr_t)in, o = (uintptr_t)out;
	if (i != o && i < o + inl && o < i + inl) {
		RAISE(c->prov, R_OVERLAP, NULL);
		return 0;
	}
	rc4tune_crypt(&c->key, inl, in, out);
	*outl = inl;
	return 1;
}

static int final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
	struct ctx *c = vctx;

	(void)out;
	(void)outsize;
	if (!keyed(c, outl))
		return 0;
	c->finished = 1;
	return 1;
}

/* The algorithm's parameters; KEYLEN is the one that tells them apart.
 * All are integers that params.c writes at whatever width and signedness
 * the caller asks for, so one table of values serves. */
static int get_params(OSSL_PARAM params[], size_t keylen)
{
	/* a stream cipher, no flags: as OpenSSL's own RC4 reports */
	const struct { const char *key; size_t value; } values[] = {
		{ OSSL_CIPHER_PARAM_MODE, EVP_CIPH_STREAM_CIPHER },
		{ OSSL_CIPHER_PARAM_KEYLEN, keylen },
		{ OSSL_CIPHER_PARAM_IVLEN, 0 },
		{ OSSL_CIPHER_PARAM_BLOCK_SIZE, 1 },
		{ OSSL_CIPHER_PARAM_AEAD, 0 },
		{ OSSL_CIPHER_PARAM_CUSTOM_IV, 0 },
		{ OSSL_CIPHER_PARAM_CTS, 0 },
		{ OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, 0 },
		{ OSSL_CIPHER_PARAM_HAS_RAND_KEY, 0 },
	};
	OSSL_PARAM *p;

	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
		if ((p = param_locate(params, values[i].key)) != NULL &&
		    !param_set_size_t(p, values[i].value))
			return 0;
	return 1;
}

static const OSSL_PARAM gettable[] = {
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_MODE, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_BLOCK_SIZE, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_AEAD, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CUSTOM_IV, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_CTS, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK, NULL),
	OSSL_PARAM_int(OSSL_CIPHER_PARAM_HAS_RAND_KEY, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *gettable_params(void *provctx)
{
	(void)provctx;
	return gettable;
}

static int get_ctx_params(void *vctx, OSSL_PARAM params[])
{
	struct ctx *c = vctx;
	OSSL_PARAM *p;

	if (c == NULL)
		return 0;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL &&
	    !param_set_size_t(p, c->keylen))
		goto bad;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL &&
	    !param_set_size_t(p, 0))
		goto bad;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_PADDING)) != NULL &&
	    !param_set_uint(p, c->padding))
		goto bad;
	return 1;
bad:
	RAISE(c->prov, R_BAD_PARAM, "%s", p->key);
	return 0;
}

static const OSSL_PARAM gettable_ctx[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_IVLEN, NULL),
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM settable_ctx[] = {
	OSSL_PARAM_size_t(OSSL_CIPHER_PARAM_KEYLEN, NULL),
	OSSL_PARAM_uint(OSSL_CIPHER_PARAM_PADDING, NULL),
	OSSL_PARAM_END
};

static const OSSL_PARAM *gettable_ctx_params(void *vctx, void *provctx)
{
	(void)vctx;
	(void)provctx;
	return gettable_ctx;
}

static const OSSL_PARAM *settable_ctx_params(void *vctx, void *provctx)
{
	(void)vctx;
	(void)provctx;
	return settable_ctx;
}

#define FN(id, fn) { OSSL_FUNC_CIPHER_##id, (void (*)(void))(fn) }

/* One algorithm from its line of RC4TUNE_CIPHERS: the core's newctx and
 * get_params carry no key length, so each algorithm has its own two, which
 * pass BITS / 8 to the shared ones, and its dispatch table. */
#define CIPHER(name, bits, names, description)                                \
	_Static_assert((bits) % 8 == 0 && (bits) >= 8 && (bits) <= 2048,     \
		       #name ": a key is 1 to 256 whole bytes");              \
	static void *name##_newctx(void *provctx)                             \
	{                                                                     \
		return newctx(provctx, (bits) / 8);                           \
	}                                                                     \
	static int name##_get_params(OSSL_PARAM params[])                     \
	{                                                                     \
		return get_params(params, (bits) / 8);                        \
	}                                                                     \
	const OSSL_DISPATCH name##_functions[] = {                            \
		FN(NEWCTX, name##_newctx), FN(GET_PARAMS, name##_get_params), \
		FN(FREECTX, freectx), FN(DUPCTX, dupctx),                     \
		FN(ENCRYPT_INIT, init), FN(DECRYPT_INIT, init),               \
		FN(UPDATE, update), FN(FINAL, final), FN(CIPHER, update),     \
		FN(GETTABLE_PARAMS, gettable_params),                         \
		FN(GET_CTX_PARAMS, get_ctx_params),                           \
		FN(SET_CTX_PARAMS, set_ctx_params),                           \
		FN(GETTABLE_CTX_PARAMS, gettable_ctx_params),                 \
		FN(SETTABLE_CTX_PARAMS, settable_ctx_params),                 \
		{ 0, NULL }                                                   \
	};

RC4TUNE_CIPHERS(CIPHER)
