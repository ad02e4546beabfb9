/* test/target/test_tracers.c: function_graph, the profiler, triggers,
 * argument and return value capture, CPU mask. */
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "tracers/fgraph.h"
#include "ktest.h"
#include "tracers/profile.h"
#include "ring/ring.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/tracer.h"
#include "tracers/trigger.h"

static struct rec recs[CHECK_MAX];

static unsigned int count_kind(unsigned int n, unsigned int kind, int site)
{
	unsigned int c = 0;

	for (unsigned int i = 0; i < n; i++)
		c += recs[i].kind == kind && (site < 0 || recs[i].site == (uint64_t)site);
	return c;
}

/* Starts function_graph on 'filter' with the given options. */
static int graph_on(const char *filter, unsigned int depth, uint64_t thr_us,
		    const char *graph_fn)
{
	check_reset();
	trace_set_tracer("function_graph");
	trace_set_max_depth(depth);
	trace_set_threshold_us(thr_us);
	trace_set_graph_function(graph_fn);
	trace_set_filter(filter);
	return trace_start();
}

static void graph_off(void)
{
	trace_stop();
	trace_set_max_depth(0);
	trace_set_threshold_us(0);
	trace_set_graph_function("");
	trace_set_retval(false);
	trace_set_tracer("nop");
}

KTEST(graph_records_nest_and_durations_add_up)
{
	KT_EQ(t, graph_on("tt_outer tt_inner", 0, 0, ""), 0);
	tt_outer(1);
	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);
	int outer = site_of("tt_outer"), inner = site_of("tt_inner");

	KT_EQ(t, n, 4);	/* outer {, inner {, inner }, outer } */
	KT_EQ(t, recs[0].kind, WIRE_REC_GRAPH_ENTRY);
	KT_EQ(t, recs[0].site, outer);
	KT_EQ(t, recs[0].depth, 0);
	KT_EQ(t, recs[1].kind, WIRE_REC_GRAPH_ENTRY);
	KT_EQ(t, recs[1].site, inner);
	KT_EQ(t, recs[1].depth, 1);
	KT_EQ(t, recs[2].kind, WIRE_REC_EXIT);
	KT_EQ(t, recs[2].site, inner);
	KT_EQ(t, recs[3].kind, WIRE_REC_EXIT);
	KT_EQ(t, recs[3].site, outer);
	/* The child lies inside the parent. */
	KT_EXPECT(t, recs[3].duration >= recs[2].duration);
	KT_EXPECT(t, recs[2].ts - recs[2].duration >= recs[3].ts - recs[3].duration);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}

KTEST(graph_depth_limit_keeps_the_outer_calls)
{
	KT_EQ(t, graph_on("tt_outer tt_inner", 1, 0, ""), 0);
	tt_outer(1);
	tt_inner(2);	/* depth 0 on its own: recorded */
	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, site_of("tt_outer")), 1);
	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, site_of("tt_inner")), 1);
	KT_EQ(t, count_kind(n, WIRE_REC_GRAPH_ENTRY, -1), 2);
}

KTEST(graph_function_keeps_only_calls_beneath_it)
{
	KT_EQ(t, graph_on("tt_*", 0, 0, "tt_outer"), 0);
	tt_inner(1);	/* not beneath tt_outer */
	tt_alpha(1);
	tt_outer(1);	/* itself and its tt_inner */
	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, -1), 2);
	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, site_of("tt_outer")), 1);
	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, site_of("tt_inner")), 1);
	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, site_of("tt_alpha")), 0);
}

KTEST(graph_threshold_keeps_only_long_calls)
{
	KT_EQ(t, graph_on("tt_*", 0, 2000, ""), 0);	/* 2 ms */
	tt_alpha(1);
	tt_sleepy(3000);	/* 3 ms */
	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, n, 1);		/* one exit, no entries */
	KT_EQ(t, recs[0].kind, WIRE_REC_EXIT);
	KT_EQ(t, recs[0].site, site_of("tt_sleepy"));
	KT_EXPECT(t, recs[0].duration >= 3 * time_counter_hz() / 1000);
}

KTEST(graph_return_values_are_captured)
{
	trace_set_retval(true);
	KT_EQ(t, graph_on("tt_args", 0, 0, ""), 0);
	trace_set_retval(true);
	long r = tt_args(4, 5, 6);

	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, r, 456);
	KT_EQ(t, n, 2);
	KT_EQ(t, recs[1].flags & WIRE_EXIT_HAS_RETVAL, WIRE_EXIT_HAS_RETVAL);
	KT_EQ(t, recs[1].retval, 456);
}

