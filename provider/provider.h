/* SPDX-License-Identifier: MIT */
/* provider.h - what the provider's two halves share: provider.c (the entry
 * point, the errors, the algorithm table) and cipher.c (the cipher). */
#ifndef RC4TUNE_PROVIDER_H
#define RC4TUNE_PROVIDER_H

#include <openssl/core.h>
#include <openssl/core_dispatch.h>

/* The provider's context, one per load of the module; the cipher keeps a
 * pointer to it for its errors and looks at nothing inside. */
struct prov;

/* Reason codes of this module's errors; texts in provider.c. */
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

/* An error to the core's queue through its upcalls, with the place it was
 * raised; FMT (printf's, or NULL) details the reason. */
void prov_raise_error(const struct prov *p, const char *file, int line,
		      const char *func, int reason, const char *fmt, ...);

#define RAISE(p, reason, ...) \
	prov_raise_error((p), __FILE__, __LINE__, __func__, (reason), __VA_ARGS__)

/* The algorithms, one line each: the name in code, the default key length
 * in bits, OpenSSL's names for it (RC4 with its OID, PKCS #5's rc4) and its
 * description.  cipher.c makes each one's functions from its line
 * (NAME_functions), provider.c its entry in the algorithm table. */
#define RC4TUNE_CIPHERS(X) \
	X(rc4, 128, "RC4:1.2.840.113549.3.4", "RC4 by librc4tune, the kernel measured fastest on this machine") \
	X(rc4_40, 40, "RC4-40", "RC4 with a 40-bit key by librc4tune")

#define RC4TUNE_DECLARE_CIPHER(name, bits, names, description) \
	extern const OSSL_DISPATCH name##_functions[];
RC4TUNE_CIPHERS(RC4TUNE_DECLARE_CIPHER)
#undef RC4TUNE_DECLARE_CIPHER

#endif
