/*
 * test/target/test_profile.c: the profiler's rows (calls, total, min,
 * max) against times the test takes itself, for plain calls and for a
 * recursion, with the profiler alone on its sites so that the assembly
 * entry (trace_rec_profile) and return (profile_return) do the work.
 *
 * Each call's duration as the profiler sees it lies between the time its
 * body measures around its own work (the counter read after the entry
 * and before the exit) and the time its caller measures around the call
 * (read before the BL and after the return): the counter never goes
 * back, so these bounds hold at any host speed. The rows must then lie
 * between the sums, minima and maxima of the bounds.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "kprintf.h"
#include "ktest.h"
#include "ktime.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/fgraph.h"
#include "tracers/profile.h"

extern char trace_rec_profile[];

#define PLAIN_CALLS	6
#define REC_DEPTH	12	/* levels of pf_recurse: 12 frames open at once */

struct span {
	uint64_t lo, hi;	/* bounds of one call's duration */
};

/* Spins until 'ticks' ticks passed since 'from'; the counter then. */
static uint64_t spin_from(uint64_t from, uint64_t ticks)
{
	uint64_t t;

	while ((t = counter_read()) - from < ticks)
		;
	return t;
}

/* Profiled: spins 'ticks' ticks; its own view of how long it ran. */
__attribute__((noipa)) uint64_t pf_spin(uint64_t ticks)
{
	uint64_t t0 = counter_read();

	return spin_from(t0, ticks) - t0;
}

static struct {
	uint64_t start, before, after, end;	/* per level */
} lvl[REC_DEPTH];

/* Profiled, recursive: level 'n' spins, calls level n + 1 (timing the
 * call), spins again; its counter readings go to lvl[n]. */
__attribute__((noipa)) unsigned int pf_recurse(unsigned int n, uint64_t ticks)
{
	unsigned int calls = 1;

	lvl[n].start = counter_read();
	lvl[n].before = spin_from(lvl[n].start, ticks);
	if (n + 1 < REC_DEPTH) {
		calls += pf_recurse(n + 1, ticks + 1);
		lvl[n].after = counter_read();
	} else {
		lvl[n].after = lvl[n].before;
	}
	lvl[n].end = spin_from(lvl[n].after, n % 3 + 1);
	return calls;
}

/* The row must lie within the bounds of its calls. */
static void expect_row(struct ktest_ctx *t, const struct profile_stat *row,
		       const struct span *s, unsigned int n)
{
	uint64_t lo_sum = 0, hi_sum = 0, lo_min = UINT64_MAX, hi_min = UINT64_MAX;
	uint64_t lo_max = 0, hi_max = 0;

	for (unsigned int i = 0; i < n; i++) {
		lo_sum += s[i].lo;
		hi_sum += s[i].hi;
		lo_min = s[i].lo < lo_min ? s[i].lo : lo_min;
		hi_min = s[i].hi < hi_min ? s[i].hi : hi_min;
		lo_max = s[i].lo > lo_max ? s[i].lo : lo_max;
		hi_max = s[i].hi > hi_max ? s[i].hi : hi_max;
	}
	KT_EQ(t, row->calls, n);
	KT_EXPECT(t, row->total >= lo_sum && row->total <= hi_sum);
	KT_EXPECT(t, row->min >= lo_min && row->min <= hi_min);
	KT_EXPECT(t, row->max >= lo_max && row->max <= hi_max);
	KT_EXPECT(t, row->min < row->max);	/* the calls' lengths differ */
	if (row->total < lo_sum || row->total > hi_sum || row->min < lo_min ||
	    row->min > hi_min || row->max < lo_max || row->max > hi_max)
		kprintf("    # calls %lu total %lu in [%lu, %lu], min %lu in [%lu, %lu], "
			   "max %lu in [%lu, %lu]\n", (unsigned long)row->calls,
			   (unsigned long)row->total, (unsigned long)lo_sum,
			   (unsigned long)hi_sum, (unsigned long)row->min,
			   (unsigned long)lo_min, (unsigned long)hi_min,
			   (unsigned long)row->max, (unsigned long)lo_max, (unsigned long)hi_max);
}

KTEST(profiler_rows_match_the_times_the_calls_took)
{
	static const uint64_t ticks[PLAIN_CALLS] = { 40, 3, 90, 12, 1, 25 };
	struct span s[PLAIN_CALLS];

	if (skip_while_covering(t))
		return;
	profile_reset();
	KT_EQ(t, trace_profile(true, "pf_spin"), 0);
	KT_EQ(t, site_bl_target("pf_spin"), (uintptr_t)trace_rec_profile);
	for (unsigned int i = 0; i < PLAIN_CALLS; i++) {
		uint64_t t0 = counter_read();

		s[i].lo = pf_spin(ticks[i]);
		s[i].hi = counter_read() - t0;
	}
	KT_EQ(t, trace_profile(false, NULL), 0);
	expect_row(t, &profile_of(smp_cpu_id())[site_of("pf_spin")], s, PLAIN_CALLS);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}

