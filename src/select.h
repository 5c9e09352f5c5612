/* select.h - the library's current kernel, chosen once at first use. */
#ifndef RC4_SELECT_H
#define RC4_SELECT_H

#include <stddef.h>
#include "cpu.h"
#include "kernels/kernel.h"

/* The kernel new keys use; the first call in a process runs the selection. */
const struct rc4k *rc4_current(void);

/* What the selection looks at: the live values (rc4_select_live) or, in
 * tests, fixtures. */
struct rc4_select_in {
	const char *kernel;        /* RC4TUNE_KERNEL, or NULL */
	const char *conf;          /* the config file's path */
	const struct rc4_cpu *cpu; /* NULL: not identified ... */
	const char *cpu_why;       /* ... and why */
	/* Looks a kernel name up (rc4k_find; tests add broken kernels). */
	const struct rc4k *(*find)(const char *name);
};

/* Fill IN from the environment (secure_getenv) and CPUID, with CPU as the
 * storage for the CPU's identity. */
void rc4_select_live(struct rc4_select_in *in, struct rc4_cpu *cpu);

/* Env > this CPU's config section > [default] > heuristic > portable
 * default: the first step whose kernel is known, usable here and passes
 * its self-test.  Never NULL.  If TRAIL is not NULL it gets one line per
 * step taken, saying why (cut to SIZE). */
const struct rc4k *rc4_select(const struct rc4_select_in *in, char *trail,
			      size_t size);

/* Whether K may run here: usable on this CPU and its self-test passed
 * (run at most once per kernel per process).  Returns NULL, or why not. */
const char *rc4_kernel_refused(const struct rc4k *k);

/* The batch kernel (kernels/batch.h) that rc4tune_set_keys and
 * rc4tune_crypt_many use; chosen at first use, as rc4_current. */
struct rc4k_batch;
const struct rc4k_batch *rc4_batch_current(void);

/* This CPU's config section > [default] (key batch_kernel) > the default
 * batch kernel, skipping unknown, unusable or failing ones; the trail as
 * rc4_select's, each line starting with "batch". */
const struct rc4k_batch *rc4_select_batch(const struct rc4_select_in *in,
					  char *trail, size_t size);

/* Whether batch kernel B may run here: NULL, or why not. */
const char *rc4_batch_refused(const struct rc4k_batch *b);

#endif
