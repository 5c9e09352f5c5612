/* SPDX-License-Identifier: MIT */
/* decide.c - every step from figures to a choice (decide.h; rc4tune(1),
 * WHAT A RESULT MUST HOLD).  Kernels are timed side by side in each
 * round, so the ratio of two kernels' round scores cancels what hit both:
 * the confidence is a sign test on those ratios.  Any of several
 * near-tied kernels is a right answer; the tie rule keeps runs stable. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decide.h"
#include "kernels/batch.h"
#include "kernels/family.h"
#include "speed.h"

static const double TIE_FLOOR = 0.02;  /* closer than 2 %: always a tie */
static const double TIE_CAP = 0.03;    /* a tie never costs more than 3 % */
enum { MIN_ROUNDS = 5 };               /* fewer medians are no decision */
/* Other processes using this share of all CPUs compete for cores, caches
 * and memory, and not evenly across kernels, in a way the spread of
 * slices need not show: the result is uncertain. */
static const double BUSY = 0.25;
static const double CONFIDENCE = 0.95; /* one-sided, of every bound */

/* Only kernels that ran to the end of the race are chosen and compared
 * round by round (the others were clearly behind). */
static bool finalist(const struct kresult *r)
{
	return r->status == KERNEL_OK && r->finalist;
}

/* R's index in PREFER[0..N) (NULL members name nothing), or N. */
static size_t rank_in(const struct kresult *r, const char *const *prefer,
		      size_t n)
{
	size_t i = 0;

	for (; i < n; i++)
		if (prefer[i] && strcmp(r->k->name, prefer[i]) == 0)
			break;
	return i;
}

/* Among the kernels within C's window of the best score: the first that
 * PREFER names, else the earliest in the registry (simplest loops
 * first); RULES[] says each preference in words. */
static void pick(const struct measurement *m, struct choice *c,
		 const char *const *prefer, const char *const *rules,
		 size_t nprefer)
{
	size_t best = m->n, w = m->n;

	for (size_t i = 0; i < m->n; i++)
		if (finalist(&m->kr[i]) &&
		    (best == m->n || m->kr[i].score > m->kr[best].score))
			best = i;
	double cut = m->kr[best].score * (1 - c->window);
	c->ntied = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct kresult *r = &m->kr[i];
		if (!finalist(r) || r->score < cut)
			continue;
		c->ntied++;
		size_t a = rank_in(r, prefer, nprefer);
		size_t b = w == m->n ? a + 1 : rank_in(&m->kr[w], prefer, nprefer);
		if (a < b || (a == b && r->order < m->kr[w].order))
			w = i;
	}
	c->kernel = w;
	c->tie_rule = NULL;
	if (c->ntied > 1) {
		size_t a = rank_in(&m->kr[w], prefer, nprefer);
		c->tie_rule = a < nprefer ? rules[a]
					  : "the earliest in registry order";
	}
}

/* Kernel A's round scores over B's, into RATIO, in the rounds that timed
 * both (one cut short at the deadline may not have); how many. */
static int paired(const struct measurement *m, size_t a, size_t b,
		  double *ratio)
{
	int n = 0;

	for (int k = 0; k < m->rounds; k++)
		if (m->kr[a].round_score[k] > 0 && m->kr[b].round_score[k] > 0)
			ratio[n++] = m->kr[a].round_score[k] /
				     m->kr[b].round_score[k];
	return n;
}

/* Twice the standard error of the median ratio of best and second is
 * the noise, and (within TIE_FLOOR..TIE_CAP) the tie window. */
static void noise(const struct measurement *m, struct choice *c)
{
	size_t second = m->n;
	int n = m->rounds;

	for (size_t i = 0; i < m->n; i++)
		if (i != m->best && finalist(&m->kr[i]) &&
		    (second == m->n || m->kr[i].score > m->kr[second].score))
			second = i;
	c->noise = 0;
	c->gap = 1;
	if (second != m->n && n > 0) {
		double ratio[n];
		n = paired(m, m->best, second, ratio);
		if (n > 0)
			c->noise = 2 * SPEED_MEDIAN_SE *
				   speed_spread(ratio, n) / sqrt(n);
		c->gap = 1 - m->kr[second].score / m->kr[m->best].score;
	}
	c->window = fmin(fmax(c->noise, TIE_FLOOR), TIE_CAP);
}

