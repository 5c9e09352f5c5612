/* SPDX-License-Identifier: MIT */
/* select.c - the precedence of librc4tune(3) SELECTION as a list of steps,
 * each proposing a kernel or saying why not (RC4TUNE_DEBUG=1, --explain). */
#include <config.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "heuristic.h"
#include "kernels/family.h"
#include "sectionname.h"
#include "select.h"

/* One selection under way. */
struct sel {
	enum rc4k_kind kind;
	const struct rc4_select_in *in;
	char *buf; /* the trail; NULL: nobody asked, format nothing */
	size_t size, len;
	char section[RC4_SECTION_MAX]; /* this CPU's */
	struct rc4_conf conf;
	int conf_rc; /* rc4_conf_read's, or RC4_CONF_UNREAD */
	char conf_why[RC4_CONF_WHY_MAX]; /* why it was refused */
	bool conf_said; /* this kind's trail has said how it was read */
	char step[RC4_SECTION_MAX + 32]; /* how the trail names the step */
	int line; /* the config line of the step's key, 0 if none */
	/* A config step's key, RC4_KEY_NONE for the other steps (whose
	 * names select_kind judges); its section, judged (rc4_keys_judge). */
	enum rc4_key row;
	int slot; /* a config step's section: RC4_CONF_PIN ... */
	struct rc4_keys_use use;
};

/* At most this much of a name from the environment or a config file goes
 * into the trail, so that a huge value cannot push the choice out. */
#define SHOWN_MAX 64

