/* SPDX-License-Identifier: MIT */
/* rules.c - the CPU rules as data, for tests/rules/test_rules.py:
 *
 *   rules table KIND              every row: index, vendor (* any),
 *                                 families, models, basis, profiles
 *   rules kernels KIND I          row I's kernels, in order
 *   rules walk KIND I ONE [NAME...]
 *                                 the kernel rc4_rule_walk takes from row
 *                                 I when only the kernels NAME... run,
 *                                 for the keys of single-stream kernel
 *                                 ONE (a batch kind; "-": none)
 *   rules match KIND VENDOR FAMILY MODEL
 *                                 the row a CPU matches (-1: none)
 *
 * KIND is single, set_keys or crypt_many (each batch call's rules).  A walk sees stand-ins for the names given,
 * not this build's kernels, so the rules are judged on any build (a
 * cross build has no x86-64 assembly, and the profiles are x86's); a
 * stand-in's layout is the one its name says (librc4tune(3) KERNELS). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "heuristic.h"

static const char *const basis_names[] = {
	[RC4_RULE_MODELS] = "models",
	[RC4_RULE_FAMILY] = "family",
	[RC4_RULE_ANY] = "any",
	[RC4_RULE_PUBLISHED] = "published",
};

static char **usable;
static int nusable;

/* The cell width NAME says: char-, int-, long- first; serial has none. */
static uint8_t width_of(const char *name)
{
	static const struct { const char *prefix; uint8_t width; } w[] = {
		{ "char-", 1 }, { "int-", 4 }, { "long-", 8 } };

	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (strncmp(name, w[i].prefix, strlen(w[i].prefix)) == 0)
			return w[i].width;
	return 0;
}

/* A stand-in for each usable name, whatever this build compiled. */
static const struct rc4k_info *find_usable(enum rc4k_kind kind,
					   const char *name)
{
	static struct rc4k_info stand_in;

	for (int i = 0; i < nusable; i++)
		if (strcmp(usable[i], name) == 0) {
			stand_in.name = usable[i];
			stand_in.kind = kind;
			stand_in.width = width_of(name);
			return &stand_in;
		}
	return NULL;
}

static int table(enum rc4k_kind kind)
{
	const struct rc4_rule *r = rc4_heuristic_rules(kind);

	for (int i = 0; r[i].kernels[0]; i++)
		printf("%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n", i,
		       r[i].vendor ? r[i].vendor : "*", r[i].family_min,
		       r[i].family_max, r[i].model_min, r[i].model_max,
		       basis_names[r[i].basis],
		       r[i].profiles ? r[i].profiles : "");
	return 0;
}

/* Row I (a decimal string) of KIND's table, or NULL. */
static const struct rc4_rule *row(enum rc4k_kind kind, const char *i)
{
	const struct rc4_rule *r = rc4_heuristic_rules(kind);
	char *end;
	long n = i ? strtol(i, &end, 10) : -1;

	if (i == NULL || *end != '\0' || n < 0)
		return NULL;
	for (long j = 0; j < n; j++)
		if (r[j].kernels[0] == NULL)
			return NULL;
	return r[n].kernels[0] ? &r[n] : NULL;
}

/* The kind a test names: single, or a batch call's JSON name. */
static enum rc4k_kind kind_named(const char *name)
{
	if (strcmp(name, "single") == 0)
		return RC4K_SINGLE;
	if (strcmp(name, "set_keys") == 0)
		return RC4K_SET_KEYS;
	if (strcmp(name, "crypt_many") == 0)
		return RC4K_CRYPT_MANY;
	return RC4K_KINDS;
}

int main(int argc, char **argv)
{
	enum rc4k_kind kind;

	kind = argc < 3 ? RC4K_KINDS : kind_named(argv[2]);
	if (kind == RC4K_KINDS) {
		fprintf(stderr, "usage: rules table|kernels|walk|match "
				"single|set_keys|crypt_many ...\n");
		return 2;
	}
	if (strcmp(argv[1], "table") == 0)
		return table(kind);
	const struct rc4_rule *r = row(kind, argc >= 4 ? argv[3] : NULL);
	if (strcmp(argv[1], "kernels") == 0 && r != NULL) {
		for (const char *const *k = r->kernels; *k; k++)
			printf("%s\n", *k);
		return 0;
	}
	if (strcmp(argv[1], "walk") == 0 && r != NULL && argc >= 5) {
		struct rc4k one = { .info = { .name = argv[4],
					      .width = width_of(argv[4]) } };
		usable = argv + 5;
		nusable = argc - 5;
		const struct rc4k_info *k = rc4_rule_walk(
			r, kind, strcmp(argv[4], "-") ? &one : NULL, false,
			find_usable, NULL, NULL);
		printf("%s\n", k ? k->name : "-");
		return 0;
	}
	if (strcmp(argv[1], "match") == 0 && argc == 6) {
		struct rc4_cpu cpu = { .family = atoi(argv[4]),
				       .model = atoi(argv[5]) };
		snprintf(cpu.vendor, sizeof cpu.vendor, "%s", argv[3]);
		const struct rc4_rule *m = rc4_heuristic_match(kind, &cpu);
		printf("%d\n", m ? (int)(m - rc4_heuristic_rules(kind)) : -1);
		return 0;
	}
	fprintf(stderr, "rules: %s: unknown or incomplete\n", argv[1]);
	return 2;
}