KTEST(args_capture_records_the_arguments)
{
	check_reset();
	KT_EQ(t, trace_set_args("tt_args:3"), 0);
	tt_args(7, -8, 9);
	KT_EQ(t, trace_set_args(""), 0);
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);
	const uint8_t *p = recs[0].data, *end = p + recs[0].data_len;
	uint64_t site = 0, v[3] = { 0 };

	KT_EQ(t, n, 1);
	KT_EQ(t, recs[0].kind, WIRE_REC_EXT);
	KT_EQ(t, recs[0].subtype, WIRE_EXT_ARGS);
	p += wire_varint_get(p, (size_t)(end - p), &site);
	KT_EQ(t, site, site_of("tt_args"));
	KT_EQ(t, *p++, 3);
	for (int i = 0; i < 3 && p < end; i++)
		p += wire_varint_get(p, (size_t)(end - p), &v[i]);
	KT_EQ(t, wire_unzigzag(v[0]), 7);
	KT_EQ(t, wire_unzigzag(v[1]), -8);
	KT_EQ(t, wire_unzigzag(v[2]), 9);
	KT_EQ(t, trace_set_args("tt_args:9"), TRACE_EINVAL);
	KT_EQ(t, trace_set_args("no_such_function_x:2"), TRACE_EINVAL);
	KT_EQ(t, trace_set_args("tt_args"), TRACE_EINVAL);
}

/* A string record (subtype 6) of recs[i]: 1 if it is one for register reg
 * with these flags and bytes. */
static int string_is(unsigned int i, unsigned int reg, unsigned int flags, const char *bytes,
		     unsigned int len)
{
	struct wire_record r = { .kind = WIRE_REC_EXT, .subtype = recs[i].subtype,
				 .data = recs[i].data, .data_len = recs[i].data_len };
	struct wire_ext x;

	return recs[i].kind == WIRE_REC_EXT && wire_ext_parse(&r, &x) == 1 &&
	       x.subtype == WIRE_EXT_STRING && x.site == (uint64_t)site_of("tt_args") &&
	       x.reg == reg && x.str_flags == flags && x.count == len &&
	       !memcmp(x.values, bytes, len);
}

KTEST(args_capture_records_strings)
{
	static const char hello[] = "hello";
	static const char longer[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	check_reset();
	KT_EQ(t, trace_set_args("tt_args:3:s02"), 0);
	tt_args((long)hello, 16, (long)(longer + 1));	/* unaligned, longer than 32 */
	tt_args(16, 0, 0);		/* below RAM: never read */
	KT_EQ(t, trace_set_args(""), 0);
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, n, 6);		/* each call: its arguments, then x0's and x2's strings */
	KT_EQ(t, recs[0].subtype, WIRE_EXT_ARGS);
	KT_EXPECT(t, string_is(1, 0, 0, hello, 5));
	KT_EXPECT(t, string_is(2, 2, WIRE_STR_CUT, longer + 1, 32));
	KT_EQ(t, recs[3].subtype, WIRE_EXT_ARGS);
	KT_EXPECT(t, string_is(4, 0, WIRE_STR_UNREADABLE, "", 0));
	KT_EXPECT(t, string_is(5, 2, WIRE_STR_UNREADABLE, "", 0));
	KT_EQ(t, trace_set_args("tt_args:3:s3"), TRACE_EINVAL);	/* not below N */
	KT_EQ(t, trace_set_args("tt_args:3:x0"), TRACE_EINVAL);
	KT_EQ(t, trace_set_args("tt_args:3:s"), TRACE_EINVAL);
	KT_EQ(t, trace_set_args("tt_args:3:s0:s1"), TRACE_EINVAL);
}

KTEST(profiler_counts_exact_calls)
{
	profile_reset();
	KT_EQ(t, trace_profile(true, "tt_alpha tt_beta"), 0);
	for (int i = 0; i < 37; i++)
		tt_alpha(i);
	for (int i = 0; i < 5; i++)
		tt_beta(i);
	tt_gamma(1);
	KT_EQ(t, trace_profile(false, NULL), 0);
	const struct profile_stat *s = profile_of(smp_cpu_id());

	KT_EQ(t, s[site_of("tt_alpha")].calls, 37);
	KT_EQ(t, s[site_of("tt_beta")].calls, 5);
	KT_EQ(t, s[site_of("tt_gamma")].calls, 0);
	KT_EXPECT(t, s[site_of("tt_alpha")].min <= s[site_of("tt_alpha")].max);
	KT_EXPECT(t, s[site_of("tt_alpha")].total >= 37 * s[site_of("tt_alpha")].min);
}

