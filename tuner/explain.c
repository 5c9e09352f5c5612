/* SPDX-License-Identifier: MIT */
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
#include "kernels/cpufeat.h"
#include "json.h"
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
		       (*k)->kind == RC4K_BATCH ? "batch: " : "", (*k)->summary);
	return EXIT_SUCCESS;
}

/* For rc4_sections_collect: the sections that speak for the CPU whose
 * section ARG names (NULL: any CPU): [pin] and those of that name. */
static bool wanted(void *arg, const struct rc4_section *s)
{
	const char *section = arg;

	return rc4_section_kind(s->name) == RC4_SECTION_PIN ||
	       (section ? strcmp(s->name, section) == 0
			: rc4_section_kind(s->name) == RC4_SECTION_CPU);
}

/* Into SS, in file order, the sections of PATH that speak for SECTION,
 * their text pointers cleared (the file's bytes are gone).  Out of
 * memory, those not kept go unsaid. */
static void owners_read(const char *path, const char *section,
			struct rc4_sections *ss)
{
	size_t len;
	char *buf = rc4_conf_load(path, &len);

	if (buf != NULL)
		rc4_sections_collect(ss, buf, len, wanted, (void *)section);
	for (size_t i = 0; i < ss->n; i++)
		ss->s[i].text = NULL;
	free(buf);
}

/* After K's confidence, in parentheses: its reason when uncertain, and
 * what it rests on where the record has K's basis line. */
static void basis_print(const struct rc4_record_key *k)
{
	const struct rc4_record_basis *b = &k->basis;

	if (!b->present) {
		printf("%s%s%s", k->uncertain ? " (" : "",
		       k->uncertain ? k->why : "", k->uncertain ? ")" : "");
		return;
	}
	printf(" (%s%s", k->uncertain ? k->why : "", k->uncertain ? ": " : "");
	if (b->lower < 0)
		printf("the only kernel in the final");
	else if (b->finalists == 2)
		printf("at least %.3f of the other kernel in the final at 95 %%",
		       b->lower);
	else
		printf("at least %.3f of each of the %d others in the final at "
		       "95 %%",
		       b->lower, b->finalists - 1);
	printf(", %d round%s, window %.1f %%)", b->rounds,
	       b->rounds == 1 ? "" : "s", b->window * 100);
}

/* Whose section S (of PATH) is, as one line to stdout: a person's,
 * pinned, or the tuner's with each key's confidence and its basis. */
static void owner_line(const char *prefix, const char *path,
		       const struct rc4_section *s)
{
	const struct rc4_record *r = &s->record;

	printf("%s%s:%d: [%s]: ", prefix, path, s->line, s->name);
	if (rc4_section_kind(s->name) == RC4_SECTION_PIN) {
		printf("pinned: outranks every [cpu ...] section; no tuner "
		       "run changes it\n");
		return;
	}
	printf("%s", rc4_owner_name(r->owner));
	if (r->owner == RC4_OWNER_TUNER) {
		printf(" (rc4tune %s, %s", r->by, r->at);
		for (int k = 0; k < RC4K_KINDS; k++)
			if (r->key[k].present) {
				printf("; %s %s", rc4_keys[k].name,
				       r->key[k].uncertain ? "uncertain"
							   : "confident");
				basis_print(&r->key[k]);
			}
		printf(")");
	}
	printf("\n");
}

/* What --explain says, gathered once for either printer. */
struct explanation {
	struct rc4_select_in in;
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX]; /* this CPU's; "" if not identified */
	struct explained {
		const struct rc4k_info *k;
		struct rc4_choice how;
		const char *rule; /* the CPUID rule for this CPU, in words */
	} kind[RC4K_KINDS];
	char trail[RC4K_KINDS][RC4_TRAIL_MAX];
	struct rc4_sections owners; /* owners_read's for this CPU */
};

