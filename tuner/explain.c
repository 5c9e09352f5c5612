/* explain.c - what this build has, what the library chooses here and why,
 * what the heuristic says about a CPU, and whether a config file would be
 * used as meant. */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checkconf.h"
#include "cpudump.h"
#include "explain.h"
#include "heuristic.h"
#include "section.h"
#include "select.h"

int explain_list(void)
{
	int width = 16;

	for (const struct rc4k_info *const *k = rc4k_registry; *k; k++)
		if ((int)strlen((*k)->name) > width)
			width = (int)strlen((*k)->name);
	/* name first (scripts cut it), usable here, the kind's tag, summary */
	for (const struct rc4k_info *const *k = rc4k_registry; *k; k++)
		printf("%-*s %-8s %s%s\n", width, (*k)->name,
		       rc4k_usable(*k) ? "usable" : "unusable",
		       rc4k_kinds[(*k)->kind].tag, (*k)->summary);
	return EXIT_SUCCESS;
}

/* For rc4_section_walk: the sections wanted, and where to say whose. */
struct walk {
	const char *prefix, *path;
	const char *section; /* NULL: every [cpu ...] and [pin] */
};

/* Whose section S (in w->path) is, as one line to stdout: a person's,
 * pinned, or the tuner's with each key's confidence. */
static void owner_line(const struct walk *w, const struct rc4_section *s)
{
	const struct rc4_record *r = &s->record;

	printf("%s%s:%d: [%s]: ", w->prefix, w->path, s->line, s->name);
	if (strcmp(s->name, "pin") == 0) {
		printf("pinned: outranks every [cpu ...] section; no tuner "
		       "run changes it\n");
		return;
	}
	printf("%s", rc4_owner_name(r->owner));
	if (r->owner == RC4_OWNER_TUNER) {
		printf(" (rc4tune %s, %s", r->by, r->at);
		for (int k = 0; k < RC4K_KINDS; k++)
			if (r->key[k].present)
				printf("; %s %s%s%s%s", rc4k_kinds[k].key,
				       r->key[k].uncertain ? "uncertain"
							   : "confident",
				       r->key[k].uncertain ? " (" : "",
				       r->key[k].uncertain ? r->key[k].why : "",
				       r->key[k].uncertain ? ")" : "");
		printf(")");
	}
	printf("\n");
}

static void on_section(void *arg, const struct rc4_section *s)
{
	const struct walk *w = arg;

	if (strcmp(s->name, "pin") == 0 ||
	    (w->section ? strcmp(s->name, w->section) == 0
			: strncmp(s->name, "cpu ", 4) == 0))
		owner_line(w, s);
}

/* Whose the sections of PATH are that speak for SECTION (NULL: all). */
static void owners(const char *path, const char *prefix, const char *section)
{
	size_t len;
	char *buf = rc4_conf_load(path, &len);
	struct walk w = { prefix, path, section };

	if (buf != NULL)
		rc4_section_walk(buf, len, on_section, &w);
	free(buf);
}

int explain_choice(void)
{
	struct rc4_select_in in;
	struct rc4_cpu cpu;
	char trail[RC4_TRAIL_MAX];

	rc4_select_live(&in, &cpu);
	for (int k = 0; k < RC4K_KINDS; k++) {
		const struct rc4k_info *chosen =
			rc4_select((enum rc4k_kind)k, &in, trail, sizeof trail);
		/* the first line is the kernel alone, for scripts */
		if (k > 0)
			printf("%s ", rc4k_kinds[k].key);
		printf("%s\n", chosen->name);
		rc4_trail_print(stdout, "  ", trail);
	}
	if (in.cpu != NULL) {
		char section[RC4_SECTION_MAX];
		rc4_section_name(in.cpu, section);
		owners(in.conf, "config ", section);
	}
	return EXIT_SUCCESS;
}

/* The kernels a walk passed over, as "; NAME: WHY" after each other. */
struct passed {
	char text[512];
	size_t n;
};

