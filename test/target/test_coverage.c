/*
 * test/target/test_coverage.c: function coverage (trace/tracers/coverage.c):
 * the exact bits of the functions called and not called, each reached
 * site back to the disabled form after its batch, another ops on the
 * same site still called every time, and the batch taking sites off
 * while other CPUs call them (run under -accel tcg,thread=multi by
 * test/boot_stages.py).
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "control/control.h"
#include "core/core.h"
#include "ktest.h"
#include "kprintf.h"
#include "percpu.h"
#include "pmu.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/coverage.h"

#define CV __attribute__((noipa))

extern char trace_caller[];

static CV int cv_called(int x) { return x + 1; }
static CV int cv_not_called(int x) { return x + 2; }
static CV int cv_later(int x) { return x + 3; }
static CV int cv_unchosen(int x) { return x + 4; }
static CV int cv_shared(int x) { return x + 5; }
static CV int cv_mt(int x) { return x + 6; }

static uint32_t insn_at(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static uint64_t literal_at(uintptr_t f)
{
	return *(volatile uint64_t *)(f - 8);
}

static bool reached(uintptr_t f)
{
	int site = trace_site_of(f);

	return site >= 0 && coverage_reached() &&
	       site_bit(coverage_reached(), (unsigned int)site);
}

bool skip_while_covering(struct ktest_ctx *t)
{
	if (!trace_covering())
		return false;
	ktest_skip(t, "coverage runs already (trace=coverage)");
	return true;
}

/* Coverage on these globs; skips the test when it already runs (a
 * trace=coverage boot). */
static bool cov_on(struct ktest_ctx *t, const char *globs)
{
	if (skip_while_covering(t))
		return false;
	KT_EQ(t, trace_coverage(true, globs), 0);
	return trace_covering();
}

/* Off, and forgotten: the run's end sends no coverage of these tests
 * (a plain ktest run is not a coverage run). */
static void cov_off(struct ktest_ctx *t)
{
	KT_EQ(t, trace_coverage(false, NULL), 0);
	KT_EQ(t, trace_coverage_forget(), 0);
}

KTEST(coverage_bits_are_exactly_the_functions_called)
{
	if (!cov_on(t, "cv_called cv_not_called cv_later"))
		return;
	KT_EQ(t, insn_at((uintptr_t)cv_called + 4),
	      patch_insn_bl((uintptr_t)cv_called + 4, (uintptr_t)trace_caller));
	cv_called(1);
	cv_called(2);
	cv_unchosen(1);
	KT_EXPECT(t, reached((uintptr_t)cv_called));
	KT_EXPECT(t, !reached((uintptr_t)cv_not_called));
	KT_EXPECT(t, !reached((uintptr_t)cv_later));
	KT_EXPECT(t, !reached((uintptr_t)cv_unchosen));	/* called, not chosen */
	cv_later(1);
	KT_EXPECT(t, reached((uintptr_t)cv_later));
	KT_EXPECT(t, !reached((uintptr_t)cv_not_called));
	unsigned int n = 0;

	for (unsigned int i = 0; i < trace_site_count(); i++)
		n += site_bit(coverage_reached(), i);
	KT_EQ(t, n, 2);		/* nothing else was chosen */
	KT_EQ(t, trace_coverage(false, NULL), 0);
	KT_EXPECT(t, reached((uintptr_t)cv_called));	/* kept after off */
	KT_EQ(t, trace_coverage_forget(), 0);
	KT_EXPECT(t, coverage_reached() == NULL);	/* and gone when forgotten */
}

KTEST(coverage_batch_puts_reached_sites_back_to_nop)
{
	uintptr_t hit = (uintptr_t)cv_called, idle = (uintptr_t)cv_not_called;

	if (!cov_on(t, "cv_called cv_not_called"))
		return;
	cv_called(1);
	/* The test runs on CPU 0, whose tick retires: it cannot be half
	 * way through a batch now, so this call finds the site still to do
	 * or already done. */
	int err = coverage_retire();

	KT_EQ(t, err, 0);
	KT_EQ(t, insn_at(hit + 4), INSN_NOP);
	KT_EQ(t, insn_at(hit), INSN_MOV_X9_LR);
	KT_EQ(t, literal_at(hit), (uintptr_t)&trace_nop_ops);
	KT_EQ(t, coverage_pending(), 0);
	/* The site never reached keeps the coverage ops. */
	KT_EQ(t, insn_at(idle + 4), patch_insn_bl(idle + 4, (uintptr_t)trace_caller));
	KT_EQ(t, literal_at(idle), (uintptr_t)&tracer_coverage_ops);
	cv_called(2);		/* through a NOP: still reached, nothing new */
	KT_EQ(t, coverage_pending(), 0);

	/* The tick on its own: CPU 0's next ticks take the site off. */
	struct trace_patch_stats before, after;

	trace_patch_stats(&before);
	cv_not_called(1);
	for (int i = 0; i < 200 && insn_at(idle + 4) != INSN_NOP; i++)
		time_delay_us(10000);	/* 2 s: a hang bound, a tick is 10 ms */
	trace_patch_stats(&after);
	KT_EQ(t, insn_at(idle + 4), INSN_NOP);
	KT_EQ(t, after.batches - before.batches, 1);
	KT_EQ(t, after.rounds - before.rounds, 0);	/* nobody was stopped */
	cov_off(t);
}

static uint64_t shared_hits;

static void count_shared(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			 struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	__atomic_fetch_add(&shared_hits, 1, __ATOMIC_RELAXED);
}

static struct trace_ops counter = { .func = count_shared };

