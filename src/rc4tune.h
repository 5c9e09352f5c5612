/* SPDX-License-Identifier: MIT */
/* rc4tune.h - RC4 with the kernel measured fastest on this machine.
 *
 * Link with `pkg-config --cflags --libs librc4tune`.  See librc4tune(3). */
#ifndef RC4TUNE_H
#define RC4TUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RC4TUNE_API __attribute__((visibility("default")))
#else
#define RC4TUNE_API
#endif

/* Big enough for the widest state (256 64-bit entries) plus the indices.
 * Caller-allocated; its contents are private to the library.  A key may be
 * copied: the copy continues the same stream, apart from the original. */
typedef struct rc4tune_key {
	const void *kernel; /* the kernel that set this key up */
	union {
		uint64_t align;
		unsigned char bytes[16 + 256 * 8];
	} state;
} rc4tune_key;

/* Set up KEY from LEN (1..256) bytes of DATA with the current kernel.
 * Returns 0, or -1 with errno = EINVAL. */
RC4TUNE_API int rc4tune_set_key(rc4tune_key *key, const void *data, size_t len);

/* XOR LEN keystream bytes into IN, writing OUT.  IN == OUT is allowed, any
 * alignment; a stream split over several calls equals one call.  LEN 0
 * does nothing; a NULL pointer or a zeroed key: nothing, errno = EINVAL. */
RC4TUNE_API void rc4tune_crypt(rc4tune_key *key, size_t len, const void *in,
			       void *out);

/* Clear KEY, set up by either kind of call: its state, its indices and
 * any keystream its kernel made ahead, with stores the compiler cannot
 * drop.  KEY is then a zeroed key: rc4tune_crypt on it does nothing and
 * sets EINVAL until rc4tune_set_key.  NULL: nothing. */
RC4TUNE_API void rc4tune_wipe(rc4tune_key *key);

/* The kernel that new keys will use (selected at first use). */
RC4TUNE_API const char *rc4tune_kernel_name(void);

/* Make new keys in this process use kernel NAME.  Returns 0, or -1 with
 * errno = EINVAL (NULL), ENOENT (unknown name) or ENOTSUP (this CPU cannot
 * run it, or it failed its self-test).  Keys already set up keep their own
 * kernel. */
RC4TUNE_API int rc4tune_use_kernel(const char *name);

/* The kernels this build compiled, in registry order, for I = 0, 1, ...
 * Returns NULL past the last one.  *SUMMARY (if not NULL) gets a one-line
 * description, *USABLE (if not NULL) whether this CPU can run it. */
RC4TUNE_API const char *rc4tune_kernel_info(size_t i, const char **summary,
					    int *usable);

/* --- Many keys at once (password recovery, servers with many streams).
 * Each call gives the same bytes as N separate single-key calls; the keys
 * must be N distinct objects. */

/* Set up KEYS[i] from LEN[i] (1..256) bytes of DATA[i], for i < N, with the
 * batch kernel chosen for this call (config key set_keys_kernel).  Returns 0, or -1 with errno = EINVAL if any key is
 * invalid; then no key was touched. */
RC4TUNE_API int rc4tune_set_keys(rc4tune_key *keys, size_t n,
				 const void *const *data, const size_t *len);

/* XOR LEN keystream bytes of each of N streams: IN[i] into OUT[i] with
 * KEYS[i], with the batch kernel chosen for this call (config key
 * crypt_many_kernel).  IN[i] == OUT[i] is allowed, other overlaps are
 * not.  Keys set up by any kernel may be mixed; each continues its own
 * stream (keys of another state layout than the kernel's, one by one).  N or LEN
 * 0 does nothing; a NULL pointer or a zeroed key among them: nothing at
 * all, errno = EINVAL. */
RC4TUNE_API void rc4tune_crypt_many(rc4tune_key *keys, size_t n, size_t len,
				    const void *const *in, void *const *out);

/* Discard the next N keystream bytes of KEY (RC4-drop[N]).  A NULL or
 * zeroed key: nothing, errno = EINVAL. */
RC4TUNE_API void rc4tune_skip(rc4tune_key *key, size_t n);

/* The batch kernel that rc4tune_crypt_many uses (selected at first use,
 * as rc4tune_kernel_name's); rc4tune_set_keys has a choice of its own,
 * which rc4tune --explain shows. */
RC4TUNE_API const char *rc4tune_batch_kernel_name(void);

/* Make both batch calls in this process use batch kernel NAME.  Returns
 * 0, or -1 with errno = EINVAL, ENOENT or ENOTSUP, as rc4tune_use_kernel
 * (then neither changed). */
RC4TUNE_API int rc4tune_use_batch_kernel(const char *name);

/* The batch kernels this build compiled, as rc4tune_kernel_info lists the
 * single-stream ones. */
RC4TUNE_API const char *rc4tune_batch_kernel_info(size_t i,
						  const char **summary,
						  int *usable);

#ifdef __cplusplus
}
#endif
#endif
