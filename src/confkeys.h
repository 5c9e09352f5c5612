/* SPDX-License-Identifier: MIT */
/* confkeys.h - every key a config section can hold, in one table, and the
 * one judgement of a section's keys (rc4_keys_judge).  The selection, the
 * tuner's checks, merge and record all go through them: none of them
 * names a key of its own. */
#ifndef RC4_CONFKEYS_H
#define RC4_CONFKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include "inibuild.h"
#include "kernels/kernel.h"

/* The keys, in the table's order.  The first RC4K_KINDS are each kind's
 * own kernel key, in enum rc4k_kind's order. */
enum rc4_key {
	RC4_KEY_KERNEL,       /* kernel: rc4tune_set_key, rc4tune_crypt */
	RC4_KEY_SET_KEYS,     /* set_keys_kernel */
	RC4_KEY_CRYPT_MANY,   /* crypt_many_kernel */
	RC4_KEY_BATCH,        /* batch_kernel: both batch calls */
	RC4_KEY_SHORT_KERNEL, /* short_kernel: the kernel's short calls */
	RC4_KEY_SHORT_BELOW,  /* short_below: what "short" is, in bytes */
	RC4_KEYS,
	RC4_KEY_NONE = -1
};

/* What a key's value is. */
enum rc4_key_role {
	RC4_ROLE_KERNEL, /* the kernel of the kinds in KINDS */
	/* the kernel of each kind in KINDS whose own key the section does
	 * not set (batch_kernel, the earlier version's shared key) */
	RC4_ROLE_STAND_IN,
	RC4_ROLE_SHORT, /* the short kernel of the section's kernel */
	RC4_ROLE_BYTES, /* a number of bytes, 1 to RC4_CONF_SHORT_MAX */
};

/* One key's row. */
struct rc4_key_info {
	const char *name; /* as in the file */
	enum rc4_key_role role;
	unsigned kinds; /* bit 1 << kind for each kind it serves */
	/* The key it is void without in the same section (the section's own
	 * kernel, for a split), or RC4_KEY_NONE. */
	enum rc4_key needs;
	/* The key that must come with it, or RC4_KEY_NONE. */
	enum rc4_key pair;
};

extern const struct rc4_key_info rc4_keys[RC4_KEYS];

/* The key named NAME, or RC4_KEY_NONE. */
enum rc4_key rc4_key_named(const char *name);

/* The next kind, from FROM on, that key K names a kernel of, or
 * RC4K_KINDS. */
int rc4_key_next_kind(enum rc4_key k, int from);

/* The key that stands in for KIND's own where that is not set
 * (batch_kernel), or RC4_KEY_NONE. */
enum rc4_key rc4_key_stand_in(enum rc4k_kind kind);

/* short_below's largest value, 1 GiB as a number messages can say:
 * longer calls are bulk, where one kernel serves (and a size_t of every
 * target holds it). */
#define RC4_CONF_SHORT_MAX 1073741824

/* VALUE as short_below: decimal digits only, 1 to RC4_CONF_SHORT_MAX,
 * into *BYTES; 0, or -1 when it is not such a number. */
int rc4_conf_bytes(const char *value, size_t *bytes);

/* One key's value in a section: the last line that sets it ("" and line
 * 0 when none does). */
struct rc4_conf_value {
	char name[RC4_CONF_MAX_LINE + 1];
	int line;
};

/* The key of V that KIND's kernel is read from: its own, or where that is
 * not set and one standing in for it is, that one. */
enum rc4_key rc4_key_read(const struct rc4_conf_value v[RC4_KEYS],
			  enum rc4k_kind kind);

/* A size split (rc4tune.conf(5), short_kernel): calls shorter than BELOW
 * on a key LONG_KERNEL set up run SHORT_KERNEL, of its family, on the
 * same state.  BELOW 0: no split. */
struct rc4_split {
	const struct rc4k *long_kernel, *short_kernel;
	size_t below;
	int line; /* the config line of short_kernel, 0 if none */
};

/* How a kernel name is looked up (rc4k_find; tests add broken kernels). */
typedef const struct rc4k_info *rc4_find_fn(enum rc4k_kind kind,
					    const char *name);

/* How a section is judged. */
struct rc4_keys_how {
	/* This CPU's: a kernel must run here and pass its self-test.  Not
	 * (another CPU's section): this build must know it. */
	bool here;
	/* The single-stream kernel whose keys the batch kinds run; NULL: the
	 * section's own kernel, if it names one this build knows. */
	const struct rc4k *single;
	rc4_find_fn *find; /* NULL: rc4k_find */
};

/* What a section gives each kind of call, as the library takes it. */
struct rc4_keys_use {
	const struct rc4k_info *k[RC4K_KINDS]; /* NULL: nothing */
	enum rc4_key from[RC4K_KINDS];         /* the key that gave it */
	struct rc4_split split;                /* below 0: none */
	/* Each key set and passed over: its line and why; line 0: used, or
	 * not set.  A kernel this build does not know has why NULL. */
	struct rc4_key_bad {
		int line;
		const char *why;
	} bad[RC4_KEYS];
};

/* The section whose keys are V, judged HOW, into U. */
void rc4_keys_judge(const struct rc4_conf_value v[RC4_KEYS],
		    const struct rc4_keys_how *how, struct rc4_keys_use *u);

/* The kernel of KIND named NAME as a section may name it: known to FIND
 * (NULL: rc4k_find); if HERE, not refused (rc4k_refused); for a batch
 * kind, of ONE's family if ONE.  Else NULL, and *WHY (may be NULL) says
 * why: NULL when there is no such kernel. */
const struct rc4k_info *rc4_key_kernel(enum rc4k_kind kind, const char *name,
				       const struct rc4k *one, bool here,
				       rc4_find_fn *find, const char **why);

#endif
