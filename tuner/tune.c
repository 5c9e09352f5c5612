/* SPDX-License-Identifier: MIT */
/* tune.c - the measuring actions (tune.h), and --if-missing's question. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "conf.h"
#include "confwrite.h"
#include "cpu.h"
#include "heuristic.h"
#include "kernels/family.h"
#include "report.h"
#include "result.h"
#include "section.h"
#include "select.h"
#include "timing.h"
#include "tune.h"

/* One action's measurements: got[kind] is &m[kind] when measured. */
struct tuning {
	const struct tune_opts *o;
	struct rc4_cpu cpu;
	const char *cpu_why;
	char section[RC4_SECTION_MAX]; /* "" when not identified */
	/* --generate-conf: this CPU's section before measuring, and its
	 * record when the tuner's (the prior; NULL: none) */
	bool writes;
	struct rc4_section before;
	const struct rc4_record *prior;
	struct measurement m[RC4K_KINDS];
	const struct measurement *got[RC4K_KINDS];
	const struct rc4k *serial; /* the single-stream kernel serial runs */
	struct decision run; /* this run alone, for the tables */
	struct result res; /* what --generate-conf made of them */
	const char **names; /* --speed KERNEL..., those of one kind */
	const char *heuristic[RC4K_KINDS]; /* each kind's rule's kernel */
};

/* The names of O->kernels of KIND into T->names; false when none are. */
static bool names_of(struct tuning *t, enum rc4k_kind kind)
{
	size_t n = 0;

	for (const char *const *k = t->o->kernels; *k; k++)
		if (rc4k_find(kind, *k) != NULL)
			t->names[n++] = *k;
	t->names[n] = NULL;
	return n > 0;
}

/* The single-stream kernel serial runs: the one that will be written
 * (decide_serial), or --speed's choice; unmeasured, the CPU rules' (never
 * the config's or the environment's: the figures are this CPU's). */
static const struct rc4k *serial_kernel(const struct tuning *t, bool batch)
{
	const struct measurement *m = t->got[RC4K_SINGLE];
	const char *h = t->heuristic[RC4K_SINGLE];

	if (m != NULL && t->writes)
		return decide_serial(t->got, t->prior, h, batch);
	if (m != NULL)
		return rc4k_single(m->kr[decide_run(m, h).kernel].k);
	const struct rc4k_info *i =
		rc4_key_kernel(RC4K_SINGLE, h, NULL, true, NULL, NULL);
	return rc4k_single(i ? i : rc4k_kinds[RC4K_SINGLE].fallback);
}

/* KIND's rule's kernel, for the single-stream kernel serial runs now. */
static void rule_of(struct tuning *t, enum rc4k_kind kind)
{
	const struct rc4_cpu *cpu = t->section[0] ? &t->cpu : NULL;
	const struct rc4k *single = kind == RC4K_SINGLE ? NULL : t->serial;
	const struct rc4k_info *h = rc4_heuristic_walk(
		kind, single, cpu, true, rc4k_find, NULL, NULL, NULL);

	t->heuristic[kind] = h ? h->name : NULL;
}

/* Measure KIND for its share of the budget after *DEADLINE, which it
 * moves on.  0, or -1 after saying why. */
static int measure_kind(struct tuning *t, enum rc4k_kind kind,
			double *deadline, double shares)
{
	const struct tune_opts *o = t->o;
	bool show = !o->quiet && isatty(STDERR_FILENO);

	t->got[kind] = NULL;
	measure_free(&t->m[kind]);
	if (o->kernels)
		names_of(t, kind);
	*deadline += o->budget * measure_benches[kind].share / shares;
	int rc = measure_run(&t->m[kind], kind, o->kernels ? t->names : NULL,
			     o->workload, *deadline,
			     kind == RC4K_SINGLE ? NULL : t->serial,
			     show ? report_progress : NULL);
	if (show)
		report_progress_end();
	if (rc == 0)
		t->got[kind] = &t->m[kind];
	return rc;
}

