/* SPDX-License-Identifier: MIT */
/* main.c - the rc4tune command line: parse options, run one action. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "confwrite.h"
#include "explain.h"
#include "kernels/kernel.h"
#include "merge.h"
#include "tune.h"

enum { EXIT_USAGE = 2 };

#define ARRAY_LEN(a) (sizeof (a) / sizeof *(a))

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rc4tune --generate-conf [--if-missing] [--force] [--output FILE] "
		"[OPTION...]\n"
		"       rc4tune --speed [OPTION...] [KERNEL...]\n"
		"       rc4tune --list\n"
		"       rc4tune --explain [--json]\n"
		"       rc4tune --heuristic [--cpuid-dump FILE]\n"
		"       rc4tune --section [--cpuid-dump FILE]\n"
		"       rc4tune --check-conf [FILE]\n"
		"       rc4tune --merge FILE... --output OUT [--quiet]\n"
		"       rc4tune --version | --help\n"
		"\n"
		"  -g, --generate-conf   time every kernel; write the fastest to\n"
		"                        this CPU's section of the config\n"
		"      --if-missing      ... unless that section already names\n"
		"                        a confident kernel the library uses\n"
		"      --force           ... replacing a section a person\n"
		"                        wrote or edited\n"
		"  -o, --output FILE     that config (default "
		SYSCONFDIR "/rc4tune.conf);\n"
		"                        - for stdout\n"
		"  -s, --speed           time the kernels (all, or those named);\n"
		"                        write nothing\n"
		"  -w, --workload W      what the score weighs: mixed (default:\n"
		"                        every block size alike), bulk, packets,\n"
		"                        keys (a fresh key per 16-byte message)\n"
		"  -b, --budget SECONDS  time to spend measuring (default 2.5)\n"
		"  -j, --json            the report (or --explain) as JSON\n"
		"  -q, --quiet           print only errors and warnings\n"
		"      --explain         the kernel programs get here, and why\n"
		"      --heuristic       the CPUID rules' kernel for this CPU\n"
		"      --section         this CPU's section name, alone\n"
		"      --cpuid-dump FILE ... or for this raw CPUID dump\n"
		"                        (libcpuid's format)\n"
		"      --check-conf [FILE]  check a config (default: the one\n"
		"                        the library reads); exit 1 on errors\n"
		"      --merge FILE...   one config from many hosts' files (each\n"
		"                        CPU: a person's section, a confident\n"
		"                        one, the newer) into --output OUT\n"
		"  -l, --list            list the kernels this build compiled\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n");
}

/* STATUS, unless what went to stdout did not all arrive (a full disk, a
 * closed pipe): then 1, said on stderr. */
static int stdout_done(int status)
{
	int err = fflush(stdout) != 0 ? errno : 0;

	if (!ferror(stdout) && err == 0)
		return status;
	fprintf(stderr, "rc4tune: cannot write to standard output%s%s\n",
		err ? ": " : "", err ? strerror(err) : "");
	return status == EXIT_USAGE ? status : EXIT_FAILURE;
}

