/*
 * test/target/test_hist.c: duration histograms (trace/tracers/hist.c):
 * the counts are the calls made and each call sits in the bucket of the
 * duration measured around it, bad input (API and console) refused with
 * nothing changed, a clear seen by every CPU, other CPUs counting their
 * own calls while CPU 0 reads (run under -accel tcg,thread=multi by
 * test/boot_stages.py), and the cost of a hit in instructions (PMU,
 * under -icount).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "control/control.h"
#include "core/core.h"
#include "ktest.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "pmu.h"
#include "shell.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/hist.h"

#define HS __attribute__((noipa))

extern char trace_rec_hist[];

/* The counter inside hs_spin, at its start and just before it returns. */
static volatile uint64_t in_start, in_end;

/* Spins until 'ticks' counter ticks have passed since it began. */
HS uint64_t hs_spin(uint64_t ticks)
{
	uint64_t t0 = counter_read(), t;

	while ((t = counter_read()) - t0 < ticks)
		;
	in_start = t0;
	in_end = counter_read();
	return t - t0;
}

HS int hs_other(int x) { return x + 1; }
HS int hs_fast(int x) { return x + 2; }
HS int hs_cost(int x) { return x + 3; }
HS int hs_cost_ref(int x) { return x + 3; }

static uint32_t insn_at(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static uint64_t row_calls(const struct hist_row *r)
{
	uint64_t n = 0;

	for (unsigned int b = 0; r && b < HIST_BUCKETS; b++)
		n += r->bucket[b];
	return n;
}

/* Off and forgotten: the end of the ktest run sends no histogram. */
static void hist_done(struct ktest_ctx *t)
{
	KT_EQ(t, trace_hist(false, NULL, NULL), 0);
	KT_EQ(t, trace_hist_forget(), 0);
}

#define SPIN_CALLS	40

/* Spin targets: about 5, 25 and 100 us, each moved to the middle of its
 * bucket (3 * 2^(b-2) ticks, b the bucket): the hooks' own time moves a
 * call's duration by far less than that, so a call crosses a bucket's
 * edge only when the host stalls the guest; such a call is counted as
 * ambiguous (either bucket is right), not as a failure. */
static const uint64_t spin_us[] = { 5, 25, 100 };

static uint64_t spin_target(unsigned int k)
{
	unsigned int b = hist_bucket(spin_us[k] * time_counter_hz() / 1000000);

	return b >= 2 ? 3ULL << (b - 2) : 1;
}

KTEST(hist_counts_equal_calls_and_buckets_hold_durations)
{
	uint64_t exp[HIST_BUCKETS] = { 0 }, sum_in = 0, sum_out = 0;
	unsigned int ambiguous = 0, n = 0;
	unsigned int lo_b[HIST_BUCKETS] = { 0 };	/* per bucket: ambiguous calls that may be here */

	KT_EQ(t, trace_hist(true, "hs_spin", &n), 0);
	KT_EQ(t, n, 1);
	if (!trace_histing())
		return;
	for (unsigned int k = 0; k < sizeof(spin_us) / sizeof(spin_us[0]); k++)
		for (unsigned int i = 0; i < SPIN_CALLS; i++) {
			unsigned long flags = irq_save();
			uint64_t o0 = counter_read();

			hs_spin(spin_target(k));
			uint64_t o1 = counter_read();

			irq_restore(flags);
			uint64_t din = in_end - in_start, dout = o1 - o0;
			unsigned int bin = hist_bucket(din), bout = hist_bucket(dout);

			sum_in += din;
			sum_out += dout;
			if (bin == bout) {
				exp[bin]++;
			} else {
				ambiguous++;
				for (unsigned int b = bin; b <= bout; b++)
					lo_b[b]++;
			}
		}
	const struct hist_row *r = hist_row_of(0, 0);
	uint64_t calls = row_calls(r);
	bool within = r != NULL;

	for (unsigned int b = 0; r && b < HIST_BUCKETS; b++)
		within &= r->bucket[b] >= exp[b] && r->bucket[b] <= exp[b] + lo_b[b];
	unsigned int b0 = hist_bucket(spin_target(0)), b1 = hist_bucket(spin_target(1)),
		     b2 = hist_bucket(spin_target(2));

	kprintf("# hist: %lu calls, buckets %u/%u/%u: %lu %lu %lu (expected %lu %lu %lu), "
		"%u calls near an edge\n", (unsigned long)calls, b0, b1, b2,
		(unsigned long)(r ? r->bucket[b0] : 0), (unsigned long)(r ? r->bucket[b1] : 0),
		(unsigned long)(r ? r->bucket[b2] : 0), (unsigned long)exp[b0],
		(unsigned long)exp[b1], (unsigned long)exp[b2], ambiguous);
	KT_EQ(t, calls, 3 * SPIN_CALLS);
	KT_EXPECT(t, within);
	KT_EXPECT(t, ambiguous < SPIN_CALLS);	/* a host that stalls that often says so */
	KT_EXPECT(t, r && r->sum >= sum_in && r->sum <= sum_out);
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		KT_EQ(t, row_calls(hist_row_of(c, 0)), 0);	/* nobody else called it */
	hist_done(t);
}

KTEST(hist_refuses_bad_input_and_changes_nothing)
{
	static struct hist_row before;
	uintptr_t spin = (uintptr_t)hs_spin, other = (uintptr_t)hs_other;
	const unsigned int *sites;
	unsigned int n;
	static const char *const bad[] = { "", "[bad", "hs_no_such_function", "*" };
	static const unsigned int chosen[] = { 0, 0, 0, 0 };
	static char lines[][48] = { "hist on", "hist on [bad", "hist on hs_no_such_function",
				    "hist on *", "hist frob", "hist off now" };

	if (skip_while_covering(t))	/* it holds sites of its own: the NOPs below */
		return;
	KT_EQ(t, trace_hist(true, "hs_spin", &n), 0);
	hs_spin(10);
	hs_spin(20);
	memcpy(&before, hist_row_of(0, 0), sizeof(before));
	KT_EQ(t, row_calls(&before), 2);
	KT_EQ(t, trace_hist(true, "hs_other", &n), TRACE_EBUSY);	/* on already */
	KT_EQ(t, trace_hist(false, NULL, NULL), 0);
	KT_EQ(t, insn_at(spin + 4), INSN_NOP);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		KT_EQ(t, trace_hist(true, bad[i], &n), TRACE_EINVAL);
		if (i != 3)
			KT_EQ(t, n, chosen[i]);
		else
			KT_EXPECT(t, n > HIST_FUNCS_MAX);
	}
	for (unsigned int i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		KT_EXPECT(t, shell_exec(lines[i]) != 0);
	/* Nothing changed: off, the same function, the same counts, no
	 * site patched. */
	KT_EXPECT(t, !trace_histing());
	KT_EQ(t, hist_functions(&sites), 1);
	KT_EQ(t, sites[0], (unsigned int)trace_site_of(spin));
	KT_EXPECT(t, hist_row_of(0, 0) && !memcmp(hist_row_of(0, 0), &before, sizeof(before)));
	KT_EQ(t, insn_at(spin + 4), INSN_NOP);
	KT_EQ(t, insn_at(other + 4), INSN_NOP);
	/* The console's good lines. */
	char on[] = "hist on hs_other hs_spin", show[] = "hist", clear[] = "hist clear",
	     off[] = "hist off";

	KT_EQ(t, shell_exec(on), 0);
	KT_EXPECT(t, trace_histing());
	KT_EQ(t, hist_functions(&sites), 2);
	hs_other(1);
	KT_EQ(t, shell_exec(show), 0);
	KT_EQ(t, shell_exec(clear), 0);
	KT_EXPECT(t, hist_row_of(0, 0) == NULL);	/* cleared, not yet zeroed here */
	KT_EQ(t, shell_exec(off), 0);
	KT_EQ(t, insn_at(other + 4), INSN_NOP);
	KT_EQ(t, trace_hist_forget(), 0);
	KT_EXPECT(t, !hist_started());
}

KTEST(hist_clear_then_counts_start_again)
{
	unsigned int n;

	KT_EQ(t, trace_hist(true, "hs_other", &n), 0);
	for (int i = 0; i < 3; i++)
		hs_other(i);
	KT_EQ(t, row_calls(hist_row_of(0, 0)), 3);
	hist_clear();
	for (unsigned int c = 0; c < smp_num_cpus(); c++)
		KT_EXPECT(t, hist_row_of(c, 0) == NULL);
	hs_other(0);
	hs_other(0);
	KT_EQ(t, row_calls(hist_row_of(0, 0)), 2);
	hist_done(t);
}

/* Other CPUs call hs_fast a known number of times each while CPU 0
 * reads their rows: each CPU's count must only grow, and end at the
 * calls it made; after a clear, the next round's calls exactly. */
#define MT_CALLS	20000

static volatile int mt_round;
static volatile uint64_t mt_done[NR_CPUS];

static void mt_caller(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	for (int round = 1; round <= 2; round++) {
		while (READ_ONCE(mt_round) < round)
			cpu_relax();
		for (unsigned int i = 0; i < MT_CALLS; i++)
			hs_fast((int)i);
		WRITE_ONCE(mt_done[cpu], (uint64_t)round);
	}
}

static bool all_done(unsigned int round)
{
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		if (READ_ONCE(mt_done[c]) < round)
			return false;
	return true;
}

KTEST(hist_per_cpu_counts_add_up_while_cpu0_reads)
{
	unsigned int ncpus = smp_num_cpus(), n;
	uint64_t last[NR_CPUS] = { 0 };
	bool grows = true;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_hist(true, "hs_fast", &n), 0);
	mt_round = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		mt_done[c] = 0;
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, mt_caller, (void *)(uintptr_t)c);
	for (unsigned int round = 1; round <= 2; round++) {
		WRITE_ONCE(mt_round, (int)round);
		while (!all_done(round))
			for (unsigned int c = 1; c < ncpus; c++) {
				uint64_t now = row_calls(hist_row_of(c, 0));

				grows &= now >= last[c];
				last[c] = now;
			}
		uint64_t total = 0;

		for (unsigned int c = 1; c < ncpus; c++) {
			uint64_t got = row_calls(hist_row_of(c, 0));

			KT_EQ(t, got, MT_CALLS);
			total += got;
			last[c] = 0;
		}
		KT_EQ(t, row_calls(hist_row_of(0, 0)), 0);
		KT_EQ(t, total, (uint64_t)MT_CALLS * (ncpus - 1));
		hist_clear();	/* round 2 counts from zero on every CPU */
	}
	for (unsigned int c = 1; c < ncpus; c++)
		smp_wait(c);
	KT_EXPECT(t, grows);
	hist_done(t);
}