/* What the library chooses here: the same selection as its first use
 * (rc4_select_all), the config read once. */
static void gather(struct explanation *e)
{
	struct rc4_selection sel;

	rc4_select_live(&e->in, &e->cpu);
	rc4_select_all(&e->in, &sel, e->trail);
	for (int k = 0; k < RC4K_KINDS; k++) {
		struct explained *x = &e->kind[k];
		x->k = sel.k[k];
		x->how = sel.how[k];
		rc4_heuristic_rule((enum rc4k_kind)k, e->in.cpu, &x->rule);
	}
	e->section[0] = '\0';
	e->owners = (struct rc4_sections){ 0 };
	if (e->in.cpu != NULL) {
		rc4_section_name(e->in.cpu, e->section);
		owners_read(e->in.conf, e->section, &e->owners);
	}
}

/* The flows a program runs (librc4tune(3), Many keys at once): which
 * call's kernel sets its keys up, which runs them. */
static const struct flow {
	const char *name, *calls;
	enum rc4k_kind set_up, run;
} flows[] = {
	{ "keys", "rc4tune_set_keys, then rc4tune_crypt_many", RC4K_SET_KEYS,
	  RC4K_CRYPT_MANY },
	{ "continue", "rc4tune_set_keys, then rc4tune_crypt", RC4K_SET_KEYS,
	  RC4K_SINGLE },
	{ "single", "rc4tune_set_key, then rc4tune_crypt", RC4K_SINGLE,
	  RC4K_SINGLE },
};
enum { NFLOWS = sizeof flows / sizeof flows[0] };

/* The section of this CPU's that kind K's kernel came from, or NULL. */
static const struct rc4_section *holder(const struct explanation *e, int k)
{
	const struct rc4_choice *how = &e->kind[k].how;

	if (how->source != RC4_FROM_CONF + RC4_CONF_CPU)
		return NULL;
	for (size_t i = 0; i < e->owners.n; i++)
		for (int j = 0; j < RC4_KEYS; j++)
			if (e->owners.s[i].key[j].line == how->line)
				return &e->owners.s[i];
	return NULL;
}

/* The figures the tuner wrote the single kind's split in use on: its
 * section's record split, when it is the tuner's and the split is the
 * one the library took; else NULL. */
static const struct rc4_record_split *split_figures(const struct explanation *e)
{
	const struct rc4_split *use = &e->kind[RC4K_SINGLE].how.split;
	const struct rc4_section *h = holder(e, RC4K_SINGLE);
	const struct rc4_record_split *sp = h ? &h->record.split : NULL;

	return sp && use->below > 0 && h->record.owner == RC4_OWNER_TUNER &&
	       sp->present && sp->below == use->below &&
	       strcmp(sp->value, use->short_kernel->info.name) == 0 ? sp : NULL;
}

/* The split in use, as a line of --explain's text: the threshold, both
 * kernels, and the figures the tuner chose it on. */
static void split_text(const struct explanation *e)
{
	const struct rc4_split *sp = &e->kind[RC4K_SINGLE].how.split;
	const struct rc4_record_split *f = split_figures(e);
	const char *long_name = sp->long_kernel ? sp->long_kernel->info.name
						: "";

	if (sp->below == 0)
		return;
	printf("split: calls shorter than %zu bytes run %s, longer ones %s",
	       sp->below, sp->short_kernel->info.name, long_name);
	if (f == NULL) {
		printf(" (set by a person: no figures)\n");
		return;
	}
	printf(": %s measured", sp->short_kernel->info.name);
	for (int i = 0; i < f->n; i++)
		printf("%s %.3fx %s's rate at %lu bytes", i ? "," : "",
		       f->cell[i].ratio, long_name, f->cell[i].bytes);
	printf("; the workload's score %.3fx its score without it\n", f->gain);
}

