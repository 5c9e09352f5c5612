/* SPDX-License-Identifier: MIT */
/* heuristic.c - the kernel a CPU gets when no config speaks for it: a
 * table per kind, first matching row wins (heuristic.h).  Rows match the
 * vendor string, display family and display model only.  Never the
 * hyper-threading bit: dual-core K8 and Core 2 set it too, and reading it as
 * "Pentium 4" cost K8 25 % in OpenSSL 0.9.8.  Never codename strings: they
 * lag behind new CPUs (libcpuid 0.6.2 calls Emerald Rapids "Xeon (Conroe)").
 * A row claims only the models it was measured on; its figures are on its
 * profiles' pages, doc/cpus/NAME.md, "Rules and why" (published ones in
 * doc/cpus/published.md). */
#include <config.h>

#include <limits.h>
#include <string.h>
#include "heuristic.h"
#include "kernels/cpufeat.h"
#include "kernels/family.h"

/* The profiles (data/profiles/NAME.json) rules cite. */
#define ZEN1 "AuthenticAMD-23-1"
#define ZEN3 "AuthenticAMD-25-1"
#define ZEN4 "AuthenticAMD-25-17"
#define ZEN5 "AuthenticAMD-26-2"
#define K8 "AuthenticAMD-15-65"
#define CORE2 "GenuineIntel-6-15"
#define EMR "GenuineIntel-6-207"
#define RKL "GenuineIntel-6-167"
/* Every profile with a tuner table, all with the batch calls' too. */
#define ALL ZEN1 " " ZEN3 " " ZEN4 " " ZEN5 " " RKL " " EMR

/* A row: the profiles it rests on are named in its text as well. */
#define RULE(vendor, fmin, fmax, mmin, mmax, basis, profiles, why, ...)    \
	{ vendor, fmin, fmax, mmin, mmax, { __VA_ARGS__ }, basis, profiles, \
	  why " (profiles: " profiles ")" }
#define PUBLISHED(vendor, fmin, fmax, mmin, mmax, why, ...)                \
	{ vendor, fmin, fmax, mmin, mmax, { __VA_ARGS__ },                 \
	  RC4_RULE_PUBLISHED, NULL, why }

static const char core2[] =
	"Intel Core 2 (family 6, models 15, 22, 23, 29): 8-bit state, one "
	"byte a trip (published: char 183.2 vs int 129.4 MB/s) (profiles: "
	CORE2 ")";

/* Where no rule names the CPU: on every profile that can run it, the ring
 * loop with AVX-512 ends (0.99 of the best on Zen 5, 0.98 on Rocket Lake,
 * 0.93 on Emerald Rapids, 0.88 on Zen 4), else the 16x SSE4.1 gather
 * (1.00 on Zen 3, 0.99 on Zen 1).  Its worst case, 0.88 on Zen 4, is the
 * best of any walk over these profiles (no AVX-512 kernel reaches 0.90
 * there) and beats every single kernel's (long-ring5-sse41: 0.69, on
 * Rocket Lake); without SSE4.1, the SSE2 gather; off x86-64, int-8x. */
#define ANY_SINGLE "char-ring4-avx512", "long-16x-sse41", "long-16x-sse2", \
	"int-8x"

