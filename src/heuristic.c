/* heuristic.c - the kernel a CPU gets when no config speaks for it.
 *
 * Data, not code paths: a table per kind of kernel, first matching row
 * wins.  Rows match the
 * vendor string, display family and display model only.  Never the
 * hyper-threading bit: dual-core K8 and Core 2 set it too, and reading it as
 * "Pentium 4" cost K8 25 % in OpenSSL 0.9.8.  Never codename strings: they
 * lag behind new CPUs (libcpuid 0.6.2 calls Emerald Rapids "Xeon (Conroe)").
 *
 * A row names kernels in order of preference, the one measured best
 * first: a build without it (not x86-64) or a CPU that cannot run it
 * (no AVX-512) takes the next, and the trail says why. */
#include <config.h>

#include <limits.h>
#include <string.h>
#include "heuristic.h"

/* A row; the tables end with a row whose kernels are NULL. */
struct rule {
	const char *vendor;         /* NULL: any */
	int family_min, family_max; /* display family, inclusive */
	int model_min, model_max;   /* display model, inclusive */
	/* In order of preference: the first this build has and this CPU
	 * can run is taken, so a rule degrades on a CPU or a build that
	 * lacks what it was measured with. */
	const char *kernels[5];
	const char *why;            /* what --heuristic and the trail show */
};

static const char core2[] =
	"Intel Core 2 (family 6, models 15, 22, 23, 29): 8-bit state, one "
	"byte a trip (measured char 183.2 vs int 129.4 MB/s)";
static const char intel_new[] =
	"Intel family 6 from model 16 (Nehalem onwards, Atom), and later "
	"families: 32-bit state, unrolled x8";

static const struct rule single_rules[] = {
	/* Evidence: OpenSSL rc4-586.pl (the RC4_set_key comment): the 8-bit
	 * schedule runs 3.5x faster than the 32-bit one on P4; rc4-x86_64.pl
	 * (May 2005): RC4_CHAR 2.7x faster than RC4_INT on a P4 Xeon, and
	 * rc4-586.pl: the unrolled char loop is 20 % slower there, so 1x. */
	{ "GenuineIntel", 15, 15, 0, INT_MAX, { "char-1x" },
	  "Intel family 15 (Pentium 4): 8-bit state, one byte a trip "
	  "(OpenSSL: RC4_CHAR 2.7-3.5x faster than RC4_INT)" },

	/* Core 2 (Merom/Conroe 15, Merom-L 22, Penryn 23, Dunnington 29).
	 * Evidence: doc/kernels.md's Core 2 table (64-bit, 8 KiB blocks: char
	 * 183.2 vs int 129.4 MB/s) and rc4-x86_64.pl (March 2007): the int paths
	 * hit a partial-register stall, the folded char loop cloop1 is "the
	 * optimal fit for Core2". */
	{ "GenuineIntel", 6, 6, 15, 15, { "char-1x" }, core2 },
	{ "GenuineIntel", 6, 6, 22, 23, { "char-1x" }, core2 },
	{ "GenuineIntel", 6, 6, 29, 29, { "char-1x" }, core2 },

	/* P6 up to Yonah (Pentium Pro/II/III, Pentium M, Core Duo: models
	 * 0-14).  Evidence: rc4-586.pl: with the 8-bit schedule "PIII exhibits
	 * >2x deterioration". */
	{ "GenuineIntel", 6, 6, 0, 14, { "int-8x" },
	  "Intel P6 (Pentium Pro/II/III/M, family 6, models 0-14): 32-bit "
	  "state (OpenSSL: 8-bit state over 2x slower on PIII)" },

	/* Nehalem (26) and every later family-6 core, Atom included: rows
	 * above already took Core 2.  Evidence: rc4-x86_64.pl (May 2011):
	 * Westmere, Sandy Bridge, Ivy Bridge and Atom run its 32-bit-state
	 * path at 4.1-9.3 cycles/byte; rc4-586.pl: Core 2's stall "appears
	 * to be fixed in Sandy Bridge".  Intel's newest measured rule, so it
	 * also covers the families after 6 (15, the Pentium 4, is above). */
	{ "GenuineIntel", 6, 6, 16, INT_MAX, { "int-8x" }, intel_new },
	{ "GenuineIntel", 7, INT_MAX, 0, INT_MAX, { "int-8x" }, intel_new },

	/* K8, every revision, single- or dual-core (the dual-core ones set
	 * the HT bit).  Evidence: doc/kernels.md's K8 table (dual-core rev F,
	 * 64-bit, 8 KiB: int 484.9 vs char 362.8 MB/s); rc4-586.pl: Opteron
	 * over 2x slower with the 8-bit schedule. */
	{ "AuthenticAMD", 15, 15, 0, INT_MAX, { "int-8x" },
	  "AMD family 15 (K8, any revision and core count): 32-bit state "
	  "(measured int 484.9 vs char 362.8 MB/s)" },

	/* Zen 5, and (AMD's newest measured rule) every later family.
	 * Evidence: doc/kernels.md's Zen 5 tables (AMD family 26 model 2):
	 * the ring4 loops best at every size, char and long within 1 %;
	 * ring5 at 0.91-0.92 of them, long-16x-sse41 0.74, int-8x 0.70; the
	 * ring4 loop behind a keystream buffer 1.02-1.03x long-ring4 (mixed
	 * and packets), 1.09-1.10x at 16 B, 1.00 in bulk; the ring5 one
	 * behind it 1.11x long-ring5 (rc4tune --speed, three runs each). */
	{ "AuthenticAMD", 26, INT_MAX, 0, INT_MAX,
	  { "char-ahead-ring4-avx512", "char-ahead-ring5-sse41",
	    "long-16x-sse41", "int-8x" },
	  "AMD family 26 and later (Zen 5 onwards): 8-bit state, S[x] read "
	  "4 ahead from any x, short calls from 1 KiB of keystream made "
	  "ahead (measured 1.45x int-8x on Zen 5)" },

	/* Zen 3 and Zen 4.  Evidence: doc/kernels.md's Zen 4 table (AMD
	 * family 25 model 17): the ring5 loops 1.24-1.27x the 16x SSE4.1 loops
	 * at 8 KiB on a quiet host (char and long within 1 %, long kept as
	 * the steadier 16x one was). */
	{ "AuthenticAMD", 25, 25, 0, INT_MAX,
	  { "long-ring5-sse41", "long-16x-sse41", "int-8x" },
	  "AMD family 25 (Zen 3, Zen 4): 64-bit state, S[x] read 5 bytes "
	  "ahead (measured 1.25x the 16x SSE4.1 loop on Zen 4)" },

	/* K10, Bulldozer, Zen 1/2.  Evidence: rc4-x86_64.pl (May 2011):
	 * Bulldozer 4.5 cycles/byte on the 32-bit-state path;
	 * doc/kernels.md's Zen 4 table: int-8x at 0.985-0.996 of the best C
	 * kernel over four runs, char-1x at 0.77-0.80. */
	{ "AuthenticAMD", 16, 24, 0, INT_MAX, { "int-8x" },
	  "AMD family 16 to 24 (K10, Bulldozer, Zen 1 and 2): 32-bit state, "
	  "unrolled x8 (measured within 2 % of the best C kernel on Zen 4)" },

	/* Any other CPU (another vendor, a hypervisor's name, another
	 * architecture): not the oldest safe loop but, where it runs, the
	 * SSE4.1 gather, which every CPU measured so far ran faster than the
	 * C loops.  Evidence: doc/kernels.md: long-16x-sse41 1.50x int-8x at
	 * 8 KiB on Zen 4, 1.05x at 16 B; 1.06x-1.4x on Zen 5. */
	{ NULL, 0, INT_MAX, 0, INT_MAX, { "long-16x-sse41", "int-8x" },
	  "a CPU no rule names: the 16x SSE4.1 loop where it runs (faster "
	  "than the C loops on every CPU measured), else int-8x" },

	{ NULL, 0, 0, 0, 0, { NULL }, NULL },
};

