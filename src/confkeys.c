/* SPDX-License-Identifier: MIT */
/* confkeys.c - the keys a config section can hold, and the one judgement
 * of a section's keys (confkeys.h). */
#include <config.h>

#include <string.h>
#include "confkeys.h"
#include "kernels/family.h"

#define KIND(k) (1u << (k))

/* A number macro's digits, as a string. */
#define DIGITS_(x) #x
#define DIGITS(x) DIGITS_(x)

const struct rc4_key_info rc4_keys[RC4_KEYS] = {
	[RC4_KEY_KERNEL] = { "kernel", RC4_ROLE_KERNEL, KIND(RC4K_SINGLE),
			     RC4_KEY_NONE, RC4_KEY_NONE },
	[RC4_KEY_SET_KEYS] = { "set_keys_kernel", RC4_ROLE_KERNEL,
			       KIND(RC4K_SET_KEYS), RC4_KEY_NONE,
			       RC4_KEY_NONE },
	[RC4_KEY_CRYPT_MANY] = { "crypt_many_kernel", RC4_ROLE_KERNEL,
				 KIND(RC4K_CRYPT_MANY), RC4_KEY_NONE,
				 RC4_KEY_NONE },
	[RC4_KEY_BATCH] = { "batch_kernel", RC4_ROLE_STAND_IN,
			    KIND(RC4K_SET_KEYS) | KIND(RC4K_CRYPT_MANY),
			    RC4_KEY_NONE, RC4_KEY_NONE },
	[RC4_KEY_SHORT_KERNEL] = { "short_kernel", RC4_ROLE_SHORT,
				   KIND(RC4K_SINGLE), RC4_KEY_KERNEL,
				   RC4_KEY_SHORT_BELOW },
	[RC4_KEY_SHORT_BELOW] = { "short_below", RC4_ROLE_BYTES,
				  KIND(RC4K_SINGLE), RC4_KEY_KERNEL,
				  RC4_KEY_SHORT_KERNEL },
};
_Static_assert(RC4_KEY_KERNEL == (int)RC4K_SINGLE &&
		       RC4_KEY_SET_KEYS == (int)RC4K_SET_KEYS &&
		       RC4_KEY_CRYPT_MANY == (int)RC4K_CRYPT_MANY,
	       "each kind's own key at its kind's index");

enum rc4_key rc4_key_named(const char *name)
{
	for (int k = 0; k < RC4_KEYS; k++)
		if (strcmp(name, rc4_keys[k].name) == 0)
			return (enum rc4_key)k;
	return RC4_KEY_NONE;
}

int rc4_key_next_kind(enum rc4_key k, int from)
{
	enum rc4_key_role role = k == RC4_KEY_NONE ? RC4_ROLE_SHORT
						   : rc4_keys[k].role;

	if (role != RC4_ROLE_KERNEL && role != RC4_ROLE_STAND_IN)
		return RC4K_KINDS;
	while (from < RC4K_KINDS && !(rc4_keys[k].kinds & KIND(from)))
		from++;
	return from;
}

enum rc4_key rc4_key_stand_in(enum rc4k_kind kind)
{
	for (int k = 0; k < RC4_KEYS; k++)
		if (rc4_keys[k].role == RC4_ROLE_STAND_IN &&
		    (rc4_keys[k].kinds & KIND(kind)))
			return (enum rc4_key)k;
	return RC4_KEY_NONE;
}

enum rc4_key rc4_key_read(const struct rc4_conf_value v[RC4_KEYS],
			  enum rc4k_kind kind)
{
	enum rc4_key also = rc4_key_stand_in(kind);

	return v[kind].line == 0 && also != RC4_KEY_NONE && v[also].line != 0
		       ? also
		       : (enum rc4_key)kind;
}

int rc4_conf_bytes(const char *value, size_t *bytes)
{
	size_t n = 0;

	/* digits only: no sign, blank, base prefix or unit that strtoul
	 * would take or stop at */
	if (*value == '\0' || strspn(value, "0123456789") != strlen(value))
		return -1;
	for (; *value != '\0' && n <= RC4_CONF_SHORT_MAX; value++)
		n = n * 10 + (size_t)(*value - '0');
	if (n == 0 || n > RC4_CONF_SHORT_MAX)
		return -1;
	*bytes = n;
	return 0;
}

const struct rc4k_info *rc4_key_kernel(enum rc4k_kind kind, const char *name,
				       const struct rc4k *one, bool here,
				       rc4_find_fn *find, const char **why)
{
	const struct rc4k_info *k =
		name == NULL ? NULL : (find ? find : rc4k_find)(kind, name);
	const char *no = k == NULL || !here ? NULL : rc4k_refused(k);

	if (no == NULL && k != NULL && kind != RC4K_SINGLE && one != NULL)
		no = rc4k_misfit_reason(k, one);
	if (why != NULL)
		*why = no;
	return no == NULL ? k : NULL;
}