static void print_text(const struct explanation *e)
{
	for (int k = 0; k < RC4K_KINDS; k++) {
		/* the first line is the kernel alone, for scripts */
		if (k > 0)
			printf("%s ", rc4_keys[k].name);
		printf("%s\n", e->kind[k].k->name);
		rc4_trail_print(stdout, "  ", e->trail[k]);
		if (k == RC4K_SINGLE)
			split_text(e);
	}
	for (int i = 0; i < NFLOWS; i++) {
		const char *run = e->kind[flows[i].run].k->name;
		printf("flow %s (%s): set up by %s, run by %s", flows[i].name,
		       flows[i].calls, e->kind[flows[i].set_up].k->name, run);
		/* serial runs each key's own kernel: the single kind's */
		if (strcmp(run, "serial") == 0)
			printf(" (%s, key by key)", e->kind[RC4K_SINGLE].k->name);
		printf("\n");
	}
	for (size_t i = 0; i < e->owners.n; i++)
		owner_line("config ", e->in.conf, &e->owners.s[i]);
}

static const char *const source_names[] = {
	[RC4_FROM_ENV] = "env",
	[RC4_FROM_CONF + RC4_CONF_PIN] = "pin",
	[RC4_FROM_CONF + RC4_CONF_CPU] = "section",
	[RC4_FROM_CONF + RC4_CONF_DEFAULT] = "default",
	[RC4_FROM_RULE] = "rule",
	[RC4_FROM_PORTABLE] = "portable",
};

static const char *const owner_words[] = {
	[RC4_OWNER_TUNER] = "tuner", [RC4_OWNER_HAND] = "person",
	[RC4_OWNER_EDITED] = "edited", [RC4_OWNER_UNTRUSTED] = "untrusted",
};

/* The lines of TRAIL as a JSON array. */
static void json_trail(const char *trail)
{
	const char *sep = "";

	printf("[");
	for (const char *nl; (nl = strchr(trail, '\n')); trail = nl + 1) {
		char line[RC4_TRAIL_MAX];
		snprintf(line, sizeof line, "%.*s", (int)(nl - trail), trail);
		printf("%s\n      ", sep);
		json_string(stdout, line);
		sep = ",";
	}
	printf("]");
}

/* What the confidence of RK (NULL: none) rests on, as a JSON member:
 * null, or its basis line's figures (lower null: no other finalist). */
static void json_basis(const struct rc4_record_key *rk)
{
	const struct rc4_record_basis *b = rk ? &rk->basis : NULL;

	printf(",\n    \"basis\": ");
	if (b == NULL || !b->present) {
		printf("null");
		return;
	}
	printf("{\"lower\": ");
	printf(b->lower < 0 ? "null" : "%.3f", b->lower);
	printf(", \"window\": %.3f, \"finalists\": %d, \"rounds\": %d}",
	       b->window, b->finalists, b->rounds);
}

/* The single kind's split in use as a JSON member: null, or the
 * threshold, the short kernel, its line, and the tuner's figures (null
 * for a person's split). */
static void json_split(const struct explanation *e)
{
	const struct rc4_split *sp = &e->kind[RC4K_SINGLE].how.split;
	const struct rc4_record_split *f = split_figures(e);

	printf(",\n    \"split\": ");
	if (sp->below == 0) {
		printf("null");
		return;
	}
	printf("{\"short_kernel\": ");
	json_string(stdout, sp->short_kernel->info.name);
	printf(", \"short_below\": %zu, \"line\": %d, \"gain\": ", sp->below,
	       sp->line);
	printf(f ? "%.3f" : "null", f ? f->gain : 0);
	printf(", \"ratios\": ");
	if (f == NULL)
		printf("null");
	for (int i = 0; f && i < f->n; i++)
		printf("%s\"%lu\": %.3f", i ? ", " : "{", f->cell[i].bytes,
		       f->cell[i].ratio);
	printf("%s}", f ? "}" : "");
}

