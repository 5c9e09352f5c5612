/* select.c - which kernel new keys use: chosen once, on first use, then
 * read without a lock (zlib-ng's functable pattern).  The choice follows
 * the precedence of design.md and can tell why (RC4TUNE_DEBUG=1,
 * rc4tune --explain). */
#include <config.h>

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf.h"
#include "heuristic.h"
#include "kernels/batch.h"
#include "rc4tune.h"
#include "select.h"

/* A slot: the kernel (single-stream or batch) new keys use, chosen once on
 * first use by CHOOSE, then read without a lock; rc4tune_use_* replace it. */
struct slot {
	_Atomic(const void *) cur;
	pthread_once_t once;
	void (*choose)(void);
};

static const void *slot_get(struct slot *s)
{
	const void *k = atomic_load_explicit(&s->cur, memory_order_acquire);
	if (k == NULL) {
		pthread_once(&s->once, s->choose);
		k = atomic_load_explicit(&s->cur, memory_order_acquire);
	}
	return k;
}

/* Switch S to K, found for NAME (NULL if unknown), unless REFUSED says
 * why K may not run here. */
static int slot_use(struct slot *s, const char *name, const void *k,
		    const char *refused)
{
	slot_get(s); /* a later first-use selection must not undo this */
	if (k == NULL) {
		errno = name ? ENOENT : EINVAL;
		return -1;
	}
	if (refused != NULL) {
		errno = ENOTSUP;
		return -1;
	}
	atomic_store_explicit(&s->cur, k, memory_order_release);
	return 0;
}

/* Self-test verdicts, so that a kernel of either kind is tested at most
 * once per process (a registry larger than the table only costs repeated
 * tests). */
static pthread_mutex_t verdict_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	const void *k;
	bool ok;
} verdicts[64];
static size_t nverdicts;

static bool passes(const void *k, bool (*test)(const void *))
{
	size_t i = 0;
	bool ok;

	pthread_mutex_lock(&verdict_lock);
	while (i < nverdicts && verdicts[i].k != k)
		i++;
	if (i < nverdicts) {
		ok = verdicts[i].ok;
	} else {
		ok = test(k);
		if (nverdicts < sizeof verdicts / sizeof verdicts[0]) {
			verdicts[nverdicts].k = k;
			verdicts[nverdicts].ok = ok;
			nverdicts++;
		}
	}
	pthread_mutex_unlock(&verdict_lock);
	return ok;
}

static bool single_ok(const void *k)
{
	return rc4k_selftest(k) == 0;
}

static bool batch_ok(const void *b)
{
	return rc4k_batch_selftest(b) == 0;
}

const char *rc4_kernel_refused(const struct rc4k *k)
{
	if (!rc4k_usable(k))
		return "this CPU cannot run it";
	if (!passes(k, single_ok))
		return "it failed its self-test";
	return NULL;
}

const char *rc4_batch_refused(const struct rc4k_batch *b)
{
	if (!rc4k_batch_usable(b))
		return "this CPU cannot run it";
	if (!passes(b, batch_ok))
		return "it failed its self-test";
	return NULL;
}

struct trail {
	char *buf; /* NULL: nobody asked, format nothing */
	size_t size, len;
};

