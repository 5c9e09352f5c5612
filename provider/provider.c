/* provider.c - rc4tune.so, an OpenSSL 3 provider module: RC4 and RC4-40
 * under the property "provider=rc4tune", through librc4tune's public API,
 * so that OpenSSL programs get the kernel the library selects (RC4TUNE_KERNEL,
 * then the config, then the CPUID rules) with no change to their code.
 * See rc4tune-provider(7).
 *
 * Written from provider(7), provider-base(7), provider-cipher(7) and
 * OSSL_PARAM(3).  Errors go to the core through the upcalls it hands to
 * OSSL_provider_init: the core's libcrypto may not be the one this module
 * links (a program with its own copy, static or not), so this module
 * imports nothing from libcrypto: its headers only, the core's upcalls,
 * and params.c for OSSL_PARAM. */
#include <config.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include "params.h"
#include "rc4tune.h"

/* Reason codes of this module's errors; texts in reasons[] below. */
enum {
	R_KEY_LENGTH = 1,
	R_NO_KEY,
	R_FINISHED,
	R_NULL_BUFFER,
	R_OUTPUT_TOO_SMALL,
	R_OVERLAP,
	R_IV,
	R_BAD_PARAM,
	R_TLS,
	R_NO_MEMORY,
};

static const OSSL_ITEM reasons[] = {
	{ R_KEY_LENGTH, "key length must be 1 to 256 bytes" },
	{ R_NO_KEY, "no key set" },
	{ R_FINISHED, "update after final" },
	{ R_NULL_BUFFER, "NULL buffer with a nonzero length" },
	{ R_OUTPUT_TOO_SMALL, "output buffer shorter than the input" },
	{ R_OVERLAP, "input and output overlap other than exactly" },
	{ R_IV, "RC4 takes no IV" },
	{ R_BAD_PARAM, "parameter of the wrong type or size" },
	{ R_TLS, "TLS record processing is not supported" },
	{ R_NO_MEMORY, "out of memory" },
	{ 0, NULL }
};

/* buildinfo names the kernel; one string per kernel this process has used,
 * kept until teardown, because the core hands out the pointer. */
struct info {
	struct info *next;
	const char *kernel;
	char text[];
};

/* One per load of the module (one per library context that loads it). */
struct prov {
	const OSSL_CORE_HANDLE *handle;
	OSSL_FUNC_core_new_error_fn *new_error;
	OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
	OSSL_FUNC_core_vset_error_fn *vset_error;
	pthread_mutex_t lock; /* guards infos */
	struct info *infos;
};

/* One cipher operation. */
struct ctx {
	rc4tune_key key;     /* first, for malloc's alignment */
	struct prov *prov;
	size_t keylen;       /* of the key set, else of the next one */
	unsigned int padding; /* accepted and reported, as for any cipher */
	int keyed;           /* a key was set: update may run */
	int finished;        /* final ran: update may not, until an init */
};

static void raise_error(const struct prov *p, const char *file, int line,
			const char *func, int reason, const char *fmt, ...)
{
	va_list ap;

	if (p == NULL || p->new_error == NULL || p->vset_error == NULL)
		return;
	p->new_error(p->handle);
	if (p->set_error_debug != NULL)
		p->set_error_debug(p->handle, file, line, func);
	va_start(ap, fmt);
	p->vset_error(p->handle, (uint32_t)reason, fmt, ap);
	va_end(ap);
}

#define RAISE(p, reason, ...) \
	raise_error((p), __FILE__, __LINE__, __func__, (reason), __VA_ARGS__)

/* --- the cipher ------------------------------------------------------- */

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

static void *rc4_newctx(void *provctx)
{
	return newctx(provctx, 16);
}

static void *rc4_40_newctx(void *provctx)
{
	return newctx(provctx, 5);
}