static const struct rc4_rule single_rules[] = {
	/* the unrolled char loop is 20 % slower there, so 1x */
	PUBLISHED("GenuineIntel", 15, 15, 0, INT_MAX,
		  "Intel family 15 (Pentium 4): 8-bit state, one byte a trip "
		  "(published: OpenSSL's RC4_CHAR 2.7-3.5x faster than RC4_INT)",
		  "char-1x"),

	/* Core 2 (Merom/Conroe 15, Merom-L 22, Penryn 23, Dunnington 29) */
	{ "GenuineIntel", 6, 6, 15, 15, { "char-1x" }, RC4_RULE_PUBLISHED,
	  CORE2, core2 },
	{ "GenuineIntel", 6, 6, 22, 23, { "char-1x" }, RC4_RULE_PUBLISHED,
	  CORE2, core2 },
	{ "GenuineIntel", 6, 6, 29, 29, { "char-1x" }, RC4_RULE_PUBLISHED,
	  CORE2, core2 },

	PUBLISHED("GenuineIntel", 6, 6, 0, 14,
		  "Intel P6 (Pentium Pro/II/III/M, family 6, models 0-14): "
		  "32-bit state (published: 8-bit state over 2x slower on "
		  "PIII)",
		  "int-8x"),

	RULE("AuthenticAMD", 15, 15, 0, INT_MAX, RC4_RULE_PUBLISHED, K8,
	     "AMD family 15 (K8, any revision and core count): 32-bit state "
	     "(published: int 484.9 vs char 362.8 MB/s)",
	     "int-8x"),

	RULE("AuthenticAMD", 23, 23, 1, 1, RC4_RULE_MODELS, ZEN1,
	     "AMD family 23 model 1 (Zen 1): 32-bit state, 16 bytes gathered "
	     "by SSE2 (measured 0.997-1.00 of the best; the 32-bit lanes lead "
	     "the batch calls)",
	     "int-16x-sse2", "long-16x-sse41", "int-8x"),
	/* Zen+ and Zen 2 (models 8, 24, 49, 71, 96, 104, 113, 144...) */
	RULE("AuthenticAMD", 23, 23, 0, INT_MAX, RC4_RULE_FAMILY, ZEN1,
	     "AMD family 23, other models (Zen+, Zen 2): the best worst case "
	     "over the family's profiles, 16 bytes gathered by SSE2",
	     "int-16x-sse2", "long-16x-sse41", "int-8x"),

	RULE("AuthenticAMD", 25, 25, 1, 1, RC4_RULE_MODELS, ZEN3,
	     "AMD family 25 model 1 (Zen 3): 64-bit state, 16 bytes gathered "
	     "by SSE4.1 (measured the best in all three runs)",
	     "long-16x-sse41", "long-16x-sse2", "int-8x"),
	/* Zen 4: the 8-bit cells, within the tie window of the best, because
	 * their lanes lead both batch calls. */
	RULE("AuthenticAMD", 25, 25, 17, 17, RC4_RULE_MODELS, ZEN4,
	     "AMD family 25 model 17 (Zen 4): 8-bit state, S[x] read 5 bytes "
	     "ahead (measured 0.965 of the best, within the tie window, and "
	     "the 8-bit lanes lead the batch calls)",
	     "char-ring5-sse41", "long-16x-sse41", "int-8x"),
	/* Vermeer, Raphael, Phoenix...: no AVX-512 kernel tells Zen 4 apart
	 * for the better (char-ring4-avx512 0.88 there). */
	RULE("AuthenticAMD", 25, 25, 0, INT_MAX, RC4_RULE_FAMILY,
	     ZEN3 " " ZEN4,
	     "AMD family 25, other models (Zen 3, Zen 4): the best worst case "
	     "over the family's profiles, 64-bit state, 16 bytes gathered by "
	     "SSE4.1 (measured 0.97 of the best or more on both)",
	     "long-16x-sse41", "long-16x-sse2", "int-8x"),

	RULE("AuthenticAMD", 26, 26, 2, 2, RC4_RULE_MODELS, ZEN5,
	     "AMD family 26 model 2 (Zen 5): 8-bit state, S[x] read 4 ahead "
	     "from any x, short calls from 1 KiB of keystream made ahead "
	     "(measured 1.45x int-8x)",
	     "char-ahead-ring4-avx512", "char-ring5-sse41", "long-16x-sse41",
	     "int-8x"),
	/* AMD's newest measured family, so it also covers the later ones. */
	RULE("AuthenticAMD", 26, INT_MAX, 0, INT_MAX, RC4_RULE_FAMILY, ZEN5,
	     "AMD family 26, other models, and later families: the best worst "
	     "case over the family's profiles, the ring4 loop behind "
	     "keystream made ahead",
	     "char-ahead-ring4-avx512", "char-ring5-sse41", "long-16x-sse41",
	     "int-8x"),

	/* Emerald Rapids (a loaded profile): byte stores cost nothing extra
	 * here, unlike Zen 3. */
	RULE("GenuineIntel", 6, 6, 207, 207, RC4_RULE_MODELS, EMR,
	     "Intel family 6 model 207 (Emerald Rapids): 8-bit state, S[x] "
	     "read 5 ahead, short calls from keystream made ahead (measured "
	     "0.98 of the best)",
	     "char-ahead-ring5-sse41", "long-16x-sse41", "int-8x"),

	RULE(NULL, 0, INT_MAX, 0, INT_MAX, RC4_RULE_ANY, ALL,
	     "a CPU no rule names: the best worst case over every profile, the "
	     "AVX-512 ring loop, else 16 bytes gathered by SSE4.1 or SSE2, else "
	     "int-8x",
	     ANY_SINGLE),

	{ NULL, 0, 0, 0, 0, { NULL }, RC4_RULE_ANY, NULL, NULL },
};