static const struct rule batch_rules[] = {
	/* Zen 3 to Zen 5, and (AMD's newest measured rule) every later
	 * family.  Evidence: the tuner's batch table (rc4tune --speed) on
	 * AMD family 25 model 17 (Zen 4): char-8lane-asm best, char-8lane
	 * 0.70-0.76 of it; on family 26 model 2 (Zen 5): char-8lane-asm
	 * best, char-8lane 0.85 of it (README's example run). */
	{ "AuthenticAMD", 25, INT_MAX, 0, INT_MAX,
	  { "char-8lane-asm", "char-8lane" },
	  "AMD family 25 and later (Zen 3 onwards): 8 streams in the "
	  "assembly loop (measured 1.3x-1.4x char-8lane on Zen 4)" },

	{ NULL, 0, 0, 0, 0, { NULL }, NULL },
};

static const struct rule *const tables[RC4K_KINDS] = {
	[RC4K_SINGLE] = single_rules,
	[RC4K_BATCH] = batch_rules,
};

const char *const *rc4_heuristic_rule(enum rc4k_kind kind,
				      const struct rc4_cpu *cpu,
				      const char **rule)
{
	const char *why = "CPU not identified: no rule applies";

	if (cpu != NULL) {
		why = "no rule for this CPU";
		for (const struct rule *r = tables[kind]; r && r->kernels[0];
		     r++)
			if ((r->vendor == NULL ||
			     strcmp(cpu->vendor, r->vendor) == 0) &&
			    cpu->family >= r->family_min &&
			    cpu->family <= r->family_max &&
			    cpu->model >= r->model_min &&
			    cpu->model <= r->model_max) {
				if (rule)
					*rule = r->why;
				return r->kernels;
			}
	}
	if (rule)
		*rule = why;
	return NULL;
}

const struct rc4k_info *rc4_heuristic_walk(enum rc4k_kind kind,
					   const struct rc4_cpu *cpu, bool here,
					   rc4_find_fn *find, const char **rule,
					   rc4_skip_fn *skipped, void *arg)
{
	const char *const *names = rc4_heuristic_rule(kind, cpu, rule);

	for (; names && *names; names++) {
		const struct rc4k_info *k = find(kind, *names);
		const char *why = k == NULL ? "not in this build"
				  : here    ? rc4k_refused(k)
					    : NULL;
		if (why == NULL)
			return k;
		if (skipped != NULL)
			skipped(arg, *names, why, names[1] != NULL);
	}
	return NULL;
}