/* Whether any choice from M may be wrong whatever the figures say: too
 * few rounds for medians, or a busy machine. */
static void doubt(const struct measurement *m, struct choice *c)
{
	c->why[0] = '\0';
	c->why_code = NULL;
	if (m->rounds < MIN_ROUNDS) {
		c->why_code = "rounds";
		snprintf(c->why, sizeof c->why, "only %d round%s fit in the "
						"budget",
			 m->rounds, m->rounds == 1 ? "" : "s");
	} else if (m->load >= BUSY) {
		c->why_code = "busy";
		snprintf(c->why, sizeof c->why, "other processes used %.0f %% "
						"of the CPUs",
			 m->load * 100);
	}
	c->uncertain = c->why_code != NULL;
}

/* The lower CONFIDENCE bound of A's score over B's, round by round. */
static double bound(const struct measurement *m, size_t a, size_t b)
{
	return speed_ratio_bound(m->kr[a].round_score, m->kr[b].round_score,
				 m->rounds, CONFIDENCE, NULL);
}

/* The phase in which kernel A of M led kernel B by more than C's window,
 * or -1. */
static int led_in(const struct measurement *m, const struct choice *c,
		  size_t a, size_t b)
{
	for (int p = 0; p < MEASURE_PHASES; p++)
		if (m->kr[b].phase[p] > 0 &&
		    m->kr[a].phase[p] > m->kr[b].phase[p] * (1 + c->window))
			return p;
	return -1;
}

/* Whether C's kernel and O each led the other in some phase by more
 * than the window: a host state that began or ended, so the choice may
 * hold only part of the time.  Kernels tied over the run trade places by
 * noise alone. */
static bool flipped(const struct measurement *m, struct choice *c, size_t o)
{
	const struct kresult *k = &m->kr[c->kernel], *r = &m->kr[o];

	if (r->status != KERNEL_OK || o == c->kernel ||
	    (r->score <= k->score * (1 + c->window) &&
	     k->score <= r->score * (1 + c->window)))
		return false;
	int p = led_in(m, c, o, c->kernel);
	if (p < 0 || led_in(m, c, c->kernel, o) < 0)
		return false;
	c->why_code = "phases";
	snprintf(c->why, sizeof c->why, "the ranking changed: %.32s led in "
		 "phase %d of %d by %.1f %%",
		 r->k->name, p + 1, MEASURE_PHASES,
		 (r->phase[p] / k->phase[p] - 1) * 100);
	return true;
}

/* The lowest lower bound of kernel K's score over each other finalist's
 * of M (-1: no other), and in *RIVAL (if not NULL) that finalist (M->n:
 * none). */
static double least_bound(const struct measurement *m, size_t k,
			  size_t *rival)
{
	double lower = -1;
	size_t r = m->n;

	for (size_t o = 0; o < m->n; o++) {
		if (o == k || !finalist(&m->kr[o]))
			continue;
		double b = bound(m, k, o);
		if (r == m->n || b < lower)
			lower = b, r = o;
	}
	if (rival != NULL)
		*rival = r;
	return lower;
}

/* C->lower and C->finalists for C's kernel of M; the other finalist
 * that sets the bound, or M->n. */
static size_t lowest(const struct measurement *m, struct choice *c)
{
	size_t rival;

	c->lower = least_bound(m, c->kernel, &rival);
	c->finalists = 0;
	for (size_t o = 0; o < m->n; o++)
		c->finalists += finalist(&m->kr[o]);
	return rival;
}

/* Whether C's kernel may be more than the window behind a finalist. */
static bool behind(const struct measurement *m, struct choice *c)
{
	size_t o = lowest(m, c);

	if (o == m->n || c->lower >= 1 - c->window)
		return false;
	c->why_code = "noise";
	snprintf(c->why, sizeof c->why, "%.32s may lead by more than %.1f %%: "
		 "at least %.3f of it at %.0f %%",
		 m->kr[o].k->name, c->window * 100, c->lower, CONFIDENCE * 100);
	return true;
}

/* C's confidence, and C->lower either way. */
static void confidence(const struct measurement *m, struct choice *c)
{
	doubt(m, c);
	for (size_t o = 0; !c->uncertain && o < m->n; o++)
		c->uncertain = flipped(m, c, o);
	if (c->uncertain)
		lowest(m, c);
	else
		c->uncertain = behind(m, c);
}