/* Whether batch kind K is to be timed (again) with serial on t->serial:
 * once, and again only where serial there might lead it. */
static bool to_time(const struct tuning *t, enum rc4k_kind k)
{
	return t->got[k] == NULL ||
	       decide_retime(t->got[RC4K_SINGLE], t->got[k], t->serial);
}

/* The single kind, then the batch kinds with serial on the kernel it
 * will write; again where their figures move that kernel to another
 * family and serial might then lead.  Then this run's choice of each.  0
 * when every kind to be measured was, and one at least; else -1. */
static int measure_all(struct tuning *t)
{
	const struct tune_opts *o = t->o;
	double shares = 0, deadline = timing_now();
	bool use[RC4K_KINDS];
	size_t n = 0;

	while (o->kernels && o->kernels[n])
		n++;
	t->names = calloc(n + 1, sizeof *t->names);
	if (t->names == NULL) {
		perror("rc4tune");
		return -1;
	}
	for (int k = 0; k < RC4K_KINDS; k++) {
		use[k] = o->kernels == NULL || names_of(t, (enum rc4k_kind)k);
		shares += use[k] ? measure_benches[k].share : 0;
	}
	rule_of(t, RC4K_SINGLE);
	if (use[RC4K_SINGLE] &&
	    measure_kind(t, RC4K_SINGLE, &deadline, shares) != 0)
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		const struct rc4k *single = serial_kernel(t, pass > 0);
		if (pass > 0 && single == t->serial)
			break;
		t->serial = single;
		for (int k = RC4K_SINGLE + 1; k < RC4K_KINDS; k++) {
			rule_of(t, (enum rc4k_kind)k);
			if (use[k] && to_time(t, (enum rc4k_kind)k) &&
			    measure_kind(t, (enum rc4k_kind)k, &deadline,
					 shares) != 0)
				return -1;
		}
	}
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL)
			return decide_runs(&t->run, t->got, t->heuristic);
	return -1;
}

/* The report on stdout (rc4tune(1), OUTPUT), with what the pass that
 * wrote decided. */
static void report(const struct tuning *t)
{
	const struct result *r = &t->res;
	bool wrote = r->path != NULL && r->kept == NULL;
	bool first = true;

	if (t->o->json) {
		const char *written[RC4K_KINDS] = { NULL };
		for (int k = 0; k < RC4K_KINDS && wrote; k++)
			if (t->got[k] != NULL)
				written[k] = decide_name(&r->dec, k);
		report_json(stdout, t->run.use, t->run.choice,
			    t->section[0] ? t->section : NULL, written);
		return;
	}
	for (int k = 0; k < RC4K_KINDS; k++)
		if (t->got[k] != NULL) {
			if (!first)
				printf("\n");
			report_table(stdout, "", t->run.use[k], &t->run.choice[k],
				     r->dec.choice[k].note);
			first = false;
		}
}

static void tuning_free(struct tuning *t)
{
	decide_free(&t->res.dec);
	decide_free(&t->run);
	for (int k = 0; k < RC4K_KINDS; k++)
		measure_free(&t->m[k]);
	free(t->names);
}

int tune_speed(const struct tune_opts *o)
{
	struct tuning t = { .o = o };
	int r = EXIT_FAILURE;

	rc4_section_here(&t.cpu, t.section, &t.cpu_why);
	if (measure_all(&t) == 0) {
		if (!o->quiet)
			report(&t);
		r = EXIT_SUCCESS;
	}
	tuning_free(&t);
	return r;
}

/* One pass under W's lock: read, decide, write, read back.  0 written,
 * 1 the file kept (R->kept says why), CONFWRITE_AGAIN, or -1. */
