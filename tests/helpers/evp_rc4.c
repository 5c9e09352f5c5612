/* SPDX-License-Identifier: MIT */
/* evp_rc4.c - an ordinary OpenSSL 3 program that knows nothing of rc4tune:
 * RC4 through EVP_rc4() with the hex key in argv[1], standard input to
 * standard output.  On standard error it names the provider OpenSSL chose
 * (EVP_CIPHER_get0_provider), which is how test_provider.sh shows that a
 * configuration file alone switches it to rc4tune. */
#include <stdio.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/provider.h>

static int fail(const char *what)
{
	fprintf(stderr, "evp_rc4: %s\n", what);
	ERR_print_errors_fp(stderr);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned char key[256], in[65536], out[sizeof in];
	size_t keylen = 0, n;
	int outl;

	if (argc != 2 || strlen(argv[1]) % 2 != 0 ||
	    strlen(argv[1]) / 2 > sizeof key || strlen(argv[1]) == 0) {
		fprintf(stderr, "usage: evp_rc4 HEXKEY <in >out\n");
		return 2;
	}
	for (const char *p = argv[1]; *p != '\0'; p += 2) {
		unsigned int b;
		if (sscanf(p, "%2x", &b) != 1)
			return fail("bad hex key");
		key[keylen++] = (unsigned char)b;
	}

	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL ||
	    !EVP_EncryptInit_ex(ctx, EVP_rc4(), NULL, NULL, NULL) ||
	    !EVP_CIPHER_CTX_set_key_length(ctx, (int)keylen) ||
	    !EVP_EncryptInit_ex(ctx, NULL, NULL, key, NULL))
		return fail("cannot set up RC4");
	const OSSL_PROVIDER *prov =
		EVP_CIPHER_get0_provider(EVP_CIPHER_CTX_get0_cipher(ctx));
	fprintf(stderr, "provider: %s\n",
		prov != NULL ? OSSL_PROVIDER_get0_name(prov) : "(built in)");

	while ((n = fread(in, 1, sizeof in, stdin)) > 0) {
		if (!EVP_EncryptUpdate(ctx, out, &outl, in, (int)n))
			return fail("EVP_EncryptUpdate");
		if (fwrite(out, 1, (size_t)outl, stdout) != (size_t)outl)
			return fail("write error");
	}
	if (!EVP_EncryptFinal_ex(ctx, out, &outl))
		return fail("EVP_EncryptFinal_ex");
	EVP_CIPHER_CTX_free(ctx);
	return fflush(stdout) == 0 ? 0 : fail("write error");
}