static const struct option opts[] = {
	{ "generate-conf", no_argument, NULL, 'g' },
	{ "speed", no_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "workload", required_argument, NULL, 'w' },
	{ "budget", required_argument, NULL, 'b' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "list", no_argument, NULL, 'l' },
	{ "explain", no_argument, NULL, 'E' },
	{ "heuristic", no_argument, NULL, 'H' },
	{ "cpuid-dump", required_argument, NULL, 'D' },
	{ "section", no_argument, NULL, 'S' },
	{ "if-missing", no_argument, NULL, 'M' },
	{ "force", no_argument, NULL, 'F' },
	{ "check-conf", optional_argument, NULL, 'C' },
	{ "merge", no_argument, NULL, 'm' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the command line asks for. */
struct cli {
	struct tune_opts o;
	int action; /* the short option of the action; 0: none given */
	const char *dump, *conf_file;
	const char *const *files; /* --merge's */
	int nfiles;
	bool seen[128]; /* each option given, by its short option */
};

static const char *long_name(int opt)
{
	for (const struct option *o = opts; o->name != NULL; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static bool known_kernel(const char *name)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		if (rc4k_find((enum rc4k_kind)k, name) != NULL)
			return true;
	return false;
}

/* An option's value that must be checked: 0, or EXIT_USAGE after saying
 * why; -1 when OPT is not one of them. */
static int valued(struct cli *c, int opt, const char *arg)
{
	char *end;

	switch (opt) {
	case 'o':
		c->o.output = arg;
		if (*arg != '\0')
			return 0;
		/* else it would fail only after the budget is spent */
		fprintf(stderr, "rc4tune: --output wants a file name (- for "
				"stdout), not an empty one\n");
		return EXIT_USAGE;
	case 'w':
		if (workload_parse(arg, &c->o.workload) == 0)
			return 0;
		fprintf(stderr, "rc4tune: unknown workload '%s' (mixed, bulk, "
				"packets, keys)\n",
			arg);
		return EXIT_USAGE;
	case 'b':
		c->o.budget = strtod(arg, &end);
		if (end != arg && *end == '\0' && c->o.budget > 0 &&
		    c->o.budget <= 3600)
			return 0;
		fprintf(stderr, "rc4tune: --budget wants seconds, more than 0 "
				"and at most 3600, not '%s'\n",
			arg);
		return EXIT_USAGE;
	}
	return -1;
}

/* The flag in C that the option OPT, which takes no value, sets; NULL
 * for the other options. */
static bool *switch_of(struct cli *c, int opt)
{
	bool *const flag[] = { ['j'] = &c->o.json, ['q'] = &c->o.quiet,
			       ['M'] = &c->o.if_missing, ['F'] = &c->o.force };

	return opt > 0 && (size_t)opt < ARRAY_LEN(flag) ? flag[opt] : NULL;
}

/* Whether OPT, seen before in C, takes a value: given twice, one of the
 * two would be dropped unsaid (--check-conf=a --check-conf=b would check
 * b alone), so it is a usage error, as --check-conf a b is. */
static bool given_twice(const struct cli *c, int opt)
{
	if (opt <= 0 || opt >= 128 || !c->seen[opt])
		return false;
	for (const struct option *o = opts; o->name != NULL; o++)
		if (o->val == opt)
			return o->has_arg != no_argument;
	return false;
}

/* One option's value into C: 0, or the exit status to leave with. */
static int option(struct cli *c, int opt, const char *arg, const char *text)
{
	if (given_twice(c, opt)) {
		fprintf(stderr, "rc4tune: --%s given twice: it takes one "
				"value\n",
			long_name(opt));
		return EXIT_USAGE;
	}

	int r = valued(c, opt, arg);
	bool *on = switch_of(c, opt);

	if (opt > 0 && opt < 128)
		c->seen[opt] = true;
	if (r >= 0)
		return r;
	if (on != NULL) {
		*on = true;
		return 0;
	}
	if (opt == 'D') {
		c->dump = arg;
		return 0;
	}
	if (opt == 'C')
		c->conf_file = arg;
	if (opt <= 0 || strchr("gsEHCmSlVh", opt) == NULL) { /* the actions */
		usage(stderr);
		return EXIT_USAGE;
	}
	if (c->action == 0 || c->action == opt) {
		c->action = opt;
		return 0;
	}
	fprintf(stderr, "rc4tune: one action at a time (%s)\n", text);
	return EXIT_USAGE;
}

/* The options that change what an action does, and the actions (their
 * short options) each goes with: given with another, it would do
 * nothing, which a script would never learn. */
static const struct {
	int opt;
	const char *actions;
} goes_with[] = {
	{ 'o', "gm" }, { 'w', "gs" }, { 'b', "gs" }, { 'j', "gsE" },
	{ 'q', "gsm" }, { 'D', "HS" }, { 'M', "g" }, { 'F', "g" },
};

/* 0, or -1 after saying which option C's action would ignore, and the
 * actions it goes with.  Without an action run() prints the usage. */
static int idle_option(const struct cli *c)
{
	if (c->o.json && c->o.quiet) { /* no report for --json to shape */
		fprintf(stderr, "rc4tune: --json goes with a report, which "
				"--quiet leaves out: it would be ignored\n");
		return -1;
	}
	for (size_t i = 0; c->action != 0 && i < ARRAY_LEN(goes_with); i++) {
		const char *with = goes_with[i].actions;
		if (!c->seen[goes_with[i].opt] || strchr(with, c->action))
			continue;
		fprintf(stderr, "rc4tune: --%s goes with ",
			long_name(goes_with[i].opt));
		for (size_t k = 0, n = strlen(with); k < n; k++)
			fprintf(stderr, "%s--%s",
				k == 0 ? "" : k + 1 < n ? ", " : " or ",
				long_name(with[k]));
		fprintf(stderr, ", not with --%s, which would ignore it\n",
			long_name(c->action));
		return -1;
	}
	return 0;
}

/* The operands after the options, and options that go together: 0, or
 * EXIT_USAGE after saying why. */
static int operands(struct cli *c, int argc, char **argv, int i)
{
	if (c->action == 's' && i < argc) {
		c->o.kernels = (const char *const *)argv + i;
		for (; i < argc; i++)
			if (!known_kernel(argv[i])) {
				fprintf(stderr, "rc4tune: unknown kernel '%s' "
						"(rc4tune --list shows them)\n",
					argv[i]);
				return EXIT_USAGE;
			}
	}
	if (c->o.json && c->action == 'g' && c->o.output &&
	    confwrite_is_stdout(c->o.output)) {
		fprintf(stderr, "rc4tune: --json and --output %s would share "
				"stdout\n",
			c->o.output);
		return EXIT_USAGE;
	}
	if (c->action == 'm') {
		c->files = (const char *const *)argv + i;
		c->nfiles = argc - i;
		i = argc;
		if (c->nfiles == 0 || c->o.output == NULL) {
			fprintf(stderr, "rc4tune: --merge wants files to merge "
					"and --output OUT (- for stdout)\n");
			return EXIT_USAGE;
		}
	}
	/* --check-conf FILE as well as --check-conf=FILE */
	if (c->action == 'C' && c->conf_file == NULL && i + 1 == argc)
		c->conf_file = argv[i++];
	if (idle_option(c) != 0)
		return EXIT_USAGE;
	if (i < argc) {
		fprintf(stderr, "rc4tune: unexpected argument '%s'\n", argv[i]);
		usage(stderr);
		return EXIT_USAGE;
	}
	return 0;
}

static int run(const struct cli *c)
{
	switch (c->action) {
	case 'g':
		return tune_generate_conf(&c->o);
	case 's':
		return tune_speed(&c->o);
	case 'E':
		return explain_choice(c->o.json);
	case 'H':
		return explain_heuristic(c->dump);
	case 'S':
		return explain_section(c->dump);
	case 'C':
		return explain_check_conf(c->conf_file);
	case 'm':
		return merge_files(c->files, c->nfiles, c->o.output, c->o.quiet);
	case 'l':
		return explain_list();
	case 'V':
		printf("rc4tune %s\n", PACKAGE_VERSION);
		return EXIT_SUCCESS;
	case 'h':
		usage(stdout);
		return EXIT_SUCCESS;
	default:
		usage(stderr);
		return EXIT_USAGE;
	}
}

int main(int argc, char **argv)
{
	struct cli c = { .o = { .workload = WORKLOAD_MIXED, .budget = 2.5 } };
	int opt, r = -1;

	/* A closed stdout is an error (exit 1, said), not a signal: the
	 * config is written before any report. */
	signal(SIGPIPE, SIG_IGN);
	/* Started with 0, 1 or 2 closed, the files we open would take those
	 * numbers and a printf would land in the config: /dev/null, read-only,
	 * holds them, so that output there still fails. */
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDONLY) != fd)
			return EXIT_FAILURE;
	/* Reports reach the last flush whole, where a full disk or a closed
	 * pipe is said with its reason (a write failing mid-report leaves
	 * no errno to tell). */
	static char outbuf[1 << 16];
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	while (r < 0 && (opt = getopt_long(argc, argv, "gso:w:b:jqlVh", opts,
					   NULL)) != -1)
		if ((r = option(&c, opt, optarg, argv[optind - 1])) == 0)
			r = -1;
	if (r < 0 && (r = operands(&c, argc, argv, optind)) == 0)
		r = run(&c);
	return stdout_done(r);
}
