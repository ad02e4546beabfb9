/*
 * test/target/test_recorders.c: the recorders in assembly
 * (trace/tracers/rec_function.S, rec_graph.S) against the C callbacks
 * they stand in for. The same calls are traced twice, once with each
 * tracer alone on its sites (the site's BL goes to the recorder) and
 * once through the list (trace_force_list: the trampoline and the C
 * callback); the records must agree in everything but time. The calls
 * cover both record kinds of the function tracer (the caller changes),
 * sites below and above 128 (one and two varint bytes) and deltas of 31
 * ticks and more (a varint after the header). Also: which instruction
 * each site holds as filters and options come and go. And: graph records
 * that the slow path writes (no block open, or a block just closed) carry
 * the call's own times, so duration == exit time - entry time.
 */
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "tracers/fgraph.h"
#include "ktest.h"
#include "output/export.h"
#include "ring/ring.h"
#include "symbols.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/profile.h"

extern char trace_rec_function[], trace_rec_graph[], trace_rec_profile[], trace_caller[];
int _getpid(void);

#define ROUNDS	20	/* the graph's 10 records a round fit CHECK_MAX */

static struct rec fast[CHECK_MAX], slow[CHECK_MAX];

static int __attribute__((noinline)) alpha_from_here(int x)
{
	return tt_alpha(x) + 1;	/* another caller of tt_alpha */
}

/* tt_alpha from two callers, _getpid (a site below 128; the tt_ sites
 * are above), tt_outer (tt_inner nested), and now and then a pause of
 * 3 us (187 ticks of 62.5 MHz) so the next delta needs a varint. */
static void workload(void)
{
	for (int i = 0; i < ROUNDS; i++) {
		tt_alpha(i);
		alpha_from_here(i);
		_getpid();
		tt_outer(i);
		if (i % 7 == 0)
			time_delay_us(3);
	}
}

/* The exporter is held off, so every block stays for check_collect. */
static unsigned int run(const char *tracer, bool list, struct rec *out)
{
	check_reset();
	export_hold();
	trace_force_list(list);
	trace_set_tracer(tracer);
	trace_set_filter("tt_alpha _getpid tt_outer tt_inner");
	if (trace_start()) {
		export_release();
		return 0;
	}
	workload();
	trace_stop();
	trace_set_tracer("nop");
	trace_force_list(false);
	unsigned int n = check_collect(smp_cpu_id(), out, CHECK_MAX);

	export_release();
	return n;
}

static bool long_delta_seen(const struct rec *r, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		if (r[i].ts - r[i - 1].ts >= 31)
			return true;
	return false;
}

KTEST(recorders_function_tracer_sites_call_the_recorder_unless_filtered)
{
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_function);
	/* A CPU mask needs the C callback: the sites go back to the
	 * trampoline (with one CPU, mask 1 is every CPU: no filter). */
	KT_EQ(t, trace_set_cpumask(1), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), smp_num_cpus() > 1 ? (uintptr_t)trace_caller :
							     (uintptr_t)trace_rec_function);
	KT_EQ(t, trace_set_cpumask(~0ULL), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_function);
	KT_EQ(t, trace_set_context("irq"), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_caller);
	KT_EQ(t, trace_set_context("all"), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_function);
	/* A second ops on the site: the list, through the trampoline. */
	KT_EQ(t, trace_profile(true, "tt_alpha"), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_caller);
	KT_EQ(t, trace_profile(false, NULL), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_function);
	trace_stop();
	trace_set_tracer("nop");
	KT_EQ(t, site_bl_target("tt_alpha"), 0);
}

KTEST(recorders_graph_sites_call_the_recorder_only_without_options)
{
	trace_set_tracer("function_graph");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_graph);
	KT_EQ(t, trace_set_retval(true), 0);	/* the recorder has no return value */
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_caller);
	KT_EQ(t, trace_set_retval(false), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_graph);
	trace_stop();
	KT_EQ(t, trace_set_max_depth(3), 0);
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_caller);
	trace_stop();
	KT_EQ(t, trace_set_max_depth(0), 0);
	trace_set_tracer("nop");
	KT_EQ(t, trace_profile(true, "tt_alpha"), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_profile);
	KT_EQ(t, trace_profile(false, NULL), 0);
}

KTEST(recorders_function_records_equal_the_c_callbacks)
{
	unsigned int nf = run("function", false, fast);
	unsigned int ns = run("function", true, slow);
	unsigned int with_caller = 0, low_site = 0;
	bool same = true;

	KT_EQ(t, nf, ROUNDS * 5);	/* alpha twice, _getpid, outer, inner */
	KT_EQ(t, ns, nf);
	for (unsigned int i = 0; i < nf && i < ns; i++) {
		same &= fast[i].kind == slow[i].kind && fast[i].site == slow[i].site &&
			fast[i].caller == slow[i].caller;
		with_caller += fast[i].kind == WIRE_REC_FUNC_CALLER;
		low_site += fast[i].site < 128;
	}
	KT_EXPECT(t, same);
	KT_EXPECT(t, with_caller >= ROUNDS * 2);	/* tt_alpha's caller keeps changing */
	KT_EQ(t, low_site, ROUNDS);			/* _getpid */
	KT_EXPECT(t, long_delta_seen(fast, nf));
	KT_EXPECT(t, long_delta_seen(slow, ns));
}

