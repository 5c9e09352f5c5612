/* SPDX-License-Identifier: MIT */
/* decide.c - which kernel a run writes for one key (decide.h).
 *
 * A host can sit in a state for a minute that makes some kernels slower
 * and others faster; a run inside it sees a steady, confident, wrong
 * ranking.  So a single run does not overturn what earlier runs found:
 * kernels are ranked by their standing over the section's history, and
 * the standing prior is replaced only by a kernel that beat it in every
 * phase of this run.  Repeated runs then converge on the kernel that is
 * best most of the time. */
#include <config.h>

#include <stdio.h>
#include <string.h>
#include "decide.h"

/* NAME's score in RUN; one not among its leaders scored at most the
 * lowest listed. */
static double listed(const struct rc4_record_run *run, const char *name)
{
	for (int i = 0; i < run->n; i++)
		if (strcmp(run->lead[i].name, name) == 0)
			return run->lead[i].score;
	return run->lead[run->n - 1].score;
}

/* The measured kernel called NAME, or m->n. */
static size_t find(const struct measurement *m, const char *name)
{
	for (size_t i = 0; name && i < m->n; i++)
		if (m->kr[i].status == KERNEL_OK &&
		    strcmp(m->kr[i].k->name, name) == 0)
			return i;
	return m->n;
}

/* The phase in which kernel A of M led kernel B by more than the tie
 * window, or -1. */
static int led_in(const struct measurement *m, size_t a, size_t b)
{
	for (int p = 0; p < MEASURE_PHASES; p++)
		if (m->kr[b].phase[p] > 0 &&
		    m->kr[a].phase[p] > m->kr[b].phase[p] * (1 + m->window))
			return p;
	return -1;
}

/* C's confidence: the measurement's doubt, unless that is a ranking that
 * changed, which is judged for the kernel written: another kernel led it
 * in one phase and it led that one in another, each by more than the tie
 * window.  (A kernel behind in every phase is one the history kept, not a
 * ranking that changed.) */
static void judge(const struct measurement *m, struct choice *c)
{
	c->uncertain = m->uncertain;
	c->why_code = m->why_code;
	snprintf(c->why, sizeof c->why, "%s", m->why);
	if (m->why_code != NULL && strcmp(m->why_code, "phases") != 0)
		return;
	c->uncertain = false;
	c->why_code = NULL;
	c->why[0] = '\0';
	for (size_t o = 0; o < m->n; o++) {
		int p = m->kr[o].status == KERNEL_OK ? led_in(m, o, c->kernel)
						     : -1;
		if (p < 0 || led_in(m, c->kernel, o) < 0)
			continue;
		c->uncertain = true;
		c->why_code = "phases";
		snprintf(c->why, sizeof c->why, "the ranking changed: %.32s "
			 "led in phase %d of %d by %.1f %%",
			 m->kr[o].k->name, p + 1, MEASURE_PHASES,
			 (m->kr[o].phase[p] / m->kr[c->kernel].phase[p] - 1) *
				 100);
		return;
	}
}

struct choice decide(const struct measurement *m,
		     const struct rc4_record_key *prior, const char *heuristic)
{
	const char *mine = prior && prior->present ? prior->value : NULL;
	const char *const names[] = { mine, heuristic };
	static const char *const rules[] = { "the section's kernel",
					     "the heuristic's choice" };
	double standing[m->n], best = m->kr[m->best].score;
	int runs = 1;
	struct choice c = { 0 };

	memset(standing, 0, sizeof standing); /* also for -Wmaybe-uninitialized */
	for (size_t i = 0; i < m->n; i++)
		standing[i] = m->kr[i].score / best;
	/* the runs the new record will keep: this one and the latest
	 * RC4_RECORD_RUNS - 1 of the section's */
	for (int r = 0; prior && r < prior->nruns && r < RC4_RECORD_RUNS - 1;
	     r++) {
		if (prior->run[r].uncertain)
			continue;
		for (size_t i = 0; i < m->n; i++)
			standing[i] += listed(&prior->run[r], m->kr[i].k->name);
		runs++;
	}
	for (size_t i = 0; i < m->n; i++)
		standing[i] /= runs;
	struct measure_pick pk = measure_pick(m, standing, names, rules, 2);
	c.kernel = pk.winner;

	size_t p = find(m, mine);
	if (p == m->n)
		p = find(m, heuristic);
	int n = 0;
	if (pk.tie_rule != NULL && pk.winner != m->winner)
		n = snprintf(c.note, sizeof c.note, "tie over %d runs: %zu "
			     "within the window, chose %s, %s", runs, pk.ntied,
			     m->kr[pk.winner].k->name, pk.tie_rule);
	else if (runs > 1 && pk.winner != m->best && pk.ntied == 1)
		n = snprintf(c.note, sizeof c.note, "history: over %d runs "
			     "%s stands above this run's best, %s", runs,
			     m->kr[pk.winner].k->name, m->kr[m->best].k->name);
	if (p != m->n && p != pk.winner && !measure_leads(m, pk.winner, p)) {
		snprintf(c.note + n, sizeof c.note - (size_t)n,
			 "%sprior: kept %s (%s): %s did not lead it in every "
			 "phase",
			 n ? "; " : "", m->kr[p].k->name,
			 p == find(m, mine) ? "the section's"
					    : "the heuristic's",
			 m->kr[pk.winner].k->name);
		c.kernel = p;
	}
	judge(m, &c);
	return c;
}
