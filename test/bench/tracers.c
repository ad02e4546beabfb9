/*
 * test/bench/tracers.c: instructions per traced call of bench_fn with
 * each tracer, over the same function with its site disabled: the
 * function tracer (one event), function_graph (entry and exit records
 * and the return hook), the profiler (a hit: entry and exit, count and
 * time), the duration histograms (a hit: entry and exit, a bucket and
 * the sum).
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"
#include "control/control.h"
#include "tracers/hist.h"
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
	unsigned int nhist;

	trace_hist(true, "bench_fn", &nhist);
	bench_fn_per_call();	/* the first hit zeroes the rows (a clear) */
	double hist = bench_fn_per_call() - off;
	const struct hist_row *h = hist_row_of(smp_cpu_id(), 0);
	uint64_t hist_calls = 0;

	for (unsigned int b = 0; h && b < HIST_BUCKETS; b++)
		hist_calls += h->bucket[b];
	trace_hist(false, NULL, NULL);
	trace_hist_forget();

	printf("\n| tracer | insns per traced call beyond a disabled site |\n|---|---:|\n");
	printf("| function (one event) | %.2f |\n| function_graph (entry + exit) | %.2f |\n"
	       "| profile (one hit) | %.2f |\n| hist (one hit) | %.2f |\n", fn, graph, prof, hist);
	printf("profiler saw %lu calls of bench_fn\n",
	       (unsigned long)s[trace_site_of((uintptr_t)&bench_fn)].calls);
	printf("histograms saw %lu calls of bench_fn\n", (unsigned long)hist_calls);
	printf("BENCH-JSON tracers {\"function_event_insns\": %.2f, \"graph_pair_insns\": %.2f, "
	       "\"profile_hit_insns\": %.2f, \"hist_hit_insns\": %.2f}\n", fn, graph, prof, hist);
}