KTEST(recorders_graph_records_equal_the_c_callbacks)
{
	unsigned int nf = run("function_graph", false, fast);
	unsigned int ns = run("function_graph", true, slow);
	bool same = true;
	unsigned int positive = 0, returns = 0;

	KT_EQ(t, nf, ROUNDS * 10);	/* five calls, an entry and an exit each */
	KT_EQ(t, ns, nf);
	for (unsigned int i = 0; i < nf && i < ns; i++) {
		/* paired: both write a return (wire.md 2.1) for the same exits */
		same &= fast[i].kind == slow[i].kind && fast[i].site == slow[i].site &&
			fast[i].depth == slow[i].depth && fast[i].flags == slow[i].flags &&
			fast[i].paired == slow[i].paired;
		positive += fast[i].kind == WIRE_REC_EXIT && fast[i].duration > 0;
		returns += fast[i].paired;
	}
	KT_EXPECT(t, same);
	KT_EQ(t, positive, ROUNDS * 5);
	KT_EXPECT(t, returns > ROUNDS * 4);	/* all but exits across a block's end */
	KT_EXPECT(t, long_delta_seen(fast, nf));
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].graph_depth, 0);
}

KTEST(recorders_profiler_counts_equal_the_c_callbacks)
{
	static uint64_t calls[2][3];
	const char *names[3] = { "tt_alpha", "_getpid", "tt_inner" };

	for (int list = 0; list < 2; list++) {
		profile_reset();
		trace_force_list(list);
		KT_EQ(t, trace_profile(true, "tt_alpha _getpid tt_inner"), 0);
		KT_EQ(t, site_bl_target("tt_alpha"),
		      list ? (uintptr_t)trace_caller : (uintptr_t)trace_rec_profile);
		workload();
		KT_EQ(t, trace_profile(false, NULL), 0);
		trace_force_list(false);
		const struct profile_stat *s = profile_of(smp_cpu_id());

		for (int k = 0; k < 3; k++) {
			const struct profile_stat *row = &s[site_of(names[k])];

			calls[list][k] = row->calls;
			KT_EXPECT(t, row->min <= row->max);
			KT_EXPECT(t, row->total >= row->calls * row->min);
		}
	}
	KT_EQ(t, calls[0][0], 2 * ROUNDS);
	KT_EQ(t, calls[0][1], ROUNDS);
	KT_EQ(t, calls[0][2], ROUNDS);
	KT_EQ(t, calls[1][0], calls[0][0]);
	KT_EQ(t, calls[1][1], calls[0][1]);
	KT_EQ(t, calls[1][2], calls[0][2]);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}

/* Traced (the filter names it); closes this CPU's block while its call
 * is open, so its exit finds no block and takes the slow path. */
void recorders_closes_block(void);
void __attribute__((noinline)) recorders_closes_block(void)
{
	ring_close_block();
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

#define SLOW_ROUNDS	8	/* two blocks a round, of 32 */

KTEST(recorders_graph_slow_path_records_keep_the_call_times)
{
	unsigned int pairs = 0, differ = 0;
	uint64_t dur = 0, apart = 0;	/* of the first call that differs */

	ring_setup(32 * 1024, RING_OVERWRITE);
	export_hold();
	trace_set_tracer("function_graph");
	trace_set_filter("recorders_closes_block");
	KT_EQ(t, trace_start(), 0);
	for (int i = 0; i < SLOW_ROUNDS; i++) {
		ring_close_block();	/* the entry, too, finds no block */
		recorders_closes_block();
	}
	trace_stop();
	trace_set_tracer("nop");
	unsigned int n = check_collect(smp_cpu_id(), fast, CHECK_MAX);

	export_release();
	for (unsigned int i = 0; i + 1 < n; i++) {
		if (fast[i].kind != WIRE_REC_GRAPH_ENTRY || fast[i + 1].kind != WIRE_REC_EXIT ||
		    fast[i + 1].site != fast[i].site)
			continue;
		pairs++;
		if (fast[i + 1].ts - fast[i].ts != fast[i + 1].duration && !differ++) {
			dur = fast[i + 1].duration;
			apart = fast[i + 1].ts - fast[i].ts;
		}
	}
	KT_EQ(t, pairs, SLOW_ROUNDS);
	KT_EQ(t, differ, 0);
	KT_EQ(t, apart, dur);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}