/* rc4tune_set_keys: the assembly lanes lead on the profiles, of one layout
 * or the other, but for Rocket Lake and Zen 5, where char-8lane leads and
 * char-8lane-asm is 0.97 and 0.95.  A walk takes the first of the
 * single-stream kernel's family: serial for the 64-bit cells, whose
 * assembly lanes (long-8lane-asm) no profile of a CPU whose rule gives a
 * 64-bit kernel has measured. */
static const struct rc4_rule set_keys_rules[] = {
	RULE(NULL, 0, INT_MAX, 0, INT_MAX, RC4_RULE_ANY, ALL,
	     "any CPU: 8 key schedules at once in the assembly loop (measured "
	     "0.95 of the best or more on every profile), else in C, of the "
	     "kernel's state layout, else one key at a time",
	     "char-8lane-asm", "int-8lane-asm", "char-8lane", "int-8lane",
	     "serial"),

	{ NULL, 0, 0, 0, 0, { NULL }, RC4_RULE_ANY, NULL, NULL },
};

/* rc4tune_crypt_many: within the single-stream kernel's family, one
 * stream at a time leads where a rule names no lanes: Zen 3 (64-bit cells,
 * no lanes measured). */
static const struct rc4_rule crypt_many_rules[] = {
	RULE("AuthenticAMD", 23, 23, 1, 1, RC4_RULE_MODELS, ZEN1,
	     "AMD family 23 model 1 (Zen 1): 8 streams of 32-bit state in "
	     "assembly (measured the best; serial 0.79-0.80)",
	     "int-8lane-asm", "serial"),
	RULE("AuthenticAMD", 25, 25, 1, 1, RC4_RULE_MODELS, ZEN3,
	     "AMD family 25 model 1 (Zen 3): the single-stream kernel, stream "
	     "by stream (the best of its 64-bit family, 0.95 of int-8lane-asm)",
	     "serial"),
	/* Emerald Rapids: char-8lane-asm for the single rule's 8-bit keys */
	RULE("GenuineIntel", 6, 6, 207, 207, RC4_RULE_MODELS, EMR,
	     "Intel family 6 model 207 (Emerald Rapids): 8 streams of 32-bit "
	     "state in assembly (measured the best; serial 0.65)",
	     "int-8lane-asm", "char-8lane-asm", "serial"),
	RULE("AuthenticAMD", 25, 25, 17, 17, RC4_RULE_MODELS, ZEN4,
	     "AMD family 25 model 17 (Zen 4): 8 streams of 8-bit state in "
	     "assembly (measured the best, serial 0.83)",
	     "char-8lane-asm", "serial"),
	/* Rocket Lake by CPUID (the VM measured has Sapphire Rapids' flags:
	 * doc/cpus/GenuineIntel-6-167.md): the 8-bit lanes' keystream core
	 * is slow there (char-8lane-asm 0.60); widened to 32-bit cells they
	 * run as fast as int-8lane-asm. */
	RULE("GenuineIntel", 6, 6, 167, 167, RC4_RULE_MODELS, RKL,
	     "Intel family 6 model 167 (Rocket Lake): 8 streams of 8-bit "
	     "state on the 32-bit assembly lanes (measured 0.99-1.00 of the "
	     "best, serial 0.85-0.87)",
	     "char-8lane-wide", "serial"),
	/* AMD's newest measured family, so it also covers the later ones. */
	RULE("AuthenticAMD", 26, INT_MAX, 0, INT_MAX, RC4_RULE_FAMILY, ZEN5,
	     "AMD family 26 and later: 8 streams of 8-bit state in assembly "
	     "(measured the best on Zen 5)",
	     "char-8lane-asm", "serial"),
	/* Within the kernel's family serial's worst case is 0.73 (Zen 5;
	 * 0.83 on Zen 4, 0.84 on Zen 1, 0.85 on Rocket Lake: the lanes lead
	 * there, and their rules say so); char-8lane-asm's, 0.60 (Rocket
	 * Lake). */
	RULE(NULL, 0, INT_MAX, 0, INT_MAX, RC4_RULE_ANY, ALL,
	     "any other CPU: the best worst case over every profile (with "
	     "the tie window) among the kernel's state layout, the "
	     "single-stream kernel stream by stream",
	     "serial"),

	{ NULL, 0, 0, 0, 0, { NULL }, RC4_RULE_ANY, NULL, NULL },
};

