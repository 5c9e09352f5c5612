/* SPDX-License-Identifier: MIT */
/* check_speed.c - the timing core's rounds visit the CPUs the process may
 * run on in turn, each placement on each (rc4tune(1), WHAT A RESULT MUST
 * HOLD), a benchmark's rounds each alike, a round on one CPU throughout,
 * which the table records, and leave the process free to run where it
 * could before; each CPU's rounds weigh alike in a row's figures. */
#include <config.h>

#include <sched.h>
#include <stdbool.h>
#include "tuner/speed.h"
#include "testutil.h"

enum { ROWS = 3, CELLS = 2 };

/* Where each round's slices ran. */
static struct speed_table t;
static int cpu_of[SPEED_MAX_ROUNDS];
static bool split_round;

static double where(void *ctx, size_t row, int cell, int place)
{
	static int round = -1;
	int cpu = sched_getcpu();

	(void)ctx;
	(void)row;
	(void)cell;
	(void)place;
	if (t.rounds != round) {
		round = t.rounds;
		cpu_of[round] = cpu;
	}
	split_round |= cpu_of[round] != cpu;
	return 1;
}

/* ROUNDS rounds; each leaves the process's CPUs as they were. */
static void run_rounds(int rounds)
{
	cpu_set_t before, after;

	ck_assert_int_eq(speed_init(&t, ROWS, CELLS), 0);
	for (int r = 0; r < rounds; r++) {
		ck_assert_int_eq(sched_getaffinity(0, sizeof before, &before), 0);
		ck_assert_int_eq(speed_round(&t, NULL, ROWS, where, NULL), 0);
		ck_assert_int_eq(sched_getaffinity(0, sizeof after, &after), 0);
		ck_assert_msg(CPU_EQUAL(&before, &after),
			      "round %d left the process on other CPUs", r);
	}
	ck_assert_msg(!split_round, "a round's slices ran on two CPUs");
}

/* A benchmark's rounds: from a turn of the placements on, whole turns of
 * every placement on every CPU; as asked where fewer, or past the most. */