KTEST(profiler_rows_match_the_times_of_a_recursion)
{
	struct span s[REC_DEPTH];

	if (skip_while_covering(t))
		return;
	profile_reset();
	KT_EQ(t, trace_profile(true, "pf_recurse"), 0);
	KT_EQ(t, site_bl_target("pf_recurse"), (uintptr_t)trace_rec_profile);
	uint64_t t0 = counter_read();
	unsigned int calls = pf_recurse(0, 2);
	uint64_t t1 = counter_read();

	KT_EQ(t, trace_profile(false, NULL), 0);
	KT_EQ(t, calls, REC_DEPTH);
	for (unsigned int n = 0; n < REC_DEPTH; n++) {
		/* the caller's readings around the call: level n - 1's */
		s[n].lo = lvl[n].end - lvl[n].start;
		s[n].hi = n ? lvl[n - 1].after - lvl[n - 1].before : t1 - t0;
	}
	expect_row(t, &profile_of(smp_cpu_id())[site_of("pf_recurse")], s, REC_DEPTH);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	KT_EXPECT(t, !fgraph_stopped);
}

/* Profiled: a tail call from one profiled function to another. The
 * second is entered with x30 already the first's return hook
 * (profile_return) at the same sp: the same call, hooked twice (its
 * frame goes on top, through C), not a frame a longjmp abandoned. */
__attribute__((noipa)) int pf_tail_callee(int x)
{
	return x * 3;
}

/* The tree builds with -fno-optimize-sibling-calls; code built without
 * it (a third-party library) makes such calls, as this one does. */
__attribute__((noipa, optimize("optimize-sibling-calls"))) int pf_tail_caller(int x)
{
	return pf_tail_callee(x + 1);	/* a B (checked below) */
}

/* Whether the first B in the body of 'fn' (after its patch site, func +
 * 8) within 16 instructions goes to 'to'. */
static bool branches_to(uintptr_t fn, uintptr_t to)
{
	const uint32_t *p = (const uint32_t *)(fn + 8);

	for (unsigned int i = 0; i < 16; i++, p++) {
		if ((p[0] & 0xfc000000) != 0x14000000)	/* B imm26 */
			continue;
		int32_t off = (int32_t)(p[0] << 6) >> 4;	/* imm26 * 4, signed */

		return (uintptr_t)p + off == to;
	}
	return false;
}

KTEST(profiler_tail_call_keeps_both_frames)
{
	if (skip_while_covering(t))
		return;
	profile_reset();
	KT_EQ(t, trace_profile(true, "pf_tail_*"), 0);
	KT_EQ(t, site_bl_target("pf_tail_caller"), (uintptr_t)trace_rec_profile);
	KT_EXPECT(t, branches_to((uintptr_t)pf_tail_caller, (uintptr_t)pf_tail_callee));
	int r = pf_tail_caller(4);

	KT_EQ(t, trace_profile(false, NULL), 0);
	const struct profile_stat *s = profile_of(smp_cpu_id());

	KT_EQ(t, r, 15);
	KT_EQ(t, s[site_of("pf_tail_caller")].calls, 1);
	KT_EQ(t, s[site_of("pf_tail_callee")].calls, 1);
	KT_EXPECT(t, s[site_of("pf_tail_caller")].total >= s[site_of("pf_tail_callee")].total);
	KT_EXPECT(t, !fgraph_stopped);	/* no frame taken for abandoned */
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	fgraph_reset();
}

/* Profiled: pf_lj_inner leaves itself and pf_lj_mid by longjmp, so
 * pf_lj_outer's return finds their frames above its own. */
static jmp_buf pf_env;

__attribute__((noipa)) int pf_lj_inner(int x)
{
	longjmp(pf_env, x);
	return -1;
}

__attribute__((noipa)) int pf_lj_mid(int x)
{
	int r = pf_lj_inner(x + 1);

	return r < 0 ? r : -1;	/* a return into it would show */
}

__attribute__((noipa)) int pf_lj_outer(int x)
{
	volatile int got = setjmp(pf_env);

	if (got)
		return got * 2;
	return pf_lj_mid(x);
}

KTEST(profiler_return_after_a_longjmp_unwinds_the_abandoned)
{
	uint64_t unwound = fgraph_unwound;

	if (skip_while_covering(t))
		return;
	profile_reset();
	fgraph_reset();
	KT_EQ(t, trace_profile(true, "pf_lj_*"), 0);
	KT_EQ(t, site_bl_target("pf_lj_outer"), (uintptr_t)trace_rec_profile);
	int r = pf_lj_outer(20);

	KT_EQ(t, trace_profile(false, NULL), 0);
	const struct profile_stat *s = profile_of(smp_cpu_id());

	KT_EQ(t, r, 42);
	KT_EQ(t, fgraph_unwound - unwound, 2);	/* pf_lj_inner, pf_lj_mid */
	KT_EQ(t, s[site_of("pf_lj_outer")].calls, 1);
	KT_EQ(t, s[site_of("pf_lj_mid")].calls, 1);
	KT_EQ(t, s[site_of("pf_lj_inner")].calls, 1);
	KT_EXPECT(t, s[site_of("pf_lj_outer")].total >= s[site_of("pf_lj_mid")].total);
	KT_EXPECT(t, !fgraph_stopped);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}