static const struct rc4_rule *const tables[RC4K_KINDS] = {
	[RC4K_SINGLE] = single_rules,
	[RC4K_SET_KEYS] = set_keys_rules,
	[RC4K_CRYPT_MANY] = crypt_many_rules,
};

const struct rc4_rule *rc4_heuristic_rules(enum rc4k_kind kind)
{
	return tables[kind];
}

const struct rc4_rule *rc4_heuristic_match(enum rc4k_kind kind,
					   const struct rc4_cpu *cpu)
{
	if (cpu == NULL)
		return NULL;
	for (const struct rc4_rule *r = tables[kind]; r->kernels[0]; r++)
		if ((r->vendor == NULL || strcmp(cpu->vendor, r->vendor) == 0) &&
		    cpu->family >= r->family_min &&
		    cpu->family <= r->family_max &&
		    cpu->model >= r->model_min && cpu->model <= r->model_max)
			return r;
	return NULL;
}

const char *const *rc4_heuristic_rule(enum rc4k_kind kind,
				      const struct rc4_cpu *cpu,
				      const char **rule)
{
	const struct rc4_rule *r = rc4_heuristic_match(kind, cpu);

	if (rule)
		*rule = r ? r->why
		     : cpu ? "no rule for this CPU"
			   : "CPU not identified: no rule applies";
	return r ? r->kernels : NULL;
}

const struct rc4k_info *rc4_rule_walk(const struct rc4_rule *rule,
				      enum rc4k_kind kind,
				      const struct rc4k *one, bool here,
				      rc4_find_fn *find, rc4_skip_fn *skipped,
				      void *arg)
{
	for (const char *const *names = rule ? rule->kernels : NULL;
	     names && *names; names++) {
		const struct rc4k_info *k = find(kind, *names);
		/* not here: a dump's CPU, whose features the tuner may have
		 * told the checks (rc4k_feats_assume); no self-test, which
		 * would run on this CPU */
		const char *why = k == NULL ? "not in this build"
				  : kind != RC4K_SINGLE && one != NULL &&
					      rc4k_misfit_reason(k, one) != NULL
				      ? rc4k_misfit_reason(k, one)
				  : here ? rc4k_refused(k)
				  : rc4k_feats_assumed() && !rc4k_usable(k)
				      ? "that CPU cannot run it"
				      : NULL;
		if (why == NULL)
			return k;
		if (skipped != NULL)
			skipped(arg, *names, why, names[1] != NULL);
	}
	return NULL;
}

const struct rc4k_info *rc4_heuristic_walk(enum rc4k_kind kind,
					   const struct rc4k *one,
					   const struct rc4_cpu *cpu, bool here,
					   rc4_find_fn *find, const char **rule,
					   rc4_skip_fn *skipped, void *arg)
{
	rc4_heuristic_rule(kind, cpu, rule);
	return rc4_rule_walk(rc4_heuristic_match(kind, cpu), kind, one, here, find,
			     skipped, arg);
}
