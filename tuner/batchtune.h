/* batchtune.h - time the batch kernels (rc4tune_set_keys,
 * rc4tune_crypt_many) and pick one for the config's batch_kernel key. */
#ifndef RC4_BATCHTUNE_H
#define RC4_BATCHTUNE_H

#include <stdio.h>
#include "kernels/batch.h"
#include "measure.h"

enum { BATCH_KEYS, BATCH_STREAMS, BATCH_CELLS };

struct bresult {
	const struct rc4k_batch *b;
	enum kstatus status;
	/* medians: keys/s (a fresh 16-byte key and 16 bytes of keystream,
	 * 64 keys a call), bytes/s over 8 streams of 1024-byte calls */
	double rate[BATCH_CELLS];
	double score; /* weighted by the workload, as the single kernels */
	double ratio; /* score / the winner's score */
};

struct batch_measurement {
	struct bresult *br; /* one per batch kernel, registry order */
	size_t n, winner;   /* winner == n: none passed its self-test */
	int rounds;
	bool tie;           /* others within TIE of the best: the earliest won */
};

/* Time every batch kernel for about BUDGET seconds.  Returns 0, or -1
 * after saying why on stderr. */
int batch_measure(struct batch_measurement *bm, enum workload w,
		  double budget);

/* The table as comment lines (each starting with PREFIX), then, when a
 * winner exists and KEY_LINE is set, "batch_kernel = NAME". */
void batch_report(FILE *f, const char *prefix,
		  const struct batch_measurement *bm, bool key_line);

void batch_measure_free(struct batch_measurement *bm);

#endif