/* Kind KIND's kernel from the key of V that it is read from
 * (rc4_key_read), if that key is set. */
static void judge_kind(const struct rc4_conf_value v[RC4_KEYS],
		       enum rc4k_kind kind, const struct rc4_keys_how *how,
		       struct rc4_keys_use *u)
{
	enum rc4_key r = rc4_key_read(v, kind);
	const char *why;

	u->from[kind] = RC4_KEY_NONE;
	if (v[r].line == 0)
		return;
	/* rc4_key_kernel holds only the batch kinds to its family */
	const struct rc4k *single =
		how->single != NULL ? how->single
		: u->k[RC4K_SINGLE] ? rc4k_single(u->k[RC4K_SINGLE])
				    : NULL;
	const struct rc4k_info *k = rc4_key_kernel(kind, v[r].name, single,
						   how->here, how->find, &why);
	if (k != NULL) {
		u->k[kind] = k;
		u->from[kind] = r;
	} else {
		u->bad[r] = (struct rc4_key_bad){ v[r].line, why };
	}
}

/* Why split key R of V cannot be used beside KERNEL (the section's
 * kernel, NULL when it sets none), or NULL; the split's parts into SP. */
static const char *split_row(const struct rc4_conf_value v[RC4_KEYS],
			     enum rc4_key r, const struct rc4k *kernel,
			     const struct rc4_keys_how *how,
			     struct rc4_split *sp)
{
	const struct rc4_key_info *ki = &rc4_keys[r];
	const struct rc4k_info *k;
	const char *why = NULL;

	if (v[ki->needs].line == 0)
		return "no kernel in its section to split";
	if (v[ki->pair].line == 0)
		return ki->role == RC4_ROLE_SHORT
			       ? "short_kernel without short_below"
			       : "short_below without short_kernel";
	if (ki->role == RC4_ROLE_BYTES)
		return rc4_conf_bytes(v[r].name, &sp->below) == 0
			       ? NULL
			       : "not a whole number of bytes from 1 to " DIGITS(
					 RC4_CONF_SHORT_MAX);
	k = rc4_key_kernel(RC4K_SINGLE, v[r].name, NULL, how->here, how->find,
			   &why);
	if (k == NULL)
		return why != NULL ? why : "unknown kernel";
	sp->short_kernel = rc4k_single(k);
	return kernel != NULL
		       ? rc4k_split_misfit_reason(kernel, sp->short_kernel)
		       : NULL;
}

/* The section's split, if its keys hold: its kernel's (when that kernel
 * is used) short calls. */
static void split_keys(const struct rc4_conf_value v[RC4_KEYS],
		       const struct rc4_keys_how *how, struct rc4_keys_use *u)
{
	const struct rc4k *kernel = u->from[RC4K_SINGLE] == RC4_KEY_KERNEL
					    ? rc4k_single(u->k[RC4K_SINGLE])
					    : NULL;
	struct rc4_split sp = { 0 };
	bool ok = true;

	/* a kernel passed over is said at its own line; its split with it */
	if (v[RC4_KEY_KERNEL].line != 0 && kernel == NULL)
		return;
	for (int r = 0; r < RC4_KEYS; r++) {
		const struct rc4_key_info *ki = &rc4_keys[r];
		if ((ki->role != RC4_ROLE_SHORT && ki->role != RC4_ROLE_BYTES) ||
		    v[r].line == 0)
			continue;
		const char *why =
			split_row(v, (enum rc4_key)r, kernel, how, &sp);
		if (why != NULL)
			u->bad[r] = (struct rc4_key_bad){ v[r].line, why };
		ok &= why == NULL;
	}
	if (ok && sp.short_kernel != NULL && sp.below > 0 && kernel != NULL) {
		sp.long_kernel = kernel;
		sp.line = v[RC4_KEY_SHORT_KERNEL].line;
		u->split = sp;
	}
}

void rc4_keys_judge(const struct rc4_conf_value v[RC4_KEYS],
		    const struct rc4_keys_how *how, struct rc4_keys_use *u)
{
	memset(u, 0, sizeof *u);
	/* the single kind first: the batch kinds' kernels must fit its keys */
	for (int kind = 0; kind < RC4K_KINDS; kind++)
		judge_kind(v, (enum rc4k_kind)kind, how, u);
	split_keys(v, how, u);
}
