/* main.c - the rc4tune command line: parse options, run one action. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/kernel.h"

enum { EXIT_USAGE = 2 };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rc4tune --list\n"
		"       rc4tune --version | --help\n"
		"\n"
		"  -l, --list      list the kernels this build compiled\n"
		"  -V, --version   print the version\n"
		"  -h, --help      print this help\n");
}

/* One kernel a line: name first (scripts cut it), usable here, summary. */
static int list_kernels(void)
{
	for (const struct rc4k *const *k = rc4k_registry; *k; k++)
		printf("%-16s %-8s %s\n", (*k)->name,
		       rc4k_usable(*k) ? "usable" : "unusable", (*k)->summary);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int action = 0, c;

	while ((c = getopt_long(argc, argv, "lVh", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
		case 'V':
			action = c;
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "rc4tune: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	switch (action) {
	case 'l':
		return list_kernels();
	case 'V':
		printf("rc4tune %s\n", PACKAGE_VERSION);
		return EXIT_SUCCESS;
	default:
		usage(stderr);
		return EXIT_USAGE;
	}
}
