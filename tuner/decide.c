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

void decide(struct measurement *m, const struct rc4_record_key *prior,
	    const char *heuristic)
{
	const char *mine = prior && prior->present ? prior->value : NULL;
	const char *const names[] = { mine, heuristic };
	static const char *const rules[] = { "the section's kernel",
					     "the heuristic's choice" };
	double standing[m->n], best = m->kr[m->best].score;
	int runs = 1;

	m->note[0] = '\0';
	memset(standing, 0, sizeof standing); /* also for -Wmaybe-uninitialized */
	for (size_t i = 0; i < m->n; i++)
		standing[i] = m->kr[i].score / best;
	/* the runs the new record will keep: this one and the latest
	 * RC4_RECORD_RUNS - 1 of the section's */
	for (int r = 0; prior && r < prior->nruns && r < RC4_RECORD_RUNS - 1; r++) {
		if (prior->run[r].uncertain)
			continue;
		for (size_t i = 0; i < m->n; i++)
			standing[i] += listed(&prior->run[r], m->kr[i].k->name);
		runs++;
	}
	for (size_t i = 0; i < m->n; i++)
		standing[i] /= runs;
	measure_pick(m, standing, names, rules, 2);

	size_t p = find(m, mine);
	if (p == m->n)
		p = find(m, heuristic);
	int n = 0;
	if (runs > 1 && m->winner != m->best && m->ntied == 1)
		n = snprintf(m->note, sizeof m->note, "history: over %d runs "
			     "%s stands above this run's best, %s", runs,
			     m->kr[m->winner].k->name, m->kr[m->best].k->name);
	if (p == m->n || p == m->winner || measure_leads(m, m->winner, p))
		return;
	snprintf(m->note + n, sizeof m->note - (size_t)n,
		 "%sprior: kept %s (%s): %s did not lead it in every phase",
		 n ? "; " : "", m->kr[p].k->name,
		 p == find(m, mine) ? "the section's" : "the heuristic's",
		 m->kr[m->winner].k->name);
	measure_set_winner(m, p);
}
