/*
 * test/target/test_grace.c: the patcher's IPI round is a real grace
 * period for every path that reads what it retires.
 *
 * CPUs 1-3 call a direct-attached function (long path: the literal's
 * direct_call, trace_caller_direct), one shared by a trampoline and ops
 * (trace_caller_both) and fire a tracepoint, while CPU 0 attaches and
 * detaches, registers and unregisters (each of GRACE_ROUNDS rounds is
 * 8 to 12 patch batches). Retired memory is poisoned
 * (trace/core/direct.c, trace/events/tracepoint.c) so a use after its grace period is counted, not silent; a probe that
 * is still running once tp_probe_detach returned is caught by the flag
 * CPU 0 raises right after it returns.
 *
 * Bounded by rounds, not by how fast the host runs: it goes on for
 * GRACE_SECONDS or GRACE_ROUNDS rounds, but never ends before
 * GRACE_MIN_ROUNDS rounds with the probe seen running (each round
 * waits for every other CPU, so on a loaded 2-core host, where the
 * vCPUs get few turns, a round took 1.5 to 2 s and 6 s gave 2 to 4:
 * 'rounds >= 5' failed in 41 of 55 runs under tools/under-load 3,
 * and in the whole suite beside other QEMUs; test/grace_slow.py makes
 * those few turns exact under -icount).
 * GRACE_MAX_SECONDS only turns a run that makes no progress into a
 * failure rather than a hang.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "config.h"
#include "core/core.h"
#include "kprintf.h"
#include "ktest.h"
#include "events/tracepoint.h"

#define GRACE_ROUNDS	2000
#define GRACE_SECONDS	6
#define GRACE_MIN_ROUNDS	5
#define GRACE_MAX_SECONDS	120

TP_DEFINE(gp, hit, TP_FIELD(U32, cpu, "%u"));

void dt_count_tramp(void);			/* test/target/direct_tramps.S */
extern bool trace_direct_force_long;
extern volatile uint64_t trace_direct_stale_hits;

static int __attribute__((noipa)) gp_direct(int x) { return x + 1; }
static int __attribute__((noipa)) gp_both(int x) { return x + 2; }

static volatile int gp_stop, gp_gone;
static volatile unsigned int gp_ready;
static volatile uint64_t gp_wrong, gp_after, gp_probe_hits, gp_loops[NR_CPUS];

/* Stays a while, so the detach's round finds CPUs inside it; counts a
 * run that saw the flag CPU 0 raises once tp_probe_detach returned. */
static void gp_probe(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
	if (READ_ONCE(gp_gone))
		__atomic_fetch_add(&gp_after, 1, __ATOMIC_RELAXED);
	for (volatile int i = 0; i < 1000; i++)
		;
	if (READ_ONCE(gp_gone))
		__atomic_fetch_add(&gp_after, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&gp_probe_hits, 1, __ATOMIC_RELAXED);
}

static void gp_probe2(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
}

static void gp_ops_func(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
}

static struct trace_ops gp_ops = { .func = gp_ops_func };

static void gp_worker(void *arg)
{
	unsigned int cpu = smp_cpu_id();

	(void)arg;
	__atomic_fetch_add(&gp_ready, 1, __ATOMIC_RELAXED);
	while (!READ_ONCE(gp_stop)) {
		if (gp_direct((int)cpu) != (int)cpu + 1 || gp_both((int)cpu) != (int)cpu + 2)
			gp_wrong = gp_wrong + 1;
		trace_event(gp, hit, cpu);
		gp_loops[cpu]++;
	}
}

KTEST(grace_period_holds_for_direct_calls_and_tracepoint_probes)
{
	unsigned int n = smp_num_cpus();
	const struct tp_event *ev = tp_find("gp:hit");
	uint64_t stale_direct = trace_direct_stale_hits, stale_tp = tp_stale_hits;
	int errors = 0, rounds = 0;

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	gp_stop = 0, gp_gone = 0, gp_ready = 0, gp_wrong = 0, gp_after = 0, gp_probe_hits = 0;
	trace_direct_force_long = true;		/* through trace_caller_direct */
	KT_EQ(t, trace_ops_set_filter(&gp_ops, "gp_both"), 0);
	for (unsigned int c = 1; c < n; c++)
		smp_start(c, gp_worker, NULL);
	while (gp_ready < n - 1)
		cpu_relax();

	uint64_t now = time_counter(), hz = time_counter_hz();
	uint64_t end = now + GRACE_SECONDS * hz, give_up = now + GRACE_MAX_SECONDS * hz;

	for (; rounds < GRACE_ROUNDS; rounds++) {
		now = time_counter();
		if (now >= give_up || (now >= end && rounds >= GRACE_MIN_ROUNDS &&
				       READ_ONCE(gp_probe_hits) > 0))
			break;
		WRITE_ONCE(gp_gone, 0);
		errors += tp_probe_attach(ev, gp_probe) != 0;	/* alone: a static call */
		errors += trace_direct_attach(gp_direct, dt_count_tramp) != 0;
		errors += trace_direct_attach(gp_both, dt_count_tramp) != 0;
		errors += trace_ops_register(&gp_ops) != 0;	/* gp_both: trace_caller_both */
		errors += trace_ops_unregister(&gp_ops) != 0;
		if (rounds % 2) {		/* two probes: tp_iterate and its arrays */
			errors += tp_probe_attach(ev, gp_probe2) != 0;
			errors += tp_probe_detach(ev, gp_probe2) != 0;
		}
		errors += tp_probe_detach(ev, gp_probe) != 0;
		WRITE_ONCE(gp_gone, 1);		/* no CPU may be inside gp_probe now */
		errors += trace_direct_detach(gp_direct) != 0;
		errors += trace_direct_detach(gp_both) != 0;
	}
	WRITE_ONCE(gp_stop, 1);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	trace_direct_force_long = false;

	uint64_t loops = 0;

	for (unsigned int c = 1; c < n; c++)
		loops += gp_loops[c];
	kprintf("    # %d rounds, %lu calls on %u CPUs, probe ran %lu times\n", rounds,
		(unsigned long)loops, n - 1, (unsigned long)gp_probe_hits);
	KT_EQ(t, errors, 0);
	KT_EQ(t, gp_wrong, 0);
	KT_EQ(t, gp_after, 0);
	KT_EQ(t, trace_direct_stale_hits - stale_direct, 0);
	KT_EQ(t, tp_stale_hits - stale_tp, 0);
	KT_EXPECT(t, rounds >= GRACE_MIN_ROUNDS);
	KT_EXPECT(t, gp_probe_hits > 0);
	KT_EQ(t, gp_direct(1), 2);
	KT_EQ(t, gp_both(1), 3);
}
