/* SPDX-License-Identifier: MIT */
/* tune.h - the measuring actions, --speed and --generate-conf. */
#ifndef RC4_TUNE_H
#define RC4_TUNE_H

#include <stdbool.h>
#include "measure.h"

struct tune_opts {
	const char *output;         /* NULL: SYSCONFDIR "/rc4tune.conf" */
	enum workload workload;
	double budget;              /* seconds */
	bool quiet, json;
	bool if_missing, force;
	const char *const *kernels; /* --speed KERNEL...; NULL: all */
};

/* 0 done, 1 failed (the reason on stderr). */
int tune_speed(const struct tune_opts *o);
int tune_generate_conf(const struct tune_opts *o);

#endif