/* CPU 0 clears again and again while the other CPUs hit: no count may
 * pass the calls made, nothing may break; then a clear with the CPUs
 * idle, and the next round's counts are exact again. */
KTEST(hist_clear_while_other_cpus_hit)
{
	unsigned int ncpus = smp_num_cpus(), n, clears = 0;
	bool within = true;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_hist(true, "hs_fast", &n), 0);
	mt_round = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		mt_done[c] = 0;
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, mt_caller, (void *)(uintptr_t)c);
	WRITE_ONCE(mt_round, 1);
	while (!all_done(1)) {
		hist_clear();
		clears++;
		for (unsigned int c = 1; c < ncpus; c++)
			within &= row_calls(hist_row_of(c, 0)) <= MT_CALLS;
	}
	for (unsigned int c = 1; c < ncpus; c++)
		within &= row_calls(hist_row_of(c, 0)) <= MT_CALLS;
	hist_clear();
	WRITE_ONCE(mt_round, 2);
	while (!all_done(2))
		cpu_relax();
	for (unsigned int c = 1; c < ncpus; c++) {
		smp_wait(c);
		KT_EQ(t, row_calls(hist_row_of(c, 0)), MT_CALLS);
	}
	kprintf("# hist: %u clears while %u CPUs hit\n", clears, ncpus - 1);
	KT_EXPECT(t, within && clears > 0);
	hist_done(t);
}