struct choice decide_run(const struct measurement *m, const char *heuristic)
{
	static const char *const rules[] = { "the heuristic's choice" };
	struct choice c = { 0 };

	noise(m, &c);
	pick(m, &c, &heuristic, rules, 1);
	confidence(m, &c);
	return c;
}

/* A line on C's note: each step that weighed says how, on its own line. */
__attribute__((format(printf, 2, 3))) static void
note_add(struct choice *c, const char *fmt, ...)
{
	size_t n = strlen(c->note);
	char line[NOTE_LINE - 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	snprintf(c->note + n, sizeof c->note - n, "%s%s", n ? "\n" : "",
		 line);
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

/* What --generate-conf writes: this run's best, a tie going to PRIOR's
 * kernel, then to HEURISTIC's (either may be NULL); but that prior stays
 * unless the best is surely more than the window ahead of it. */
static struct choice decide(const struct measurement *m,
			    const struct rc4_record_key *prior,
			    const char *heuristic)
{
	const char *mine = prior && prior->present ? prior->value : NULL;
	const char *const names[] = { mine, heuristic };
	static const char *const rules[] = { "the section's kernel",
					     "the heuristic's choice" };
	struct choice c = { 0 };

	noise(m, &c);
	pick(m, &c, names, rules, 2);
	size_t p = find(m, mine);
	if (p == m->n)
		p = find(m, heuristic);
	if (c.tie_rule == rules[0] && c.kernel != m->best)
		note_add(&c, "tie: kept %s, the section's kernel, within "
			     "%.1f %% of the best (%s)",
			 m->kr[c.kernel].k->name, c.window * 100,
			 m->kr[m->best].k->name);
	/* a prior the race dropped was clearly behind: it is not kept */
	double b = p < m->n && finalist(&m->kr[p]) ? bound(m, c.kernel, p)
						   : HUGE_VAL;
	if (p != m->n && p != c.kernel && b <= 1 + c.window) {
		note_add(&c, "prior: kept %s (%s): %s was not surely more "
			     "than %.1f %% ahead of it (at least %.3f of it "
			     "at %.0f %%)",
			 m->kr[p].k->name,
			 p == find(m, mine) ? "the section's"
					    : "the heuristic's",
			 m->kr[c.kernel].k->name, c.window * 100, b,
			 CONFIDENCE * 100);
		c.kernel = p;
		c.held = true;
	}
	confidence(m, &c);
	return c;
}

/* What a single-stream kernel may cost, at the bounds' confidence, of
 * every finalist's score to give the batch calls its layout's lanes: what
 * a CPU rule may cost (tests/rules/test_rules.py).  The tie window's 3 %
 * let rings of two layouts within 5 % of each other write the one without
 * fast lanes (doc/cpus/GenuineIntel-6-167.md, "The layout family"). */
static const double FAMILY_COST = 0.05;

/* What the batch call keeps of its best with keys of SINGLE's layout.
 * Serial counts for every family: a step to another family times a
 * batch call again where serial might then lead it (decide_retime). */
static double batch_share(const struct measurement *batch,
			  const struct rc4k *single)
{
	double fit = 0, all = 0;

	for (size_t i = 0; batch != NULL && i < batch->n; i++) {
		const struct kresult *r = &batch->kr[i];
		if (r->status != KERNEL_OK)
			continue;
		all = fmax(all, r->score);
		if (rc4k_misfit_reason(r->k, single) == NULL)
			fit = fmax(fit, r->score);
	}
	return all > 0 ? fit / all : 1;
}

/* Batch kind M as SINGLE's keys see it, into OUT: kernels of another
 * family KERNEL_MISFIT.  0, or -1 after saying why; either way
 * measure_free(OUT) afterwards, before M's. */
static int fitting(const struct measurement *m, const struct rc4k *single,
		   struct measurement *out)
{
	*out = *m;
	out->round_scores = NULL; /* M's, which OUT's results point into */
	out->kr = malloc((m->n ? m->n : 1) * sizeof *m->kr);
	if (out->kr == NULL) {
		perror("rc4tune");
		return -1;
	}
	out->best = m->n;
	for (size_t i = 0; i < m->n; i++) {
		struct kresult *r = &out->kr[i];
		*r = m->kr[i];
		if (r->status == KERNEL_OK &&
		    rc4k_misfit_reason(r->k, single) != NULL)
			r->status = KERNEL_MISFIT;
		if (r->status == KERNEL_OK &&
		    (out->best == m->n || r->score > out->kr[out->best].score))
			out->best = i;
	}
	if (out->best < m->n)
		return 0;
	fprintf(stderr, "rc4tune: no %s fits kernel %s\n",
		rc4k_kinds[m->kind].what, single->info.name);
	return -1;
}

/* What both batch calls keep of their best with keys of SINGLE's layout. */
static double lanes_share(const struct measurement *set_keys,
			  const struct measurement *crypt_many,
			  const struct rc4k *single)
{
	return batch_share(set_keys, single) * batch_share(crypt_many, single);
}

/* What the three calls keep of their best with R and its layout's batch
 * kernels, R's score taken against CHOSEN's. */
static double family_value(const struct kresult *r,
			   const struct kresult *chosen,
			   const struct measurement *set_keys,
			   const struct measurement *crypt_many)
{
	return fmin(r->score / chosen->score, 1) *
	       lanes_share(set_keys, crypt_many, rc4k_single(r->k));
}

/* One layout family per key (kernels/family.h): C's kernel may give way
 * to one of another family that is surely within FAMILY_COST of every
 * finalist (its lower bound over each, as C->lower), when the product of
 * the three calls' shares of their best gains more than the window with
 * it (SET_KEYS, CRYPT_MANY: NULL if not measured).  C's note says so. */
static void decide_family(const struct measurement *single, struct choice *c,
			  const struct measurement *set_keys,
			  const struct measurement *crypt_many)
{
	const struct kresult *chosen = &single->kr[c->kernel];
	double best = 0;
	size_t pick = c->kernel;

	for (size_t i = 0; !c->held && i < single->n; i++) {
		const struct kresult *r = &single->kr[i];
		if (i == c->kernel || !finalist(r) ||
		    least_bound(single, i, NULL) < 1 - FAMILY_COST)
			continue;
		double v = family_value(r, chosen, set_keys, crypt_many);
		if (v > best)
			best = v, pick = i;
	}
	/* a gain within the window is none: the choice stays */
	if (pick != c->kernel &&
	    best <= family_value(chosen, chosen, set_keys, crypt_many) *
			    (1 + TIE_CAP))
		pick = c->kernel;
	if (pick == c->kernel)
		return;
	note_add(c, "family: %s (%.3f of %s) for the batch calls' lanes of its "
		    "layout",
		 single->kr[pick].k->name, single->kr[pick].score / chosen->score,
		 chosen->k->name);
	c->kernel = pick;
}

/* C uncertain only because finalists may lead its kernel by more than
 * the window: where each of them is of another layout, C's kernel surely
 * within FAMILY_COST of it, and the product of the batch calls' shares
 * more than the window better with C's layout, the family step would
 * have written C's layout had any of them led: C is sure, and its note
 * says so. */
static void family_sure(const struct measurement *m, struct choice *c,
			const struct measurement *set_keys,
			const struct measurement *crypt_many)
{
	const struct rc4k *mine = rc4k_single(m->kr[c->kernel].k);
	double lanes = lanes_share(set_keys, crypt_many, mine);

	if (!c->uncertain || strcmp(c->why_code, "noise") != 0)
		return;
	for (size_t o = 0; o < m->n; o++) {
		const struct rc4k *r = rc4k_single(m->kr[o].k);
		double b = o == c->kernel || !finalist(&m->kr[o])
				   ? 1
				   : bound(m, c->kernel, o);
		if (b < 1 - c->window &&
		    (b < 1 - FAMILY_COST ||
		     b * lanes <= lanes_share(set_keys, crypt_many, r) *
					  (1 + TIE_CAP)))
			return;
	}
	c->uncertain = false;
	c->why_code = NULL;
	note_add(c, "family: sure, though %s, of another layout", c->why);
	c->why[0] = '\0';
}

/* The bar kernel A must clear over B in a cell: noise()'s, with the
 * ratio's spread from each one's round spread (a cell's rounds are not
 * kept), at least C's window. */
static double split_bar(const struct measurement *m, const struct choice *c,
			const struct kresult *a, const struct kresult *b)
{
	int n = m->rounds > 0 ? m->rounds : 1;

	return fmax(c->window,
		    2 * SPEED_MEDIAN_SE * hypot(a->spread, b->spread) /
			    sqrt(n));
}

/* A below cell T and L from it, over C's kernel B alone: the workload's
 * score ratio, or 0 where A loses to L below T, or a weighted cell run by
 * another kernel than B does not beat B there, by more than the bar. */
static double split_gain(const struct measurement *m, const struct choice *c,
			 size_t a, size_t l, int t)
{
	const double *w = m->bench->weight[m->workload];
	const struct kresult *ka = &m->kr[a], *kl = &m->kr[l];
	const struct kresult *kb = &m->kr[c->kernel];
	double lg = 0, sum = 0, bar = split_bar(m, c, ka, kl);

	for (int i = 0; i < m->bench->ncells; i++) {
		const struct kresult *k = i < t ? ka : kl;
		if (i < t && ka->rate[i] * (1 + bar) < kl->rate[i])
			return 0;
		sum += w[i];
		if (k == kb || w[i] <= 0)
			continue;
		if (k->rate[i] <= kb->rate[i] * (1 + split_bar(m, c, k, kb)))
			return 0;
		lg += w[i] * log(k->rate[i] / kb->rate[i]);
	}
	return sum > 0 ? exp(lg / sum) : 1;
}

/* Into S, A and L's split at the cell boundary that gains most, if it
 * gains more than S so far. */
static void split_try(const struct measurement *m, const struct choice *c,
		      size_t a, size_t l, struct split *s)
{
	const struct cell *cell = m->bench->cells;

	for (int t = 1; t < m->bench->ncells && cell[t].bytes > 0 &&
			cell[t - 1].bytes > 0;
	     t++) {
		double gain = split_gain(m, c, a, l, t);
		if (gain <= s->gain)
			continue;
		*s = (struct split){ a, l, cell[t].bytes, t, { 0 }, gain };
		for (int i = 0; i < t; i++)
			s->ratio[i] = m->kr[a].rate[i] / m->kr[l].rate[i];
	}
}

/* Whether kernel I may join a split with C's kernel: of its family, and
 * never in its place where C holds the prior. */
static bool split_fits(const struct measurement *m, const struct choice *c,
		       size_t i, bool as_long)
{
	if (i == c->kernel)
		return true;
	return !(as_long && c->held) && m->kr[i].status == KERNEL_OK &&
	       rc4k_split_misfit_reason(rc4k_single(m->kr[c->kernel].k),
				 rc4k_single(m->kr[i].k)) == NULL;
}

/* S for C: the best split_gain among pairs of C's family, if more than
 * the window, and C is certain.  A long kernel other than C's becomes
 * C's kernel (it sets keys up), and C's note says why. */
static void decide_split(const struct measurement *m, struct choice *c,
			 struct split *s)
{
	/* a split must gain more than the window, or it is none */
	*s = (struct split){ .gain = 1 + c->window };
	for (size_t l = 0; !c->uncertain && l < m->n; l++)
		for (size_t a = 0; split_fits(m, c, l, true) && a < m->n; a++)
			if (a != l && split_fits(m, c, a, false))
				split_try(m, c, a, l, s);
	if (s->below == 0) {
		*s = (struct split){ 0 };
		return;
	}
	if (s->long_kernel != c->kernel) {
		note_add(c, "%s from %zu bytes, %s below: %.3f of %s's score",
			 m->kr[s->long_kernel].k->name, s->below,
			 m->kr[s->short_kernel].k->name, s->gain,
			 m->kr[c->kernel].k->name);
	}
	c->kernel = s->long_kernel;
}

/* D's single kind: decide, the family step (GOT NULL: the batch kinds
 * not measured yet), the split.  The kernel chosen. */
static const struct rc4k *decide_single(struct decision *d,
					const struct measurement *m,
					const struct rc4_record_key *prior,
					const char *heuristic,
					const struct measurement *const *got)
{
	struct choice *c = &d->choice[RC4K_SINGLE];

	d->use[RC4K_SINGLE] = m;
	*c = decide(m, prior, heuristic);
	if (got != NULL) {
		decide_family(m, c, got[RC4K_SET_KEYS], got[RC4K_CRYPT_MANY]);
		family_sure(m, c, got[RC4K_SET_KEYS], got[RC4K_CRYPT_MANY]);
	}
	decide_split(m, c, &d->split);
	lowest(m, c); /* the family step or the split may have moved it */
	return rc4k_single(m->kr[c->kernel].k);
}

const struct rc4k *decide_serial(const struct measurement *const *got,
				 const struct rc4_record *prior,
				 const char *heuristic, bool batch)
{
	struct decision d = { 0 };

	return decide_single(&d, got[RC4K_SINGLE],
			     prior ? &prior->key[RC4K_SINGLE] : NULL, heuristic,
			     batch ? got : NULL);
}

/* What serial on another single-stream kernel may gain on its estimate
 * (below): more than the rounds' spread of the three figures it rests
 * on. */
static const double RETIME_SLACK = 0.10;

bool decide_retime(const struct measurement *single,
		   const struct measurement *batch, const struct rc4k *to)
{
	int c = batch->bench->serial_cell;
	size_t was = find(single, batch->single ? batch->single->info.name
						: NULL),
	       now = find(single, to->info.name);
	double serial = 0, lanes = 0;

	if (was == single->n || now == single->n ||
	    single->kr[was].rate[c] <= 0)
		return true;
	for (size_t i = 0; i < batch->n; i++) {
		const struct kresult *r = &batch->kr[i];
		if (r->status != KERNEL_OK)
			continue;
		if (r->k == &rc4k_serial.info)
			serial = r->score;
		else if (rc4k_misfit_reason(r->k, to) == NULL)
			lanes = fmax(lanes, r->score);
	}
	/* never below its figure as timed, which a choice now would read */
	return serial * fmax(single->kr[now].rate[c] / single->kr[was].rate[c],
			     1) * (1 + RETIME_SLACK) >=
	       lanes;
}

/* D's batch kind K as SINGLE's keys see it: against PRIOR, or (RUN) this
 * run alone.  Serial ran another kernel where the section changed while
 * measuring (another run wrote it): the note says so. */
static int decide_batch(struct decision *d, int k,
			const struct measurement *all, const struct rc4k *single,
			const struct rc4_record *prior, const char *heuristic,
			bool run)
{
	struct choice *c = &d->choice[k];

	measure_free(&d->fit[k]);
	if (fitting(all, single, &d->fit[k]) != 0)
		return -1;
	d->use[k] = &d->fit[k];
	*c = run ? decide_run(d->use[k], heuristic)
		 : decide(d->use[k], prior ? &prior->key[k] : NULL, heuristic);
	if (all->single != NULL && all->single != single) {
		note_add(c, "serial was timed on %s, not on %s",
			 all->single->info.name, single->info.name);
	}
	return 0;
}

int decide_calls(struct decision *d, const struct measurement *const *got,
		 const struct rc4_record *prior, const char *const *heuristic,
		 const struct rc4k *single)
{
	d->split = (struct split){ 0 };
	if (got[RC4K_SINGLE] != NULL)
		single = decide_single(d, got[RC4K_SINGLE],
				    prior ? &prior->key[RC4K_SINGLE] : NULL,
				    heuristic[RC4K_SINGLE], got);
	for (int k = RC4K_SINGLE + 1; k < RC4K_KINDS; k++)
		if (got[k] != NULL && decide_batch(d, k, got[k], single, prior,
						   heuristic[k], false) != 0)
			return -1;
	return 0;
}

int decide_runs(struct decision *d, const struct measurement *const *got,
		const char *const *heuristic)
{
	if (got[RC4K_SINGLE] != NULL) {
		d->use[RC4K_SINGLE] = got[RC4K_SINGLE];
		d->choice[RC4K_SINGLE] =
			decide_run(got[RC4K_SINGLE], heuristic[RC4K_SINGLE]);
	}
	for (int k = RC4K_SINGLE + 1; k < RC4K_KINDS; k++)
		if (got[k] != NULL && decide_batch(d, k, got[k], got[k]->single,
						   NULL, heuristic[k], true) != 0)
			return -1;
	return 0;
}

void decide_free(struct decision *d)
{
	for (int k = 0; k < RC4K_KINDS; k++)
		measure_free(&d->fit[k]);
}

const char *decide_name(const struct decision *d, int k)
{
	return d->use[k]->kr[d->choice[k].kernel].k->name;
}
