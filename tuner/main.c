/* main.c - the rc4tune command line: parse options, run one action. */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "kernels/batch.h"
#include "kernels/kernel.h"
#include "tune.h"

enum { EXIT_USAGE = 2 };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rc4tune --generate-conf [--output FILE] [OPTION...]\n"
		"       rc4tune --speed [OPTION...] [KERNEL...]\n"
		"       rc4tune --list\n"
		"       rc4tune --explain\n"
		"       rc4tune --heuristic [--cpuid-dump FILE]\n"
		"       rc4tune --check-conf [FILE]\n"
		"       rc4tune --version | --help\n"
		"\n"
		"  -g, --generate-conf   time every kernel; write the fastest to\n"
		"                        this CPU's section of the config\n"
		"  -o, --output FILE     that config (default "
		SYSCONFDIR "/rc4tune.conf);\n"
		"                        - for stdout\n"
		"  -s, --speed           time the kernels (all, or those named);\n"
		"                        write nothing\n"
		"  -w, --workload W      what the score weighs: mixed (default:\n"
		"                        every block size alike), bulk, packets,\n"
		"                        keys (a fresh key per 16-byte message)\n"
		"  -b, --budget SECONDS  time to spend measuring (default 2.5)\n"
		"  -j, --json            the report as JSON\n"
		"  -q, --quiet           print only errors and warnings\n"
		"      --explain         the kernel programs get here, and why\n"
		"      --heuristic       the CPUID rules' kernel for this CPU\n"
		"      --cpuid-dump FILE ... or for this raw CPUID dump\n"
		"                        (libcpuid's format)\n"
		"      --check-conf [FILE]  check a config (default: the one\n"
		"                        the library reads); exit 1 on errors\n"
		"  -l, --list            list the kernels this build compiled\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n");
}

/* One kernel a line: name first (scripts cut it), usable here, summary. */
static int list_kernels(void)
{
	for (const struct rc4k *const *k = rc4k_registry; *k; k++)
		printf("%-16s %-8s %s\n", (*k)->name,
		       rc4k_usable(*k) ? "usable" : "unusable", (*k)->summary);
	/* then the batch kernels, for the config's batch_kernel key */
	for (const struct rc4k_batch *const *b = rc4k_batch_registry; *b; b++)
		printf("%-16s %-8s batch: %s\n", (*b)->name,
		       rc4k_batch_usable(*b) ? "usable" : "unusable",
		       (*b)->summary);
	return fflush(stdout) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(int argc, char **argv)
{
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
		{ "check-conf", optional_argument, NULL, 'C' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tune_opts o = { .workload = WORKLOAD_MIXED, .budget = 2.5 };
	int action = 0, c;
	const char *dump = NULL, *conf_file = NULL;
	char *end;

	while ((c = getopt_long(argc, argv, "gso:w:b:jqlVh", opts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case 'w':
			if (workload_parse(optarg, &o.workload) != 0) {
				fprintf(stderr, "rc4tune: unknown workload "
						"'%s' (mixed, bulk, packets, "
						"keys)\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'b':
			o.budget = strtod(optarg, &end);
			if (end == optarg || *end || !(o.budget > 0) ||
			    o.budget > 3600) {
				fprintf(stderr, "rc4tune: --budget wants "
						"seconds, more than 0 and at "
						"most 3600, not '%s'\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'j':
			o.json = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'D':
			dump = optarg;
			break;
		case 'C':
			conf_file = optarg;
			/* fall through */
		case 'g':
		case 's':
		case 'E':
		case 'H':
		case 'l':
		case 'V':
			if (action != 0 && action != c) {
				fprintf(stderr, "rc4tune: one action at a "
						"time (%s)\n",
					argv[optind - 1]);
				return EXIT_USAGE;
			}
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
	if (action == 's' && optind < argc) {
		o.kernels = (const char *const *)argv + optind;
		for (; optind < argc; optind++)
			if (rc4k_find(argv[optind]) == NULL) {
				fprintf(stderr, "rc4tune: unknown kernel '%s' "
						"(rc4tune --list shows them)\n",
					argv[optind]);
				return EXIT_USAGE;
			}
	}
	if (o.json && action == 'g' && o.output && strcmp(o.output, "-") == 0) {
		fprintf(stderr, "rc4tune: --json and --output - would share "
				"stdout\n");
		return EXIT_USAGE;
	}
	/* --check-conf FILE as well as --check-conf=FILE */
	if (action == 'C' && conf_file == NULL && optind + 1 == argc)
		conf_file = argv[optind++];
	if (dump != NULL && action != 'H') {
		fprintf(stderr, "rc4tune: --cpuid-dump goes with --heuristic\n");
		return EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, "rc4tune: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	switch (action) {
	case 'g':
		return tune_generate_conf(&o);
	case 's':
		return tune_speed(&o);
	case 'E':
		return explain_choice();
	case 'H':
		return explain_heuristic(dump);
	case 'C':
		return explain_check_conf(conf_file);
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
