/*
 * test/target/test_patch_refuse.c: a batch the patcher refuses changes
 * nothing any CPU can see, and still ends in a synchronisation round
 * (the grace period for what the caller published and takes back).
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "core/core.h"
#include "ktest.h"
#include "target.h"
#include "text_alias.h"

#define INSN_YIELD	0xd503203fU	/* a NOP form the core never writes */
#define REFUSALS	40

void dt_count_tramp(void);	/* test/target/direct_tramps.S */

static int __attribute__((noipa)) pr_shared(int x) { return x + 7; }

static volatile uint64_t x_hits, y_hits, calls;
static volatile int pr_stop;

static void on_x(uintptr_t ip, uintptr_t parent, struct trace_ops *ops, struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	__atomic_fetch_add(&x_hits, 1, __ATOMIC_RELAXED);
}

static void on_y(uintptr_t ip, uintptr_t parent, struct trace_ops *ops, struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	__atomic_fetch_add(&y_hits, 1, __ATOMIC_RELAXED);
}

static struct trace_ops ops_x = { .func = on_x }, ops_y = { .func = on_y };

/* Makes tt_gamma's site differ from what the core believes. */
static void spoil_gamma(bool on)
{
	uintptr_t f = (uintptr_t)&tt_gamma;

	if (on)
		text_write32((void *)(f + 4), INSN_NOP, INSN_YIELD);
	else
		text_write32((void *)(f + 4), INSN_YIELD, INSN_NOP);
	text_sync(f, f + 8);
}

KTEST(patch_refused_batch_still_ends_in_a_round)
{
	struct trace_patch_stats s0, s1;

	if (skip_while_covering(t))
		return;

	spoil_gamma(true);
	trace_ops_set_filter(&ops_y, "tt_gamma");
	trace_patch_stats(&s0);
	KT_EQ(t, trace_ops_register(&ops_y), TRACE_EPATCH);
	trace_patch_stats(&s1);
	spoil_gamma(false);
	KT_EXPECT(t, s1.refused > s0.refused);
	/* One round per batch, refused (the register) or applied (its roll
	 * back, which no longer names tt_gamma). */
	KT_EQ(t, s1.rounds - s0.rounds, (s1.refused - s0.refused) + (s1.batches - s0.batches));
	KT_EXPECT(t, !ops_y.registered);
}

static void caller(void *arg)
{
	(void)arg;
	while (!READ_ONCE(pr_stop)) {
		pr_shared(1);
		calls = calls + 1;
	}
}

/* pr_shared has a direct trampoline and ops X (trace_caller_both, whose
 * inner ops is X). Registering Y on pr_shared and the spoiled tt_gamma
 * is refused each time: Y must never run, not even while the refused
 * batch was being prepared (its inner ops is published only once the
 * batch is accepted). */
KTEST(patch_refused_batch_never_runs_the_refused_ops)
{
	if (skip_while_covering(t))
		return;

	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	x_hits = 0, y_hits = 0, calls = 0, pr_stop = 0;
	KT_EQ(t, trace_direct_attach(pr_shared, dt_count_tramp), 0);
	KT_EQ(t, trace_ops_set_filter(&ops_x, "pr_shared"), 0);
	KT_EQ(t, trace_ops_register(&ops_x), 0);
	KT_EQ(t, trace_ops_set_filter(&ops_y, "pr_shared tt_gamma"), 0);
	smp_start(1, caller, NULL);
	while (!calls)
		cpu_relax();
	spoil_gamma(true);
	int refused = 0;

	for (int i = 0; i < REFUSALS; i++)
		refused += trace_ops_register(&ops_y) == TRACE_EPATCH;
	spoil_gamma(false);
	WRITE_ONCE(pr_stop, 1);
	smp_wait(1);
	KT_EQ(t, trace_ops_unregister(&ops_x), 0);
	KT_EQ(t, trace_direct_detach(pr_shared), 0);
	KT_EQ(t, refused, REFUSALS);
	KT_EQ(t, y_hits, 0);
	KT_EQ(t, x_hits, calls);	/* X saw every call, Y none */
	KT_EQ(t, pr_shared(1), 8);
}