/* Kind K's choice as a JSON member: where its kernel came from, and for
 * this CPU's section whose it is and the record's confidence. */
static void json_kind(const struct explanation *e, int k)
{
	const struct explained *x = &e->kind[k];
	enum rc4_source src = x->how.source;
	bool in_conf = src >= RC4_FROM_CONF && src < RC4_FROM_RULE;
	const struct rc4_section *h = holder(e, k);
	const struct rc4_record_key *rk = h && h->record.key[k].present &&
		h->record.owner == RC4_OWNER_TUNER ? &h->record.key[k] : NULL;

	printf(",\n  \"%s\": {\n    \"name\": ", rc4_keys[k].name);
	json_string(stdout, x->k->name);
	printf(",\n    \"source\": \"%s\",\n    \"file\": ", source_names[src]);
	json_string_or_null(stdout, in_conf ? e->in.conf : NULL);
	printf(",\n    \"line\": ");
	printf(in_conf ? "%d" : "null", x->how.line);
	/* no tuner run writes [pin] or [default] */
	printf(",\n    \"owner\": ");
	json_string_or_null(stdout, h ? owner_words[h->record.owner]
				    : in_conf ? "person" : NULL);
	printf(",\n    \"confidence\": ");
	json_string_or_null(stdout, rk ? rk->uncertain ? "uncertain" : "high"
				       : NULL);
	printf(",\n    \"uncertain_because\": ");
	json_string_or_null(stdout, rk && rk->uncertain ? rk->why : NULL);
	json_basis(rk);
	printf(",\n    \"rule\": ");
	json_string_or_null(stdout, x->rule);
	if (k == RC4K_SINGLE)
		json_split(e);
	printf(",\n    \"trail\": ");
	json_trail(e->trail[k]);
	printf("\n  }");
}

/* This CPU's section as the library reads it (the last of its name), as
 * a JSON value: where it is and whose, or null. */
static void json_section(const struct explanation *e)
{
	const struct rc4_section *s = NULL;

	for (size_t i = 0; i < e->owners.n; i++)
		if (rc4_section_kind(e->owners.s[i].name) != RC4_SECTION_PIN)
			s = &e->owners.s[i];
	if (s == NULL) {
		printf("null");
		return;
	}
	bool tuner = s->record.owner == RC4_OWNER_TUNER;
	printf("{\"line\": %d, \"owner\": \"%s\", \"by\": ", s->line,
	       owner_words[s->record.owner]);
	json_string_or_null(stdout, tuner ? s->record.by : NULL);
	printf(", \"at\": ");
	json_string_or_null(stdout, tuner ? s->record.at : NULL);
	printf("}");
}

static void print_json(const struct explanation *e)
{
	/* rc4_choice.conf's values, from -1 to RC4_CONF_UNREAD */
	static const char *const status[] = { "refused", "read", "missing",
					      "not read" };
	int conf = RC4_CONF_UNREAD;

	for (int k = 0; k < RC4K_KINDS && conf == RC4_CONF_UNREAD; k++)
		conf = e->kind[k].how.conf;
	printf("{\n  \"rc4tune\": \"%s\",\n  \"cpu\": ", PACKAGE_VERSION);
	json_string_or_null(stdout, e->section[0] ? e->section : NULL);
	printf(",\n  \"cpu_unidentified_because\": ");
	json_string_or_null(stdout, e->in.cpu ? NULL : e->in.cpu_why);
	printf(",\n  \"config\": ");
	json_string(stdout, e->in.conf);
	printf(",\n  \"config_status\": \"%s\",\n  \"section\": ",
	       status[conf + 1]);
	json_section(e);
	for (int k = 0; k < RC4K_KINDS; k++)
		json_kind(e, k);
	printf(",\n  \"flows\": {");
	for (int i = 0; i < NFLOWS; i++)
		printf("%s\n    \"%s\": {\"set_up\": \"%s\", \"run\": \"%s\"}",
		       i ? "," : "", flows[i].name,
		       e->kind[flows[i].set_up].k->name,
		       e->kind[flows[i].run].k->name);
	printf("}\n}\n");
}