static void say(struct trail *t, const char *fmt, ...)
{
	va_list ap;

	if (t->buf == NULL || t->len + 1 >= t->size)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(t->buf + t->len, t->size - t->len - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->len += (size_t)n < t->size - t->len - 1 ? (size_t)n
						   : t->size - t->len - 2;
	t->buf[t->len++] = '\n';
	t->buf[t->len] = '\0';
}

/* The kernel NAME that STEP names, if it may run here; else NULL, and the
 * trail says why the step is skipped. */
static const struct rc4k *candidate(const struct rc4_select_in *in,
				    struct trail *t, const char *step,
				    const char *name)
{
	const struct rc4k *k = in->find(name);
	const char *why = k == NULL ? "unknown kernel" : rc4_kernel_refused(k);

	if (why == NULL)
		return k;
	say(t, "%s: \"%s\": %s; skipped", step, name, why);
	return NULL;
}

/* Read the config for SECTION (NULL: the CPU is not identified) and say
 * on the trail, after PREFIX, whether it is used, or why not: both
 * selections tell the same. */
static int read_conf(const struct rc4_select_in *in, const char *section,
		     struct rc4_conf *conf, struct trail *t, const char *prefix)
{
	char why[512];
	int rc = rc4_conf_read(in->conf, section, conf, NULL, why, sizeof why);

	if (rc > 0)
		say(t, "%sconfig %s: no such file", prefix, in->conf);
	else if (rc < 0 && conf->bad_line != 0)
		say(t, "%sconfig %s: whole file ignored: line %d: %s", prefix,
		    in->conf, conf->bad_line, why);
	else if (rc < 0)
		say(t, "%sconfig %s: whole file ignored: %s", prefix, in->conf,
		    why);
	else
		say(t, "%sconfig %s: read", prefix, in->conf);
	return rc;
}

const struct rc4k *rc4_select(const struct rc4_select_in *in, char *buf,
			      size_t size)
{
	static const char *const slot_name[] = {
		[RC4_CONF_CPU] = "this CPU's section",
		[RC4_CONF_DEFAULT] = "[default]",
	};
	struct trail t = { buf, size, 0 };
	const struct rc4k *k;
	struct rc4_conf conf;
	char section[64], step[64 + 32];
	const char *rule, *name;

	if (buf != NULL && size > 0)
		buf[0] = '\0';
	if (in->kernel == NULL)
		say(&t, "RC4TUNE_KERNEL: not set");
	else if ((k = candidate(in, &t, "RC4TUNE_KERNEL", in->kernel))) {
		say(&t, "chosen: %s (RC4TUNE_KERNEL)", k->name);
		return k;
	}

	if (in->cpu != NULL) {
		rc4_cpu_section(in->cpu, section, sizeof section);
		say(&t, "cpu: %s", section + 4);
	} else {
		say(&t, "cpu: not identified (%s)", in->cpu_why);
	}

	int rc = read_conf(in, in->cpu ? section : NULL, &conf, &t, "");
	for (int s = RC4_CONF_CPU; rc == 0 && s <= RC4_CONF_DEFAULT; s++) {
		const char *sec = s == RC4_CONF_CPU ? section : "default";
		if (s == RC4_CONF_CPU && in->cpu == NULL) {
			say(&t, "config: %s: CPU not identified",
			    slot_name[s]);
			continue;
		}
		if (conf.line[s] == 0) {
			say(&t, "config: no kernel in [%s]", sec);
			continue;
		}
		snprintf(step, sizeof step, "config line %d [%s]",
			 conf.line[s], sec);
		if ((k = candidate(in, &t, step, conf.kernel[s]))) {
			say(&t, "chosen: %s (%s)", k->name, step);
			return k;
		}
	}

	name = rc4_heuristic(in->cpu, &rule);
	say(&t, "heuristic: %s", rule);
	if (name != NULL && (k = candidate(in, &t, "heuristic", name))) {
		say(&t, "chosen: %s (heuristic)", k->name);
		return k;
	}

	say(&t, "chosen: %s (portable default)", rc4k_default->name);
	return rc4k_default;
}

void rc4_select_live(struct rc4_select_in *in, struct rc4_cpu *cpu)
{
	const char *k = secure_getenv("RC4TUNE_KERNEL");

	in->kernel = k != NULL && *k != '\0' ? k : NULL;
	in->conf = rc4_conf_path();
	in->cpu_why = NULL;
	in->cpu = rc4_cpu_signature(cpu, &in->cpu_why) == 0 ? cpu : NULL;
	in->find = rc4k_find;
}

/* RC4TUNE_DEBUG=1: the selection trails go to stderr. */
static bool debug_on(void)
{
	const char *debug = secure_getenv("RC4TUNE_DEBUG");
	return debug != NULL && strcmp(debug, "1") == 0;
}

static void print_trail(const char *trail)
{
	for (const char *line = trail, *nl; (nl = strchr(line, '\n'));
	     line = nl + 1)
		fprintf(stderr, "librc4tune: %.*s\n", (int)(nl - line), line);
}

/* Run a selection with the live inputs, print its trail if asked, and
 * fill slot S with what it chose. */
static void choose_into(struct slot *s,
			const void *(*pick)(const struct rc4_select_in *,
					    char *, size_t))
{
	struct rc4_select_in in;
	struct rc4_cpu cpu;
	bool loud = debug_on();
	char trail[4096];
	int saved = errno; /* a missing config is normal: no ENOENT leaks out */

	rc4_select_live(&in, &cpu);
	const void *k = pick(&in, loud ? trail : NULL, sizeof trail);
	if (loud)
		print_trail(trail);
	atomic_store_explicit(&s->cur, k, memory_order_release);
	errno = saved;
}

static const void *pick_single(const struct rc4_select_in *in, char *trail,
			       size_t size)
{
	return rc4_select(in, trail, size);
}

static const void *pick_batch(const struct rc4_select_in *in, char *trail,
			      size_t size)
{
	return rc4_select_batch(in, trail, size);
}

static void choose_single(void);
static void choose_batch(void);
static struct slot single = { .once = PTHREAD_ONCE_INIT,
			      .choose = choose_single };
/* Separate, so programs that never use the batch API never pay for it. */
static struct slot batch = { .once = PTHREAD_ONCE_INIT,
			     .choose = choose_batch };

static void choose_single(void)
{
	choose_into(&single, pick_single);
}

static void choose_batch(void)
{
	choose_into(&batch, pick_batch);
}

const struct rc4k *rc4_current(void)
{
	return slot_get(&single);
}

const struct rc4k_batch *rc4_batch_current(void)
{
	return slot_get(&batch);
}

const char *rc4tune_kernel_name(void)
{
	return rc4_current()->name;
}

const char *rc4tune_batch_kernel_name(void)
{
	return rc4_batch_current()->name;
}

int rc4tune_use_kernel(const char *name)
{
	const struct rc4k *k = name ? rc4k_find(name) : NULL;
	return slot_use(&single, name, k, k ? rc4_kernel_refused(k) : NULL);
}

int rc4tune_use_batch_kernel(const char *name)
{
	const struct rc4k_batch *b = name ? rc4k_batch_find(name) : NULL;
	return slot_use(&batch, name, b, b ? rc4_batch_refused(b) : NULL);
}

const char *rc4tune_kernel_info(size_t i, const char **summary, int *usable)
{
	size_t n = 0;

	while (rc4k_registry[n] != NULL && n < i)
		n++;
	const struct rc4k *k = rc4k_registry[n];
	if (k == NULL)
		return NULL;
	if (summary)
		*summary = k->summary;
	if (usable)
		*usable = rc4k_usable(k);
	return k->name;
}

/* Config (this CPU's section, then [default]) > the default batch kernel;
 * every trail line starts with "batch". */
const struct rc4k_batch *rc4_select_batch(const struct rc4_select_in *in,
					  char *buf, size_t size)
{
	struct trail t = { buf, size, 0 };
	struct rc4_conf conf;
	char section[64];
	const struct rc4k_batch *b;

	if (buf != NULL && size > 0)
		buf[0] = '\0';
	if (in->cpu != NULL)
		rc4_cpu_section(in->cpu, section, sizeof section);
	if (read_conf(in, in->cpu ? section : NULL, &conf, &t, "batch: ") == 0)
		for (int s = RC4_CONF_CPU; s <= RC4_CONF_DEFAULT; s++) {
			const char *sec = s == RC4_CONF_CPU ? section
							    : "default";
			if (conf.batch_line[s] == 0) {
				if (s == RC4_CONF_DEFAULT || in->cpu != NULL)
					say(&t, "batch: no batch_kernel in [%s]",
					    sec);
				continue;
			}
			b = rc4k_batch_find(conf.batch[s]);
			const char *no = b == NULL ? "unknown batch kernel"
						   : rc4_batch_refused(b);
			if (no == NULL) {
				say(&t, "batch chosen: %s (config line %d [%s])",
				    b->name, conf.batch_line[s], sec);
				return b;
			}
			say(&t, "batch: config line %d [%s]: \"%s\": %s; "
				"skipped",
			    conf.batch_line[s], sec, conf.batch[s], no);
		}
	say(&t, "batch chosen: %s (portable default)",
	    rc4k_batch_default->name);
	return rc4k_batch_default;
}