/* The cost of a hit in instructions (the PMU counts them under -icount
 * and on hardware), beside the profiler's on the same kind of function.
 * Interrupts masked around each count. */
#define COST_CALLS	100

KTEST(hist_cost_of_a_hit_in_instructions)
{
	unsigned int n;

	pmu_init();
	if (!check_insns_of(hs_cost_ref, 1))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	if (skip_while_covering(t))
		return;
	uint64_t ref = check_insns_of(hs_cost_ref, COST_CALLS);

	KT_EQ(t, trace_hist(true, "hs_cost", &n), 0);
	/* Alone on the site: its BL goes straight to the entry in assembly. */
	KT_EQ(t, insn_at((uintptr_t)hs_cost + 4),
	      patch_insn_bl((uintptr_t)hs_cost + 4, (uintptr_t)trace_rec_hist));
	check_insns_of(hs_cost, 1);	/* the first hit after the clear zeroes the rows */
	uint64_t hist = check_insns_of(hs_cost, COST_CALLS);
	uint64_t again = check_insns_of(hs_cost, COST_CALLS);

	KT_EQ(t, row_calls(hist_row_of(0, 0)), 2 * COST_CALLS + 1);
	hist_done(t);
	KT_EQ(t, trace_profile(true, "hs_cost"), 0);
	uint64_t prof = check_insns_of(hs_cost, COST_CALLS);

	KT_EQ(t, trace_profile(false, NULL), 0);
	kprintf("# hist cost in instructions per call: untraced %lu, hist %lu "
		"(a hit: %lu), profiler %lu (a hit: %lu)\n", (unsigned long)(ref / COST_CALLS),
		(unsigned long)(hist / COST_CALLS), (unsigned long)((hist - ref) / COST_CALLS),
		(unsigned long)(prof / COST_CALLS), (unsigned long)((prof - ref) / COST_CALLS));
	KT_EQ(t, hist, again);		/* exact: the same path every hit */
	KT_EXPECT(t, hist > ref);
}