static int write_once(struct result *r, struct confwrite *w)
{
	const char *old;
	size_t len, n = 0;
	bool err = false;

	if (confwrite_read(w, &old, &len) != 0)
		return -1;
	char *text = result_text(r, old, len, &n, &err);
	if (text == NULL) {
		if (err)
			confwrite_kept(w);
		return err ? -1 : 1;
	}
	int rc = confwrite_replace(w, text, n);
	/* a device or a pipe is not read back */
	if (rc == 0 && w->fd < 0 && result_check(r, w->path) != 0)
		rc = -1;
	r->text = NULL;
	free(text);
	return rc;
}

/* Write T's section into W, then report (the file first: a closed
 * stdout must not cost it). */
static int write_conf(struct tuning *t, struct confwrite *w)
{
	const struct tune_opts *o = t->o;
	struct result *r = &t->res;
	bool to_stdout = w->to_stdout;
	int rc;

	*r = (struct result){ .section = t->section, .path = w->path,
			      .got = t->got, .run = &t->run,
			      .heuristic = t->heuristic, .single = t->serial,
			      .force = o->force };
	rc4_record_now(r->at);
	if (confwrite_lock(w) != 0)
		return EXIT_FAILURE;
	while ((rc = write_once(r, w)) == CONFWRITE_AGAIN)
		;
	confwrite_unlock(w);
	if (rc < 0)
		return EXIT_FAILURE;
	const char *why = result_doubt(r);
	if (r->kept_surer)
		fprintf(stderr, "rc4tune: warning: this run was uncertain (%s): "
				"kept the confident section [%s] in %s; tune "
				"again on an idle machine\n",
			why, t->section, w->path);
	else if (r->kept != NULL)
		fprintf(stderr, "rc4tune: kept [%s] in %s (line %d): it is %s; "
				"rc4tune --generate-conf --force replaces it\n",
			t->section, w->path, r->kept_line, r->kept);
	else if (why != NULL && !to_stdout)
		fprintf(stderr, "rc4tune: warning: the result is uncertain (%s): "
				"written to [%s] in %s marked so; a run on an "
				"idle machine will replace it\n",
			why, t->section, w->path);
	/* with stdout as the config, its comments carry the tables */
	if (o->quiet || to_stdout)
		return EXIT_SUCCESS;
	report(t);
	for (int k = 0; k < RC4K_KINDS && !o->json && !r->kept; k++)
		if (t->got[k] != NULL)
			printf("rc4tune: wrote %s = %s for [%s] to %s\n",
			       rc4_keys[k].name, decide_name(&r->dec, k),
			       t->section, w->path);
	return EXIT_SUCCESS;
}

/* For rc4_sections_collect: the sections named ARG. */
static bool named(void *arg, const struct rc4_section *s)
{
	return strcmp(s->name, arg) == 0;
}

/* Of the sections SS (one name, file order), the one holding LINE: its
 * record speaks for the value the library reads there. */
static const struct rc4_section *holding(const struct rc4_sections *ss,
					 int line)
{
	const struct rc4_section *h = &ss->s[0];

	for (size_t i = 1; i < ss->n && ss->s[i].line <= line; i++)
		h = &ss->s[i];
	return h;
}

/* tuned_already's verdict on this CPU's sections SS in PATH, of which
 * the library reads CONF. */