static void passed_over(void *arg, const char *name, const char *why,
			bool more)
{
	struct passed *p = arg;

	(void)more;
	if (p->n < sizeof p->text)
		p->n += (size_t)snprintf(p->text + p->n, sizeof p->text - p->n,
					 "; %s: %s", name, why);
}

/* The CPU of DUMP (a raw CPUID dump), or NULL: this one; 0, or -1 after
 * saying why not. */
static int identify(struct rc4_cpu *cpu, const char *dump)
{
	const char *why;

	if ((dump ? cpuid_from_dump(cpu, dump, &why)
		  : rc4_cpu_identify(cpu, &why)) == 0)
		return 0;
	fprintf(stderr, "rc4tune: %s: %s\n", dump ? dump : "this CPU", why);
	return -1;
}

int explain_section(const char *dump)
{
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX];

	if (identify(&cpu, dump) != 0)
		return EXIT_FAILURE;
	rc4_section_name(&cpu, section);
	printf("%s\n", section);
	return EXIT_SUCCESS;
}

int explain_heuristic(const char *dump)
{
	struct rc4_cpu cpu;
	const char *rule;
	char section[RC4_SECTION_MAX];

	if (identify(&cpu, dump) != 0)
		return EXIT_FAILURE;
	rc4_section_name(&cpu, section);
	for (int k = 0; k < RC4K_KINDS; k++) {
		struct passed p = { "", 0 };
		/* as the library walks the rule, but a dump's CPU is not here
		 * to ask what it runs */
		const struct rc4k_info *chosen = rc4_heuristic_walk(
			(enum rc4k_kind)k, &cpu, dump == NULL, rc4k_find, &rule,
			passed_over, &p);
		/* the name first, always a kernel this build has: what the
		 * library would use; then each other kind's, after its key */
		if (k > 0)
			printf("%s ", rc4k_kinds[k].key);
		printf("%s\t%s: %s%s%s\n",
		       chosen ? chosen->name : rc4k_kinds[k].fallback->name,
		       section, rule, p.text,
		       chosen ? "" : "; the portable default");
	}
	return EXIT_SUCCESS;
}

/* What --check-conf has said about a file. */
struct tally {
	const char *path;
	int errors, warnings;
};

static void print_note(void *arg, int line, bool error, const char *msg)
{
	struct tally *c = arg;

	fprintf(stderr, "%s:%d: %s: %s\n", c->path, line,
		error ? "error" : "warning", msg);
	if (error)
		c->errors++;
	else
		c->warnings++;
}

int explain_check_conf(const char *file)
{
	struct tally c = { file ? file : rc4_conf_path(), 0, 0 };
	struct rc4_conf conf;
	struct rc4_cpu cpu;
	const char *cpu_why;
	char why[RC4_CONF_WHY_MAX], section[RC4_SECTION_MAX];
	bool identified = rc4_cpu_identify(&cpu, &cpu_why) == 0;

	if (identified)
		rc4_section_name(&cpu, section);
	int rc = checkconf(c.path, identified ? section : NULL, print_note, &c,
			   &conf, why, sizeof why);
	if (rc > 0 && file != NULL) {
		fprintf(stderr, "rc4tune: %s: no such file\n", c.path);
		return EXIT_FAILURE;
	}
	if (rc > 0) {
		/* a machine not tuned yet: normal, as for the library */
		printf("%s: no such file; without a config the library "
		       "uses its built-in CPU rules\n",
		       c.path);
		return EXIT_SUCCESS;
	}
	if (rc < 0) {
		/* as a note, with no line when the file as a whole is at
		 * fault */
		fprintf(stderr, "%s:", c.path);
		if (conf.bad_line != 0)
			fprintf(stderr, "%d:", conf.bad_line);
		fprintf(stderr, " error: %s; the library ignores the whole "
				"file\n", why);
		return EXIT_FAILURE;
	}
	owners(c.path, "", NULL);
	printf("%s: %s (%d error%s, %d warning%s)\n", c.path,
	       c.errors ? "not OK" : "OK", c.errors, c.errors == 1 ? "" : "s",
	       c.warnings, c.warnings == 1 ? "" : "s");
	return c.errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
