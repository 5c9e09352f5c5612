/* select.h - which kernel of a kind new keys use, and why: the precedence
 * of env > [pin] > this CPU's section > [default] > heuristic > portable
 * default, written once for every kind. */
#ifndef RC4_SELECT_H
#define RC4_SELECT_H

#include <stddef.h>
#include <stdio.h>
#include "cpu.h"
#include "kernels/kernel.h"

/* Room for a whole selection trail. */
#define RC4_TRAIL_MAX 4096

/* What the selection looks at: the live values (rc4_select_live) or, in
 * tests, fixtures. */
struct rc4_select_in {
	/* Each kind's environment variable (rc4k_kinds[].env), or NULL. */
	const char *env[RC4K_KINDS];
	const char *conf;          /* the config file's path */
	const struct rc4_cpu *cpu; /* NULL: not identified ... */
	const char *cpu_why;       /* ... and why */
	/* Looks a kernel name up (rc4k_find; tests add broken kernels). */
	const struct rc4k_info *(*find)(enum rc4k_kind kind, const char *name);
};

/* Fill IN from the environment (secure_getenv) and CPUID, with CPU as the
 * storage for the CPU's identity. */
void rc4_select_live(struct rc4_select_in *in, struct rc4_cpu *cpu);

/* The first step of the precedence whose kernel of KIND is known, usable
 * here and passes its self-test; never NULL.  If TRAIL is not NULL it gets
 * one line per step taken, saying why (cut to SIZE). */
const struct rc4k_info *rc4_select(enum rc4k_kind kind,
				   const struct rc4_select_in *in, char *trail,
				   size_t size);

/* S with every byte outside printable ASCII made '?', in place: names
 * from the environment and config files reach terminals through the trail
 * and --check-conf, and must not carry escape sequences there. */
void rc4_printable(char *s);

/* TRAIL's lines to F, each after PREFIX. */
void rc4_trail_print(FILE *f, const char *prefix, const char *trail);

/* The kernel of KIND that new keys use; the first call in a process runs
 * the selection (current.c). */
const struct rc4k_info *rc4_current(enum rc4k_kind kind);

#endif