static void freectx(void *vctx)
{
	rc4tune_wipe(vctx); /* the key, first in struct ctx; NULL: nothing */
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

static int init(struct ctx *c, const unsigned char *key, size_t keylen,
		const unsigned char *iv, size_t ivlen,
		const OSSL_PARAM params[])
{
	if (c == NULL)
		return 0;
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

/* RC4 is its own inverse: one init for both directions. */
static int encrypt_init(void *vctx, const unsigned char *key, size_t keylen,
			const unsigned char *iv, size_t ivlen,
			const OSSL_PARAM params[])
{
	return init(vctx, key, keylen, iv, ivlen, params);
}

static int decrypt_init(void *vctx, const unsigned char *key, size_t keylen,
			const unsigned char *iv, size_t ivlen,
			const OSSL_PARAM params[])
{
	return init(vctx, key, keylen, iv, ivlen, params);
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

static int get_params(OSSL_PARAM params[], size_t keylen)
{
	OSSL_PARAM *p;

	/* a stream cipher, no flags: as OpenSSL's own RC4 reports */
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_MODE)) != NULL &&
	    !param_set_uint(p, EVP_CIPH_STREAM_CIPHER))
		return 0;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_KEYLEN)) != NULL &&
	    !param_set_size_t(p, keylen))
		return 0;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_IVLEN)) != NULL &&
	    !param_set_size_t(p, 0))
		return 0;
	if ((p = param_locate(params, OSSL_CIPHER_PARAM_BLOCK_SIZE)) != NULL &&
	    !param_set_size_t(p, 1))
		return 0;
	static const char *const zero[] = {
		OSSL_CIPHER_PARAM_AEAD, OSSL_CIPHER_PARAM_CUSTOM_IV,
		OSSL_CIPHER_PARAM_CTS, OSSL_CIPHER_PARAM_TLS1_MULTIBLOCK,
		OSSL_CIPHER_PARAM_HAS_RAND_KEY
	};
	for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
		if ((p = param_locate(params, zero[i])) != NULL &&
		    !param_set_int(p, 0))
			return 0;
	return 1;
}

static int rc4_get_params(OSSL_PARAM params[])
{
	return get_params(params, 16);
}

