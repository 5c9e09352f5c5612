/* SPDX-License-Identifier: MIT */
/* provider.c - rc4tune.so, an OpenSSL 3 provider module: RC4 and RC4-40
 * under the property "provider=rc4tune", through librc4tune's public API,
 * so that OpenSSL programs get the kernel the library selects (RC4TUNE_KERNEL,
 * then the config, then the CPUID rules) with no change to their code.
 * See rc4tune-provider(7).  This file is the module's entry point, its
 * errors and its algorithm table; the cipher is cipher.c.
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
#include <openssl/core_names.h>
#include <openssl/params.h>
#include "params.h"
#include "provider.h"
#include "rc4tune.h"

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

/* --- the errors ------------------------------------------------------- */

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

static const OSSL_ITEM *get_reason_strings(void *provctx)
{
	(void)provctx;
	return reasons;
}

void prov_raise_error(const struct prov *p, const char *file, int line,
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

/* --- the algorithm table ---------------------------------------------- */

#define ALGORITHM(name, bits, names, description) \
	{ names, "provider=rc4tune", name##_functions, description },

static const OSSL_ALGORITHM ciphers[] = {
	RC4TUNE_CIPHERS(ALGORITHM)
	{ NULL, NULL, NULL, NULL }
};

static const OSSL_ALGORITHM *query_operation(void *provctx, int operation_id,
					     int *no_store)
{
	(void)provctx;
	*no_store = 0;
	return operation_id == OSSL_OP_CIPHER ? ciphers : NULL;
}

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

/* Each parameter asked for, or 0 and the error naming the first that
 * cannot take its value. */
static int prov_get_params(void *provctx, OSSL_PARAM params[])
{
	struct prov *prov = provctx;

	for (OSSL_PARAM *p = params; p != NULL && p->key != NULL; p++) {
		int ok = 1;
		if (strcmp(p->key, OSSL_PROV_PARAM_NAME) == 0)
			ok = param_set_utf8_ptr(p, "rc4tune: RC4 by librc4tune");
		else if (strcmp(p->key, OSSL_PROV_PARAM_VERSION) == 0)
			ok = param_set_utf8_ptr(p, PACKAGE_VERSION);
		else if (strcmp(p->key, OSSL_PROV_PARAM_STATUS) == 0)
			ok = param_set_int(p, 1);
		/* the library selects at its first use: asking for the
		 * kernel is one */
		else if (strcmp(p->key, OSSL_PROV_PARAM_BUILDINFO) == 0)
			ok = param_set_utf8_ptr(
				p, buildinfo(prov, rc4tune_kernel_name()));
		else if (strcmp(p->key, PARAM_KERNEL) == 0)
			ok = param_set_utf8_ptr(p, rc4tune_kernel_name());
		if (!ok) {
			RAISE(prov, R_BAD_PARAM, "%s", p->key);
			return 0;
		}
	}
	return 1;
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
