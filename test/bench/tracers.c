/*
 * test/bench/tracers.c: instructions per traced call of bench_fn with
 * each tracer, over the same function with its site disabled: the
 * function tracer (one event), function_graph (entry and exit records
 * and the return hook), the profiler (a hit: entry and exit, count and
 * time).
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"
#include "tracers/profile.h"
#include "ring/ring.h"

static double with_tracer(const char *name)
{
	trace_set_tracer(name);
	trace_set_filter("bench_fn");
	trace_start();
	double v = bench_fn_per_call();

	trace_stop();
	trace_set_tracer("nop");
	return v;
}

void bench_tracers(void)
{
	double off = bench_fn_per_call();
	double fn = with_tracer("function") - off;
	double graph = with_tracer("function_graph") - off;

	trace_profile(true, "bench_fn");
	double prof = bench_fn_per_call() - off;

	trace_profile(false, NULL);
	const struct profile_stat *s = profile_of(smp_cpu_id());

	printf("\n| tracer | insns per traced call beyond a disabled site |\n|---|---:|\n");
	printf("| function (one event) | %.2f |\n| function_graph (entry + exit) | %.2f |\n"
	       "| profile (one hit) | %.2f |\n", fn, graph, prof);
	printf("profiler saw %lu calls of bench_fn\n",
	       (unsigned long)s[trace_site_of((uintptr_t)&bench_fn)].calls);
	printf("BENCH-JSON tracers {\"function_event_insns\": %.2f, \"graph_pair_insns\": %.2f, "
	       "\"profile_hit_insns\": %.2f}\n", fn, graph, prof);
}