START_TEST(test_whole_turns)
{
	static const struct {
		int rounds, most, cpus, want;
	} c[] = {
		{ 3, 255, 2, 3 },     { 5, 255, 4, 5 },    { 6, 255, 2, 12 },
		{ 18, 255, 2, 24 },   { 24, 255, 2, 24 },  { 25, 255, 2, 36 },
		{ 18, 255, 1, 18 },   { 19, 255, 1, 24 },  { 18, 255, 0, 18 },
		{ 15, 64, 8, 48 },    { 18, 64, 16, 18 },  { 60, 64, 2, 60 },
		{ 240, 255, 2, 240 }, { 250, 255, 2, 252 }, { 253, 255, 2, 253 },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		ck_assert_msg(speed_whole_turns(c[i].rounds, c[i].most,
						c[i].cpus) == c[i].want,
			      "%d rounds (at most %d) on %d CPUs: %d, not %d",
			      c[i].rounds, c[i].most, c[i].cpus,
			      speed_whole_turns(c[i].rounds, c[i].most,
						c[i].cpus),
			      c[i].want);
}
END_TEST

/* Each of ROUNDS rounds on one of N CPUs: each placement on each as
 * often as on any other, give or take the one turn left unfinished
 * (where a turn of each is more than the rounds can take). */
static void each_alike(int rounds, int n)
{
	int turn = SPEED_PLACES * n, least = rounds / turn,
	    most = (rounds + turn - 1) / turn;

	for (int i = 0; i < rounds; i++) {
		int same = 0;
		for (int j = 0; j < rounds; j++)
			same += t.place[j] == t.place[i] && cpu_of[j] == cpu_of[i];
		ck_assert_msg(same >= least && same <= most,
			      "%d rounds: placement %d on CPU %d %d times, not "
			      "%d to %d",
			      rounds, t.place[i], cpu_of[i], same, least, most);
	}
}

/* Each round's CPU in the table is the one it ran on: the nth of the
 * process's ALLOWED CPUs. */
static void cpus_recorded(int rounds, const cpu_set_t *allowed)
{
	for (int i = 0; i < rounds; i++) {
		int nth = t.cpu[i], cpu = 0;
		for (;; cpu++)
			if (CPU_ISSET(cpu, allowed) && nth-- == 0)
				break;
		ck_assert_msg(cpu == cpu_of[i], "round %d on CPU %d, recorded "
			      "as the process's CPU %d (%d)", i, cpu_of[i],
			      t.cpu[i], cpu);
	}
}

/* The rounds a benchmark asks for take each placement to each of the
 * process's CPUs the same number of times. */
START_TEST(test_each_placement_on_each_cpu)
{
	cpu_set_t allowed;

	ck_assert_int_eq(sched_getaffinity(0, sizeof allowed, &allowed), 0);
	int n = CPU_COUNT(&allowed);
	ck_assert_int_eq(speed_cpus(), n);
	int rounds = speed_whole_turns(3 * SPEED_PLACES, SPEED_MAX_ROUNDS, n);
	run_rounds(rounds);
	for (int i = 0; i < rounds; i++)
		ck_assert_msg(CPU_ISSET(cpu_of[i], &allowed),
			      "round %d on CPU %d, not the process's", i,
			      cpu_of[i]);
	each_alike(rounds, n);
	cpus_recorded(rounds, &allowed);
	speed_free(&t);
}
END_TEST

/* One row in one cell at placement 0, the rounds' samples V on CPU. */
static struct speed one_place(const double *v, const unsigned char *cpu,
			      int n)
{
	struct speed s;

	ck_assert_int_eq(speed_init(&t, 1, 1), 0);
	for (int i = 0; i < n; i++) {
		*speed_sample(&t, 0, 0, i) = v[i];
		t.cpu[i] = cpu[i];
	}
	t.rounds = n;
	speed_of(&t, 0, 0, &s, NULL);
	speed_free(&t);
	return s;
}

/* A CPU with more of a placement's rounds than another (a budget's
 * rounds, not whole turns) does not weigh more in its figures; where each
 * has as many, they are the plain median. */
START_TEST(test_cpus_weigh_alike)
{
	static const double slow_fast[] = { 80, 102, 78, 98, 82 };
	static const unsigned char three_two[] = { 0, 1, 0, 1, 0 };
	static const double even[] = { 70, 100, 90, 60, 75, 85 };
	static const unsigned char alike[] = { 0, 1, 2, 1, 2, 0 };
	double tmp[6];

	struct speed s = one_place(slow_fast, three_two, 5);
	ck_assert_msg(s.at[0] == 90 && s.all == 90 && s.rate == 90,
		      "CPU 0's 78-82 and CPU 1's 98-102: at %g, all %g, rate "
		      "%g, not 90 (the mean of 82 and 98)",
		      s.at[0], s.all, s.rate);
	s = one_place(even, alike, 6);
	double plain = speed_median(even, 6, tmp);
	ck_assert_msg(s.at[0] == plain && s.all == plain && s.rate == plain,
		      "two rounds on each CPU: at %g, all %g, rate %g, not the "
		      "median %g",
		      s.at[0], s.all, s.rate, plain);
}
END_TEST

START_TEST(test_one_cpu_stays)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	ck_assert_int_eq(sched_setaffinity(0, sizeof one, &one), 0);
	run_rounds(SPEED_PLACES);
	for (int i = 0; i < SPEED_PLACES; i++)
		ck_assert_int_eq(cpu_of[i], cpu);
	speed_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("speed");
	TCase *tc = tcase_create("cpus");
	cpu_set_t allowed;

	/* sched_getcpu answers on Linux, qemu-user included */
	if (sched_getcpu() < 0 ||
	    sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
		printf("SKIP: no sched_getcpu or sched_getaffinity here\n");
		return 77;
	}
	if (CPU_COUNT(&allowed) < 2)
		printf("note: one CPU here: the rounds have nowhere to go\n");
	tcase_add_test(tc, test_whole_turns);
	tcase_add_test(tc, test_each_placement_on_each_cpu);
	tcase_add_test(tc, test_one_cpu_stays);
	tcase_add_test(tc, test_cpus_weigh_alike);
	suite_add_tcase(s, tc);
	return test_run(s);
}
