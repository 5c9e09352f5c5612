/* SPDX-License-Identifier: MIT */
/* select.h - which kernel of a kind new keys use, and why: the precedence
 * of env > [pin] > this CPU's section > [default] > heuristic > portable
 * default, written once for every kind. */
#ifndef RC4_SELECT_H
#define RC4_SELECT_H

#include <stddef.h>
#include <stdio.h>
#include "conf.h"
#include "cpu.h"
#include "kernels/kernel.h"

/* Room for a whole selection trail. */
#define RC4_TRAIL_MAX 4096

/* What the selection looks at: the live values, or tests' fixtures. */
struct rc4_select_in {
	/* Each kind's environment variable (rc4k_kinds[].env), or NULL. */
	const char *env[RC4K_KINDS];
	const char *conf;          /* the config file's path */
	const struct rc4_cpu *cpu; /* NULL: not identified ... */
	const char *cpu_why;       /* ... and why */
	rc4_find_fn *find;
	/* The batch kinds: the single-stream kernel whose keys they run; a
	 * step whose kernel is of another family is skipped.  NULL: none. */
	const struct rc4k *single;
};

/* Fill IN from the environment (secure_getenv) and CPUID, with CPU as the
 * storage for the CPU's identity; IN->single is NULL. */
void rc4_select_live(struct rc4_select_in *in, struct rc4_cpu *cpu);

/* The steps of the precedence, in its order: where a kernel came from. */
enum rc4_source {
	RC4_FROM_ENV,
	/* a config section: RC4_FROM_CONF + its slot (RC4_CONF_PIN ...) */
	RC4_FROM_CONF,
	RC4_FROM_RULE = RC4_FROM_CONF + RC4_CONF_SECTIONS, /* the heuristic */
	RC4_FROM_PORTABLE,
};

/* rc4_choice.conf when the config was not read. */
enum { RC4_CONF_UNREAD = 2 };

/* The step that chose, for --explain --json. */
struct rc4_choice {
	enum rc4_source source;
	int line; /* the config line of a config step's key, else 0 */
	int conf; /* rc4_conf_read's result, or RC4_CONF_UNREAD */
	/* the single kind: the split of the section that chose, if any */
	struct rc4_split split;
};

/* The first step of the precedence whose kernel of KIND may run here;
 * never NULL.  TRAIL (if not NULL) gets a line per step taken, saying why
 * (cut to SIZE); HOW (if not NULL), which step chose. */
const struct rc4k_info *rc4_select(enum rc4k_kind kind,
				   const struct rc4_select_in *in, char *trail,
				   size_t size, struct rc4_choice *how);

/* Every kind's selection at once, the config read once: the single kind
 * first, then each batch kind for its keys (IN->single ignored).  TRAILS
 * (may be NULL) gets each kind's trail. */
struct rc4_selection {
	const struct rc4k_info *k[RC4K_KINDS];
	struct rc4_choice how[RC4K_KINDS];
};
void rc4_select_all(const struct rc4_select_in *in,
		    struct rc4_selection *out, char (*trails)[RC4_TRAIL_MAX]);

/* S with every byte outside printable ASCII made '?', in place: names
 * from the environment and config files reach terminals through the trail
 * and --check-conf, and must not carry escape sequences there. */
void rc4_printable(char *s);

/* TRAIL's lines to F, each after PREFIX. */
void rc4_trail_print(FILE *f, const char *prefix, const char *trail);

/* The kernel of KIND that new keys use; the first call in a process runs
 * the selection (current.c). */
const struct rc4k_info *rc4_current(enum rc4k_kind kind);

/* The split in use (current.c; BELOW 0: none).  Never NULL; what it
 * points to never changes. */
extern _Atomic(const struct rc4_split *) rc4_split_now;

#endif