static bool nothing_to_do(const struct tuning *t, const char *path,
			  const struct rc4_conf *conf,
			  const struct rc4_sections *ss)
{
	const struct rc4_conf_value *v = conf->value[RC4_CONF_CPU];
	const struct rc4_keys_how how = { true, NULL, NULL };
	struct rc4_keys_use u;

	/* a person's duplicate speaks too: the run would keep the file */
	for (size_t i = 0; i < ss->n && !t->o->force; i++) {
		const struct rc4_section *theirs = &ss->s[i];
		if (theirs->record.owner == RC4_OWNER_TUNER)
			continue;
		if (!t->o->quiet)
			printf("rc4tune: [%s] in %s (line %d) is %s: nothing to "
			       "do (--force replaces it)\n",
			       t->section, path, theirs->line,
			       rc4_owner_name(theirs->record.owner));
		return true;
	}
	rc4_keys_judge(v, &how, &u);
	for (int r = 0; r < RC4_KEYS; r++)
		if (u.bad[r].line != 0) {
			if (!t->o->quiet)
				printf("rc4tune: [%s] in %s: line %d: %s = %s: "
				       "%s: measuring again\n",
				       t->section, path, u.bad[r].line,
				       rc4_keys[r].name, v[r].name,
				       u.bad[r].why ? u.bad[r].why
						    : "unknown kernel");
			return false;
		}
	for (int k = 0; k < RC4K_KINDS; k++) {
		int line = u.from[k] != RC4_KEY_NONE ? v[u.from[k]].line : 0;
		const struct rc4_record_key *rk =
			&holding(ss, line)->record.key[k];
		if (!rk->present && k != RC4K_SINGLE)
			continue;
		if (rk->uncertain || line == 0) {
			if (!t->o->quiet && rk->uncertain)
				printf("rc4tune: [%s] in %s is marked uncertain "
				       "(%s): measuring again\n",
				       t->section, path, rk->why);
			return false;
		}
	}
	if (!t->o->quiet)
		printf("rc4tune: [%s] already has kernel = %s in %s (line %d): "
		       "nothing to do\n",
		       t->section, v[RC4_KEY_KERNEL].name, path,
		       v[RC4_KEY_KERNEL].line);
	return true;
}

/* --if-missing (rc4tune(1)): whether this CPU's section in PATH leaves
 * nothing to do, said unless --quiet. */
static bool tuned_already(const struct tuning *t, const char *path)
{
	struct rc4_conf conf;
	struct rc4_sections ss = { 0 };
	char why[RC4_CONF_WHY_MAX], *buf;
	size_t len = 0;

	if (confwrite_is_stdout(path) ||
	    (buf = rc4_conf_load(path, &len)) == NULL)
		return false;
	bool found = rc4_conf_parse(buf, len, t->section, &conf, NULL, why,
				    sizeof why) == 0 &&
		     rc4_sections_collect(&ss, buf, len, named,
					  (void *)t->section) == 0 && ss.n > 0;
	bool done = found && nothing_to_do(t, path, &conf, &ss);
	rc4_sections_free(&ss);
	free(buf);
	return done;
}

/* T->before and T->prior, without the lock (the file is replaced whole,
 * and read again under the lock): 0, or -1 after saying why. */
static int read_prior(struct tuning *t, struct confwrite *w)
{
	struct rc4_section theirs;
	const char *old;
	size_t len;

	int rc = confwrite_read(w, &old, &len);
	if (rc == 0) {
		t->prior = result_prior(old, len, t->section, &t->before,
					&theirs);
		t->before.text = NULL; /* in W's bytes */
	}
	confwrite_unlock(w);
	return rc;
}

int tune_generate_conf(const struct tune_opts *o)
{
	const char *path = o->output ? o->output : RC4_CONF_DEFAULT_PATH;
	struct tuning t = { .o = o, .writes = true };
	struct confwrite w;
	int r = EXIT_FAILURE;

	if (rc4_section_here(&t.cpu, t.section, &t.cpu_why) != 0) {
		fprintf(stderr, "rc4tune: cannot identify this CPU (%s), so "
				"there is no [cpu] section to write; name a "
				"kernel under [default] in %s by hand\n",
			t.cpu_why, path);
		return EXIT_FAILURE;
	}
	if (o->if_missing && tuned_already(&t, path))
		return EXIT_SUCCESS;
	if (confwrite_open(&w, path) != 0)
		return EXIT_FAILURE;
	if (read_prior(&t, &w) == 0 && measure_all(&t) == 0)
		r = write_conf(&t, &w);
	else
		confwrite_kept(&w);
	confwrite_close(&w);
	tuning_free(&t);
	return r;
}