KTEST(coverage_leaves_another_tracer_on_the_site)
{
	uintptr_t f = (uintptr_t)cv_shared;

	if (skip_while_covering(t))
		return;
	shared_hits = 0;
	KT_EQ(t, trace_ops_set_filter(&counter, "cv_shared"), 0);
	KT_EQ(t, trace_ops_register(&counter), 0);
	KT_EQ(t, trace_coverage(true, "cv_shared"), 0);
	int site = trace_site_of(f);

	KT_EXPECT(t, site >= 0);
	KT_EQ(t, literal_at(f), (uintptr_t)&bt_site_state[site]);	/* two ops: the list */
	for (int i = 0; i < 10; i++)
		cv_shared(i);
	KT_EQ(t, shared_hits, 10);
	KT_EQ(t, coverage_retire(), 0);
	KT_EXPECT(t, reached(f));
	/* Coverage alone left: the counter's own literal (its FP/SIMD shim). */
	KT_EQ(t, literal_at(f), (uintptr_t)trace_ops_literal(&counter));
	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)trace_caller));
	for (int i = 0; i < 10; i++)
		cv_shared(i);
	KT_EQ(t, shared_hits, 20);
	cov_off(t);
	cv_shared(0);
	KT_EQ(t, shared_hits, 21);
	KT_EQ(t, trace_ops_unregister(&counter), 0);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
	trace_ops_release(&counter);
}

/* Other CPUs call a covered site and a shared one while the batch takes
 * them off; the counter on the shared one must see every call. */
#define MT_ROUNDS	20

static volatile int mt_stop, mt_go;
static volatile uint64_t mt_calls[NR_CPUS];

static void mt_caller(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	while (!mt_go)
		cpu_relax();
	while (!READ_ONCE(mt_stop)) {
		cv_shared(1);
		cv_mt(1);
		mt_calls[cpu] = mt_calls[cpu] + 1;
	}
}

static uint64_t mt_total(void)
{
	uint64_t n = 0;

	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		n += mt_calls[c];
	return n;
}

KTEST(coverage_retires_sites_while_other_cpus_call_them)
{
	uintptr_t shared = (uintptr_t)cv_shared, mt = (uintptr_t)cv_mt;
	unsigned int ncpus = smp_num_cpus();

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	if (skip_while_covering(t))
		return;
	shared_hits = 0;
	mt_stop = 0, mt_go = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		mt_calls[c] = 0;
	KT_EQ(t, trace_ops_set_filter(&counter, "cv_shared"), 0);
	KT_EQ(t, trace_ops_register(&counter), 0);
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, mt_caller, (void *)(uintptr_t)c);
	WRITE_ONCE(mt_go, 1);
	while (mt_total() < 100)	/* every caller is running */
		cpu_relax();
	/* Rounds of coverage on, its batch, off, while the callers go on:
	 * each round the register's round, a retire batch with none, and
	 * the unregister's round cross the callers' calls. */
	for (int round = 0; round < MT_ROUNDS; round++) {
		KT_EQ(t, trace_coverage(true, "cv_shared cv_mt"), 0);
		/* The ticks take both off; 5 s bounds a hang, a tick is 10 ms. */
		for (int i = 0; i < 500 && (insn_at(mt + 4) != INSN_NOP ||
					    literal_at(shared) != (uintptr_t)trace_ops_literal(&counter)); i++)
			time_delay_us(10000);
		KT_EQ(t, insn_at(mt + 4), INSN_NOP);
		KT_EQ(t, literal_at(shared), (uintptr_t)trace_ops_literal(&counter));
		KT_EXPECT(t, reached(shared) && reached(mt));
		uint64_t then = mt_total();

		while (mt_total() < then + 100)	/* calls through the new sites */
			cpu_relax();
		KT_EQ(t, trace_coverage(false, NULL), 0);
	}
	KT_EQ(t, trace_coverage_forget(), 0);
	WRITE_ONCE(mt_stop, 1);
	for (unsigned int c = 1; c < ncpus; c++)
		smp_wait(c);
	KT_EQ(t, shared_hits, mt_total());	/* not one call lost or doubled */
	KT_EQ(t, trace_ops_unregister(&counter), 0);
	trace_ops_release(&counter);
}

/* The cost, in instructions (the PMU counts them under -icount and on
 * hardware): a covered function after its batch costs what a function
 * coverage never chose costs, exactly; the first hit and a hit before
 * the batch are printed. Interrupts masked around each count. */
static CV int cv_cost(int x) { return x + 7; }
static CV int cv_cost_ref(int x) { return x + 7; }

#define COST_CALLS	100

KTEST(coverage_cost_after_the_first_hit_is_an_untraced_call)
{
	pmu_init();
	if (!check_insns_of(cv_cost_ref, 1))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	if (!cov_on(t, "cv_cost"))
		return;
	uint64_t ref = check_insns_of(cv_cost_ref, COST_CALLS);
	uint64_t first = check_insns_of(cv_cost, 1);
	uint64_t again = check_insns_of(cv_cost, 1);
	uint64_t one = check_insns_of(cv_cost_ref, 1);

	unsigned long flags = irq_save();
	uint64_t t0 = pmu_insns();
	int err = coverage_retire();
	uint64_t batch = (pmu_insns() - t0) & 0xffffffff;

	irq_restore(flags);
	KT_EQ(t, err, 0);
	uint64_t after = check_insns_of(cv_cost, COST_CALLS);

	kprintf("# coverage cost in instructions: untraced call %lu, first hit %lu, "
		"a hit before the batch %lu, the batch of one site %lu, %u calls after it "
		"%lu (untraced %lu)\n", (unsigned long)one, (unsigned long)first,
		(unsigned long)again, (unsigned long)batch, COST_CALLS, (unsigned long)after,
		(unsigned long)ref);
	KT_EQ(t, after, ref);
	KT_EXPECT(t, first > again && again > one);
	cov_off(t);
}