int explain_choice(bool json)
{
	struct explanation e;

	gather(&e);
	if (json)
		print_json(&e);
	else
		print_text(&e);
	rc4_sections_free(&e.owners);
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

/* The CPU of DUMP (a raw CPUID dump), or NULL: this one, and its
 * section's name, and a dump's CPU's features into FEATS (may be NULL);
 * 0, or -1 after saying why not. */
static int identify(struct rc4_cpu *cpu, char section[RC4_SECTION_MAX],
		    const char *dump, unsigned *feats)
{
	const char *why;

	if (dump == NULL && rc4_section_here(cpu, section, &why) == 0)
		return 0;
	if (dump != NULL && cpuid_from_dump(cpu, feats, dump, &why) == 0) {
		rc4_section_name(cpu, section);
		return 0;
	}
	fprintf(stderr, "rc4tune: %s: %s\n", dump ? dump : "this CPU", why);
	return -1;
}

int explain_section(const char *dump)
{
	struct rc4_cpu cpu;
	char section[RC4_SECTION_MAX];

	if (identify(&cpu, section, dump, NULL) != 0)
		return EXIT_FAILURE;
	printf("%s\n", section);
	return EXIT_SUCCESS;
}

int explain_heuristic(const char *dump)
{
	struct rc4_cpu cpu;
	const char *rule;
	char section[RC4_SECTION_MAX];
	unsigned feats = 0;

	if (identify(&cpu, section, dump, &feats) != 0)
		return EXIT_FAILURE;
	/* a dump's CPU is not here to ask what it runs: its features are
	 * (what that CPU would run, not this one; no self-test) */
	if (dump != NULL)
		rc4k_feats_assume(&feats);
	const struct rc4k *single = NULL;
	for (int k = 0; k < RC4K_KINDS; k++) {
		struct passed p = { "", 0 };
		const struct rc4k_info *chosen = rc4_heuristic_walk(
			(enum rc4k_kind)k, single, &cpu, dump == NULL, rc4k_find,
			&rule, passed_over, &p);
		/* the batch kinds' rules walked for the single rule's keys */
		if (k == RC4K_SINGLE)
			single = rc4k_single(chosen ? chosen
					  : rc4k_kinds[k].fallback);
		/* the name first, always a kernel this build has: what the
		 * library would use; then each other kind's, after its key */
		if (k > 0)
			printf("%s ", rc4_keys[k].name);
		printf("%s\t%s: %s%s%s\n",
		       chosen ? chosen->name : rc4k_kinds[k].fallback->name,
		       section, rule, p.text,
		       chosen ? "" : "; the portable default");
	}
	rc4k_feats_assume(NULL);
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
	bool identified = rc4_section_here(&cpu, section, &cpu_why) == 0;
	int rc = checkconf(c.path, identified ? section : NULL, print_note, &c,
			   &conf, why, sizeof why);
	if (rc > 0 && file != NULL) {
		fprintf(stderr, "rc4tune: %s: no such file\n", c.path);
		return EXIT_FAILURE;
	}
	if (rc > 0) {
		/* a machine not tuned yet: normal, as for the library */
		printf("%s: no such file; without a config the library "
		       "uses its built-in CPU rules\n", c.path);
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
	struct rc4_sections o = { 0 };
	owners_read(c.path, NULL, &o);
	for (size_t i = 0; i < o.n; i++)
		owner_line("", c.path, &o.s[i]);
	rc4_sections_free(&o);
	printf("%s: %s (%d error%s, %d warning%s)\n", c.path,
	       c.errors ? "not OK" : "OK", c.errors, c.errors == 1 ? "" : "s",
	       c.warnings, c.warnings == 1 ? "" : "s");
	return c.errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