static int rc4_40_get_params(OSSL_PARAM params[])
{
	return get_params(params, 5);
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

/* The two algorithms differ only in their default key length. */
#define CIPHER_FUNCTIONS(prefix)                                              \
	{ OSSL_FUNC_CIPHER_NEWCTX, (void (*)(void))prefix##_newctx },         \
	{ OSSL_FUNC_CIPHER_GET_PARAMS, (void (*)(void))prefix##_get_params }, \
	{ OSSL_FUNC_CIPHER_FREECTX, (void (*)(void))freectx },                \
	{ OSSL_FUNC_CIPHER_DUPCTX, (void (*)(void))dupctx },                  \
	{ OSSL_FUNC_CIPHER_ENCRYPT_INIT, (void (*)(void))encrypt_init },      \
	{ OSSL_FUNC_CIPHER_DECRYPT_INIT, (void (*)(void))decrypt_init },      \
	{ OSSL_FUNC_CIPHER_UPDATE, (void (*)(void))update },                  \
	{ OSSL_FUNC_CIPHER_FINAL, (void (*)(void))final },                    \
	{ OSSL_FUNC_CIPHER_CIPHER, (void (*)(void))update },                  \
	{ OSSL_FUNC_CIPHER_GETTABLE_PARAMS, (void (*)(void))gettable_params }, \
	{ OSSL_FUNC_CIPHER_GET_CTX_PARAMS, (void (*)(void))get_ctx_params },  \
	{ OSSL_FUNC_CIPHER_SET_CTX_PARAMS, (void (*)(void))set_ctx_params },  \
	{ OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS,                                \
	  (void (*)(void))gettable_ctx_params },                              \
	{ OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS,                                \
	  (void (*)(void))settable_ctx_params },                              \
	{ 0, NULL }

static const OSSL_DISPATCH rc4_functions[] = { CIPHER_FUNCTIONS(rc4) };
static const OSSL_DISPATCH rc4_40_functions[] = { CIPHER_FUNCTIONS(rc4_40) };

/* Names as OpenSSL's: RC4 with its OID (PKCS #5's rc4), and RC4-40. */
static const OSSL_ALGORITHM ciphers[] = {
	{ "RC4:1.2.840.113549.3.4", "provider=rc4tune", rc4_functions,
	  "RC4 by librc4tune, the kernel measured fastest on this machine" },
	{ "RC4-40", "provider=rc4tune", rc4_40_functions,
	  "RC4 with a 40-bit key by librc4tune" },
	{ NULL, NULL, NULL, NULL }
};

/* --- the provider ----------------------------------------------------- */

#define PARAM_KERNEL "rc4tune-kernel"

static const OSSL_PARAM prov_gettable[] = {
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
	OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
	OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
	OSSL_PARAM_utf8_ptr(PARAM_KERNEL, NULL, 0),
	OSSL_PARAM_END
};

static const OSSL_PARAM *prov_gettable_params(void *provctx)
{
	(void)provctx;
	return prov_gettable;
}

/* "rc4tune VERSION, kernel NAME", for the kernel new keys use now. */
static const char *buildinfo(struct prov *p, const char *kernel)
{
	static const char fmt[] = "rc4tune %s, kernel %s";
	struct info *i;

	pthread_mutex_lock(&p->lock);
	for (i = p->infos; i != NULL; i = i->next)
		if (i->kernel == kernel)
			break;
	if (i == NULL) {
		size_t n = sizeof fmt + strlen(PACKAGE_VERSION) + strlen(kernel);
		i = malloc(sizeof *i + n);
		if (i != NULL) {
			i->kernel = kernel;
			snprintf(i->text, n, fmt, PACKAGE_VERSION, kernel);
			i->next = p->infos;
			p->infos = i;
		}
	}
	pthread_mutex_unlock(&p->lock);
	return i != NULL ? i->text : "rc4tune " PACKAGE_VERSION;
}

static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
	struct prov *prov = provctx;
	OSSL_PARAM *p;

	if ((p = param_locate(params, OSSL_PROV_PARAM_NAME)) != NULL &&
	    !param_set_utf8_ptr(p, "rc4tune: RC4 by librc4tune"))
		return 0;
	if ((p = param_locate(params, OSSL_PROV_PARAM_VERSION)) != NULL &&
	    !param_set_utf8_ptr(p, PACKAGE_VERSION))
		return 0;
	if ((p = param_locate(params, OSSL_PROV_PARAM_STATUS)) != NULL &&
	    !param_set_int(p, 1))
		return 0;
	/* The library selects at its first use; asking for the kernel is one. */
	p = param_locate(params, OSSL_PROV_PARAM_BUILDINFO);
	if (p != NULL &&
	    !param_set_utf8_ptr(p, buildinfo(prov, rc4tune_kernel_name())))
		return 0;
	if ((p = param_locate(params, PARAM_KERNEL)) != NULL &&
	    !param_set_utf8_ptr(p, rc4tune_kernel_name()))
		return 0;
	return 1;
}

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id,
					     int *no_store)
{
	(void)provctx;
	*no_store = 0;
	return operation_id == OSSL_OP_CIPHER ? ciphers : NULL;
}

static const OSSL_ITEM *get_reason_strings(void *provctx)
{
	(void)provctx;
	return reasons;
}

static void teardown(void *provctx)
{
	struct prov *p = provctx;

	if (p == NULL)
		return;
	while (p->infos != NULL) {
		struct info *i = p->infos;
		p->infos = i->next;
		free(i);
	}
	pthread_mutex_destroy(&p->lock);
	free(p);
}

static const OSSL_DISPATCH provider_functions[] = {
	{ OSSL_FUNC_PROVIDER_TEARDOWN, (void (*)(void))teardown },
	{ OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (void (*)(void))prov_gettable_params },
	{ OSSL_FUNC_PROVIDER_GET_PARAMS, (void (*)(void))prov_get_params },
	{ OSSL_FUNC_PROVIDER_QUERY_OPERATION, (void (*)(void))query_operation },
	{ OSSL_FUNC_PROVIDER_GET_REASON_STRINGS, (void (*)(void))get_reason_strings },
	{ 0, NULL }
};

/* The module's one exported symbol. */
__attribute__((visibility("default")))
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
		       const OSSL_DISPATCH **out, void **provctx)
{
	struct prov *p = calloc(1, sizeof *p);

	if (p == NULL)
		return 0;
	p->handle = handle;
	for (; in != NULL && in->function_id != 0; in++) {
		switch (in->function_id) {
		case OSSL_FUNC_CORE_NEW_ERROR:
			p->new_error = OSSL_FUNC_core_new_error(in);
			break;
		case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
			p->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
			break;
		case OSSL_FUNC_CORE_VSET_ERROR:
			p->vset_error = OSSL_FUNC_core_vset_error(in);
			break;
		}
	}
	if (pthread_mutex_init(&p->lock, NULL) != 0) {
		free(p);
		return 0;
	}
	*out = provider_functions;
	*provctx = p;
	return 1;
}