KTEST(triggers_fire_the_expected_number_of_times)
{
	check_reset();
	trace_set_tracer("function");
	trace_set_filter("tt_alpha tt_beta");
	KT_EQ(t, trace_set_triggers("tt_gamma:traceoff:2,tt_beta:stacktrace"), 0);
	KT_EQ(t, trace_start(), 0);
	tt_alpha(1);		/* recorded */
	tt_beta(1);		/* recorded, with a stack trace */
	tt_gamma(1);		/* traceoff (1 of 2) */
	tt_alpha(2);		/* not recorded */
	tt_gamma(1);		/* traceoff (2 of 2) */
	tt_gamma(1);		/* count used up: nothing */
	ring_pause(false);
	tt_alpha(3);		/* recorded again */
	trace_stop();
	KT_EQ(t, trigger_fired(0), 2);
	KT_EQ(t, trigger_fired(1), 1);
	KT_EQ(t, trace_set_triggers(""), 0);
	trace_set_tracer("nop");
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);
	unsigned int stacks = 0, fired = 0;

	for (unsigned int i = 0; i < n; i++) {
		stacks += recs[i].kind == WIRE_REC_EXT && recs[i].subtype == WIRE_EXT_STACK;
		fired += recs[i].kind == WIRE_REC_EXT && recs[i].subtype == WIRE_EXT_TRIGGER;
	}
	KT_EQ(t, count_kind(n, WIRE_REC_FUNC, site_of("tt_alpha")) +
		 count_kind(n, WIRE_REC_FUNC_CALLER, site_of("tt_alpha")), 2);
	KT_EQ(t, stacks, 1);
	KT_EQ(t, fired, 2);	/* the stacktrace and the first traceoff */
	KT_EQ(t, trace_set_triggers("tt_gamma:explode"), TRACE_EINVAL);
	KT_EQ(t, trace_set_triggers("tt_gamma:traceoff:0"), TRACE_EINVAL);
}

KTEST(cpumask_keeps_only_the_chosen_cpus)
{
	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	check_reset();
	KT_EQ(t, trace_set_cpumask(0x2), 0);	/* CPU 1 only */
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	tt_alpha(1);				/* CPU 0: not recorded */
	smp_call(1, (smp_fn)tt_alpha_void, NULL);	/* CPU 1: recorded */
	trace_stop();
	trace_set_tracer("nop");
	KT_EQ(t, trace_set_cpumask(~0UL), 0);
	KT_EQ(t, trace_set_cpumask(0x100), TRACE_EINVAL);	/* no such CPU */
	KT_EQ(t, check_collect(0, recs, CHECK_MAX), 0);
	KT_EQ(t, check_collect(1, recs, CHECK_MAX), 1);
	KT_EQ(t, recs[0].site, site_of("tt_alpha"));
}

KTEST(graph_frame_pointer_mismatch_stops_cleanly)
{
	KT_EQ(t, graph_on("tt_bad_fp tt_alpha", 0, 0, ""), 0);
	int r = tt_bad_fp_caller(5);

	KT_EQ(t, r, 6);			/* returned to the right place */
	KT_EXPECT(t, fgraph_stopped);
	tt_alpha(1);			/* no longer hooked */
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	graph_off();
	fgraph_reset();
}

KTEST(profiler_and_graph_run_at_once_on_different_sets)
{
	profile_reset();
	KT_EQ(t, trace_profile(true, "tt_*"), 0);
	KT_EQ(t, graph_on("tt_outer tt_inner", 0, 0, ""), 0);
	tt_outer(1);		/* both hook it: two return hooks, LIFO */
	tt_alpha(1);		/* the profiler only: called directly */
	graph_off();
	KT_EQ(t, trace_profile(false, NULL), 0);
	const struct profile_stat *s = profile_of(smp_cpu_id());
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, s[site_of("tt_outer")].calls, 1);
	KT_EQ(t, s[site_of("tt_inner")].calls, 1);
	KT_EQ(t, s[site_of("tt_alpha")].calls, 1);
	KT_EQ(t, count_kind(n, WIRE_REC_EXIT, -1), 2);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}

static void call_alpha_from_irq(void *arg)
{
	(void)arg;
	tt_alpha(9);	/* smp_call to another CPU runs in its IRQ handler */
}

KTEST(context_filter_keeps_only_interrupt_context)
{
	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	check_reset();
	KT_EQ(t, trace_set_context("irq"), 0);
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	tt_alpha(1);			/* thread context: not recorded */
	smp_call(1, call_alpha_from_irq, NULL);	/* IRQ context on CPU 1 */
	trace_stop();
	trace_set_tracer("nop");
	KT_EQ(t, trace_set_context("all"), 0);
	KT_EQ(t, trace_set_context("sometimes"), TRACE_EINVAL);
	KT_EQ(t, check_collect(0, recs, CHECK_MAX), 0);
	KT_EQ(t, check_collect(1, recs, CHECK_MAX), 1);
}
