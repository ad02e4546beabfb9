/*
 * test/target/test_patch_stats.c: reading the patcher's counters (the
 * console's "stats") while another CPU patches. The reader must never
 * wait for trace_lock: the patcher holds it while it waits for every
 * CPU to take its IPI, so a reader spinning on it with interrupts masked
 * deadlocks both. CPU 0 only watches the toggles go up, so a deadlock of
 * the other two shows as a failed test rather than a hung run. It waits
 * as long as they make progress: a deadlock makes none, while a host
 * that is merely slow (multi-threaded TCG on a loaded machine: 131 of
 * 200 toggles in 10 s was seen) must not fail the test.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "ktest.h"
#include "target.h"

#define TOGGLE_GOAL	200		/* registrations and unregistrations */
#define STALL_S		5	/* no toggle for this long: deadlocked */

static volatile uint64_t toggles, stats_reads;
static volatile int stats_stop;
static volatile int toggle_errors;

static void count_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		      struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
}

static struct trace_ops toggled = { .func = count_hit };

static void toggler(void *arg)
{
	(void)arg;
	for (unsigned int i = 0; i < TOGGLE_GOAL; i++) {
		toggle_errors += trace_ops_register(&toggled) != 0;
		toggle_errors += trace_ops_unregister(&toggled) != 0;
		toggles = i + 1;
	}
}

static void stats_reader(void *arg)
{
	struct trace_patch_stats ps;

	(void)arg;
	while (!READ_ONCE(stats_stop)) {
		trace_patch_stats(&ps);
		stats_reads = stats_reads + 1;
	}
}

static void toggle_while_reading(struct ktest_ctx *t, unsigned int patcher,
				 unsigned int reader)
{
	struct trace_patch_stats before, after;

	if (skip_while_covering(t))
		return;

	if (smp_num_cpus() < 3)
		return ktest_skip(t, "needs 3 CPUs");
	trace_ops_set_filter(&toggled, "tt_alpha");
	toggles = 0, stats_reads = 0, stats_stop = 0, toggle_errors = 0;
	trace_patch_stats(&before);
	smp_start(reader, stats_reader, NULL);
	while (!stats_reads)
		cpu_relax();
	smp_start(patcher, toggler, NULL);

	uint64_t seen = 0, stall_end = time_counter() + STALL_S * time_counter_hz();

	while (toggles < TOGGLE_GOAL) {
		uint64_t now_toggles = toggles;

		if (now_toggles != seen) {
			seen = now_toggles;
			stall_end = time_counter() + STALL_S * time_counter_hz();
		} else if (time_counter() >= stall_end) {
			break;
		}
		time_delay_us(1000);
	}
	uint64_t done = toggles;

	KT_EQ(t, done, TOGGLE_GOAL);
	if (done != TOGGLE_GOAL)
		return;		/* the two are deadlocked: do not wait for them */
	WRITE_ONCE(stats_stop, 1);
	smp_wait(patcher);
	smp_wait(reader);
	trace_patch_stats(&after);
	KT_EQ(t, toggle_errors, 0);
	KT_EXPECT(t, stats_reads > 0);
	/* Every toggle was one batch (one site on, then off). */
	KT_EQ(t, after.batches - before.batches, 2 * TOGGLE_GOAL);
}

KTEST(patch_stats_read_while_cpu1_toggles_from_cpu2)
{
	toggle_while_reading(t, 1, 2);
}

KTEST(patch_stats_read_while_cpu2_toggles_from_cpu1)
{
	toggle_while_reading(t, 2, 1);
}
