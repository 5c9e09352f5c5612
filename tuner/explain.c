/* explain.c - what the library chooses here and why, what the heuristic
 * says about a CPU, and whether a config file would be used as meant. */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "cpu.h"
#include "explain.h"
#include "heuristic.h"
#include "kernels/batch.h"
#include "select.h"

static void print_trail(const char *trail)
{
	for (const char *line = trail, *nl; (nl = strchr(line, '\n'));
	     line = nl + 1)
		printf("  %.*s\n", (int)(nl - line), line);
}

int explain_choice(void)
{
	struct rc4_select_in in;
	struct rc4_cpu cpu;
	char trail[4096];

	rc4_select_live(&in, &cpu);
	printf("%s\n", rc4_select(&in, trail, sizeof trail)->name);
	print_trail(trail);
	/* then the batch kernel (rc4tune_set_keys, rc4tune_crypt_many) */
	printf("batch_kernel %s\n",
	       rc4_select_batch(&in, trail, sizeof trail)->name);
	print_trail(trail);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int explain_heuristic(const char *dump)
{
	struct rc4_cpu cpu;
	const char *why, *rule;
	char section[64];

	if ((dump ? rc4_cpu_from_dump(&cpu, dump, &why)
		  : rc4_cpu_signature(&cpu, &why)) != 0) {
		fprintf(stderr, "rc4tune: %s: %s\n", dump ? dump : "this CPU",
			why);
		return EXIT_FAILURE;
	}
	const char *name = rc4_heuristic(&cpu, &rule);
	rc4_cpu_section(&cpu, section, sizeof section);
	/* the name first, always a kernel: what the library would use */
	printf("%s\t%s: %s%s\n", name ? name : rc4k_default->name, section,
	       rule, name ? "" : "; the portable default");
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

struct check {
	const char *path;
	char section[64]; /* this CPU's, "" when not identified */
	int errors, warnings;
};

static void check_note(void *arg, int line, bool error, const char *msg)
{
	struct check *c = arg;

	fprintf(stderr, "%s:%d: %s: %s\n", c->path, line,
		error ? "error" : "warning", msg);
	if (error)
		c->errors++;
	else
		c->warnings++;
}

/* A kernel must exist in this build; where it applies to this CPU (its
 * own section, [default]) it must also run and pass its self-test here.
 * Sections of other CPUs may name kernels this CPU cannot run.  KIND says
 * which key ("kernel", "batch kernel"); WHY is NULL when it may run. */
static void flag_kernel(struct check *c, int line, const char *section,
			const char *value, const char *kind, bool known,
			const char *why)
{
	char msg[RC4_CONF_MAX_LINE + 128];

	if (!known)
		snprintf(msg, sizeof msg,
			 "unknown %s \"%s\" in [%s] (rc4tune --list "
			 "names them)",
			 kind, value, section);
	else if (why != NULL)
		snprintf(msg, sizeof msg, "%s \"%s\" in [%s]: %s", kind, value,
			 section, why);
	else
		return;
	check_note(c, line, true, msg);
}

static bool applies_here(const struct check *c, const char *section)
{
	return strcmp(section, "default") == 0 ||
	       strcmp(section, c->section) == 0;
}

static void check_kernel(void *arg, int line, const char *section,
			 const char *value)
{
	struct check *c = arg;
	const struct rc4k *k = rc4k_find(value);

	flag_kernel(c, line, section, value, "kernel", k != NULL,
		    k && applies_here(c, section) ? rc4_kernel_refused(k)
						  : NULL);
}

static void check_batch_kernel(void *arg, int line, const char *section,
			       const char *value)
{
	struct check *c = arg;
	const struct rc4k_batch *b = rc4k_batch_find(value);

	flag_kernel(c, line, section, value, "batch kernel", b != NULL,
		    b && applies_here(c, section) ? rc4_batch_refused(b)
						  : NULL);
}

int explain_check_conf(const char *file)
{
	struct check c = { .path = file ? file : rc4_conf_path() };
	struct rc4_conf_hooks hooks = { check_kernel, check_note, &c,
					check_batch_kernel };
	struct rc4_conf conf;
	struct rc4_cpu cpu;
	const char *cpu_why;
	char why[512];

	if (rc4_cpu_signature(&cpu, &cpu_why) == 0)
		rc4_cpu_section(&cpu, c.section, sizeof c.section);
	int rc = rc4_conf_read(c.path, c.section[0] ? c.section : NULL, &conf,
			       &hooks, why, sizeof why);
	if (rc > 0 && file != NULL) {
		fprintf(stderr, "rc4tune: %s: no such file\n", c.path);
		return EXIT_FAILURE;
	}
	if (rc > 0) {
		/* a machine not tuned yet: normal, as for the library */
		printf("%s: no such file; without a config the library "
		       "uses its built-in CPU rules\n",
		       c.path);
		return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	}
	if (rc < 0) {
		/* as check_note does, with no line when the file is at fault */
		fprintf(stderr, "%s:", c.path);
		if (conf.bad_line != 0)
			fprintf(stderr, "%d:", conf.bad_line);
		fprintf(stderr, " error: %s; the library ignores the whole "
				"file\n", why);
		return EXIT_FAILURE;
	}
	printf("%s: %s (%d error%s, %d warning%s)\n", c.path,
	       c.errors ? "not OK" : "OK", c.errors, c.errors == 1 ? "" : "s",
	       c.warnings, c.warnings == 1 ? "" : "s");
	return c.errors || fflush(stdout) != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