void rc4_printable(char *s)
{
	for (; *s != '\0'; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}

/* One line of the trail, after the kind's prefix. */
static void say(struct sel *s, const char *fmt, ...)
{
	va_list ap;

	if (s->buf == NULL || s->len + 1 >= s->size)
		return;
	int n = snprintf(s->buf + s->len, s->size - s->len - 1, "%s",
			 rc4k_kinds[s->kind].tag);
	if (n < 0)
		return;
	size_t room = s->size - s->len - 1;
	size_t used = (size_t)n < room ? (size_t)n : room - 1;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->len + used, room - used, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	used += (size_t)n < room - used ? (size_t)n : room - used - 1;
	rc4_printable(s->buf + s->len);
	s->len += used;
	s->buf[s->len++] = '\n';
	s->buf[s->len] = '\0';
}

/* The config, read at most once a selection of every kind, each kind's
 * trail saying how; 0 when it was read. */
static int conf(struct sel *s)
{
	const char *path = s->in->conf, *why = s->conf_why;

	if (s->conf_rc == RC4_CONF_UNREAD)
		s->conf_rc = rc4_conf_read(path, s->in->cpu ? s->section : NULL,
					   &s->conf, NULL, s->conf_why,
					   sizeof s->conf_why);
	if (s->conf_said)
		return s->conf_rc;
	s->conf_said = true;
	if (s->conf_rc > 0)
		say(s, "config %s: no such file", path);
	else if (s->conf_rc < 0 && s->conf.bad_line != 0)
		say(s, "config %s: whole file ignored: line %d: %s", path,
		    s->conf.bad_line, why);
	else if (s->conf_rc < 0)
		say(s, "config %s: whole file ignored: %s", path, why);
	else
		say(s, "config %s: read", path);
	return s->conf_rc;
}

/* --- the steps: each returns the name of the kernel it proposes and
 * names itself in s->step, or returns NULL having said why not --- */

static const char *from_env(struct sel *s)
{
	const char *var = rc4k_kinds[s->kind].env, *value = s->in->env[s->kind];

	if (var == NULL)
		return NULL;
	if (value == NULL)
		say(s, "%s: not set", var);
	snprintf(s->step, sizeof s->step, "%s", var);
	return value;
}

/* The split keys of section SLOT that its judgement passed over, in the
 * trail: the single kind's, where the section gives no kernel too. */
static void split_passed(struct sel *s)
{
	for (int r = 0; r < RC4_KEYS; r++) {
		const struct rc4_key_bad *bad = &s->use.bad[r];
		enum rc4_key_role role = rc4_keys[r].role;
		if (bad->line != 0 &&
		    (role == RC4_ROLE_SHORT || role == RC4_ROLE_BYTES))
			say(s, "split: config line %d: %s = \"%.*s\": %s; no "
			       "split",
			    bad->line, rc4_keys[r].name, SHOWN_MAX,
			    s->conf.value[s->slot][r].name,
			    bad->why ? bad->why : "unknown kernel");
	}
}

/* The kind's kernel from the step's config section (s->slot), judged
 * with the section's other keys (rc4_keys_judge). */
static const char *from_conf(struct sel *s)
{
	const char *section = s->slot == RC4_CONF_PIN	  ? "pin"
			      : s->slot == RC4_CONF_DEFAULT ? "default"
							    : s->section;

	if (conf(s) != 0)
		return NULL;
	const struct rc4_conf_value *v = s->conf.value[s->slot];
	struct rc4_keys_how how = { true, s->in->single, s->in->find };
	rc4_keys_judge(v, &how, &s->use);
	/* the key the library read: the kind's own, else one standing in */
	enum rc4_key from = rc4_key_read(v, s->kind);
	int others = s->conf.others[s->kind];
	if (v[from].line != 0) {
		snprintf(s->step, sizeof s->step, "config line %d [%s]%s%s",
			 v[from].line, section, from == (int)s->kind ? "" : " ",
			 from == (int)s->kind ? "" : rc4_keys[from].name);
		s->line = v[from].line;
		s->row = from;
		return v[from].name;
	}
	if (s->kind == RC4K_SINGLE)
		split_passed(s);
	if (s->slot == RC4_CONF_CPU && others > 0) {
		say(s, "config: no %s in [%s], but %d other CPU section%s "
		       "set one: tuned on another CPU? (rc4tune "
		       "--generate-conf tunes this one)",
		    rc4_keys[s->kind].name, section, others,
		    others == 1 ? "" : "s");
		return NULL;
	}
	enum rc4_key also = rc4_key_stand_in(s->kind);
	say(s, "config: no %s%s%s in [%s]", rc4_keys[s->kind].name,
	    also != RC4_KEY_NONE ? " or " : "",
	    also != RC4_KEY_NONE ? rc4_keys[also].name : "", section);
	return NULL;
}

static const char *from_cpu_section(struct sel *s)
{
	if (s->in->cpu == NULL) {
		say(s, "cpu: not identified (%s)", s->in->cpu_why);
		if (conf(s) == 0)
			say(s, "config: this CPU's section: CPU not "
			       "identified");
		return NULL;
	}
	if (s->in->cpu->source != NULL)
		say(s, "cpu: %s (%s)", s->section + 4, s->in->cpu->source);
	else
		say(s, "cpu: %s", s->section + 4);
	/* no file (a container, an image not tuned): the rule that follows
	 * is what applies */
	if (conf(s) != 0)
		say(s, "config: this CPU has no section ([%s]): %s", s->section,
		    s->conf_rc > 0 ? "no config file" : "the file is ignored");
	return from_conf(s);
}

static void skipped(void *arg, const char *name, const char *why, bool more)
{
	say(arg, "heuristic: \"%s\": %s; %s", name, why,
	    more ? "the next" : "none left");
}

/* The rule's kernels in turn (rc4_heuristic_walk), as the trail says. */
static const char *from_heuristic(struct sel *s)
{
	const char *rule;

	/* the rule first, then what the walk passes over */
	rc4_heuristic_rule(s->kind, s->in->cpu, &rule);
	say(s, "heuristic: %s", rule);
	const struct rc4k_info *k = rc4_heuristic_walk(
		s->kind, s->in->single, s->in->cpu, true, s->in->find, NULL,
		skipped, s);
	snprintf(s->step, sizeof s->step, "heuristic");
	return k ? k->name : NULL;
}

/* The split of the config section that chose the single kind's kernel,
 * into HOW, and the trail says it or why it is passed over.  Only a
 * config step's: RC4TUNE_KERNEL and the rules name one kernel. */
static void split_of(struct sel *s, const struct rc4k *k,
		     struct rc4_choice *how)
{
	if (s->row == RC4_KEY_NONE || s->kind != RC4K_SINGLE)
		return;
	how->split = s->use.split;
	if (how->split.below > 0)
		say(s, "split: calls shorter than %zu bytes run %s (config "
		       "line %d), longer ones %s",
		    how->split.below, how->split.short_kernel->info.name,
		    how->split.line, k->info.name);
	else
		split_passed(s);
}

/* The precedence, first to last (enum rc4_source's order: a config step's
 * section is its place after RC4_FROM_CONF); the portable default comes
 * after. */
static const char *(*const precedence[])(struct sel *) = {
	from_env, from_conf, from_cpu_section, from_conf, from_heuristic,
};
_Static_assert(sizeof precedence / sizeof precedence[0] == RC4_FROM_PORTABLE,
	       "one step for each enum rc4_source before the portable default");

/* KIND's selection by S (whose config, once read, serves every kind),
 * its trail into TRAIL (SIZE bytes; NULL: none), the step into HOW. */
static const struct rc4k_info *select_kind(struct sel *s, enum rc4k_kind kind,
					   char *trail, size_t size,
					   struct rc4_choice *how)
{
	const struct rc4_select_in *in = s->in;
	const struct rc4k_kind_info *ki = &rc4k_kinds[kind];

	s->kind = kind;
	s->buf = trail;
	s->size = size;
	s->len = 0;
	s->conf_said = false;
	if (trail != NULL && size > 0)
		trail[0] = '\0';
	for (size_t i = 0; i < sizeof precedence / sizeof precedence[0]; i++) {
		s->line = 0;
		s->row = RC4_KEY_NONE;
		s->slot = (int)i - RC4_FROM_CONF;
		const char *name = precedence[i](s);
		if (name == NULL)
			continue;
		const char *why;
		const struct rc4k_info *k =
			s->row != RC4_KEY_NONE
				? s->use.k[kind]
				: rc4_key_kernel(kind, name, in->single, true,
						 in->find, &why);
		if (s->row != RC4_KEY_NONE)
			why = s->use.bad[s->row].why;
		if (k != NULL) {
			say(s, "chosen: %s (%s)", k->name, s->step);
			*how = (struct rc4_choice){ (enum rc4_source)i, s->line,
						    s->conf_rc, { 0 } };
			split_of(s, rc4k_single(k), how);
			return k;
		}
		bool cut = strlen(name) > SHOWN_MAX;
		say(s, "%s: \"%.*s%s\": %s%s; skipped", s->step, SHOWN_MAX,
		    name, cut ? "..." : "", why ? why : "unknown ",
		    why ? "" : ki->what);
	}
	say(s, "chosen: %s (portable default)", ki->fallback->name);
	*how = (struct rc4_choice){ RC4_FROM_PORTABLE, 0, s->conf_rc, { 0 } };
	return ki->fallback;
}

/* A selection under way for IN, nothing read yet, in *S. */
static void sel_start(struct sel *s, const struct rc4_select_in *in)
{
	s->in = in;
	s->conf_rc = RC4_CONF_UNREAD;
	s->section[0] = '\0';
	if (in->cpu != NULL)
		rc4_section_name(in->cpu, s->section);
}

const struct rc4k_info *rc4_select(enum rc4k_kind kind,
				   const struct rc4_select_in *in, char *trail,
				   size_t size, struct rc4_choice *how)
{
	struct rc4_choice ignored;
	struct sel s;

	sel_start(&s, in);
	return select_kind(&s, kind, trail, size, how ? how : &ignored);
}

void rc4_select_all(const struct rc4_select_in *in,
		    struct rc4_selection *out, char (*trails)[RC4_TRAIL_MAX])
{
	struct rc4_select_in batch = *in;
	struct sel s;

	sel_start(&s, in);
	for (int k = 0; k < RC4K_KINDS; k++) {
		/* the batch kinds run the single kind's keys: chosen first */
		if (k != RC4K_SINGLE) {
			batch.single = rc4k_single(out->k[RC4K_SINGLE]);
			s.in = &batch;
		}
		out->k[k] = select_kind(&s, (enum rc4k_kind)k,
					trails ? trails[k] : NULL,
					RC4_TRAIL_MAX, &out->how[k]);
	}
}

void rc4_select_live(struct rc4_select_in *in, struct rc4_cpu *cpu)
{
	for (int kind = 0; kind < RC4K_KINDS; kind++) {
		const char *var = rc4k_kinds[kind].env;
		const char *v = var ? secure_getenv(var) : NULL;
		in->env[kind] = v != NULL && *v != '\0' ? v : NULL;
	}
	in->conf = rc4_conf_path();
	in->cpu_why = NULL;
	in->cpu = rc4_cpu_identify(cpu, &in->cpu_why) == 0 ? cpu : NULL;
	in->find = rc4k_find;
	in->single = NULL;
}

void rc4_trail_print(FILE *f, const char *prefix, const char *trail)
{
	for (const char *line = trail, *nl; (nl = strchr(line, '\n'));
	     line = nl + 1)
		fprintf(f, "%s%.*s\n", prefix, (int)(nl - line), line);
}
