/*
 * test/bench/tracers.c: instructions per traced call with each tracer,
 * over the same function with its site disabled: the function tracer
 * (one event), function_graph (entry and exit records and the return
 * hook), the profiler (a hit: entry and exit, count and time), the
 * duration histograms (a hit: entry and exit, a bucket and the sum).
 * Each on bench_fn, at a site above 2,000 as most of an application's
 * are (the headline figures), and on bench_fn_low, its twin below site
 * 128 (the _low_site figures), side by side in one boot.
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

struct target {
	const char *name;
	double (*per_call)(void);
	int site;
	double fn, graph, prof, hist;	/* insns beyond a disabled site */
	uint64_t prof_calls, hist_calls;
};

static double with_tracer(const struct target *t, const char *tracer)
{
	trace_set_tracer(tracer);
	trace_set_filter(t->name);
	trace_start();
	double v = t->per_call();

	trace_stop();
	trace_set_tracer("nop");
	return v;
}

static void measure(struct target *t)
{
	double off = t->per_call();
	unsigned int nhist;

	t->fn = with_tracer(t, "function") - off;
	t->graph = with_tracer(t, "function_graph") - off;

	trace_profile(true, t->name);
	t->prof = t->per_call() - off;
	trace_profile(false, NULL);
	t->prof_calls = profile_of(smp_cpu_id())[t->site].calls;

	trace_hist(true, t->name, &nhist);
	t->per_call();	/* the first hit zeroes the rows (a clear) */
	t->hist = t->per_call() - off;
	const struct hist_row *h = hist_row_of(smp_cpu_id(), 0);

	t->hist_calls = 0;
	for (unsigned int b = 0; h && b < HIST_BUCKETS; b++)
		t->hist_calls += h->bucket[b];
	trace_hist(false, NULL, NULL);
	trace_hist_forget();
}

void bench_tracers(void)
{
	struct target hi = { .name = "bench_fn", .per_call = bench_fn_per_call,
			     .site = bench_sites.high };
	struct target lo = { .name = "bench_fn_low", .per_call = bench_fn_low_per_call,
			     .site = bench_sites.low };

	measure(&hi);
	measure(&lo);
	printf("\n| tracer: insns per traced call beyond a disabled site | bench_fn, site %d "
	       "| bench_fn_low, site %d |\n|---|---:|---:|\n", hi.site, lo.site);
	printf("| function (one event) | %.2f | %.2f |\n", hi.fn, lo.fn);
	printf("| function_graph (entry + exit) | %.2f | %.2f |\n", hi.graph, lo.graph);
	printf("| profile (one hit) | %.2f | %.2f |\n", hi.prof, lo.prof);
	printf("| hist (one hit) | %.2f | %.2f |\n", hi.hist, lo.hist);
	printf("%u sites in the image\n", bench_sites.total);
	printf("profiler saw %lu calls of bench_fn, %lu of bench_fn_low\n",
	       (unsigned long)hi.prof_calls, (unsigned long)lo.prof_calls);
	printf("histograms saw %lu calls of bench_fn, %lu of bench_fn_low\n",
	       (unsigned long)hi.hist_calls, (unsigned long)lo.hist_calls);
	printf("BENCH-PART tracers {\"function_event_insns\": %.2f, \"graph_pair_insns\": %.2f, "
	       "\"profile_hit_insns\": %.2f, \"hist_hit_insns\": %.2f, "
	       "\"function_event_insns_low_site\": %.2f, \"graph_pair_insns_low_site\": %.2f, "
	       "\"profile_hit_insns_low_site\": %.2f, \"hist_hit_insns_low_site\": %.2f, "
	       "\"site_high\": %d, \"site_low\": %d, \"sites_total\": %u}\n",
	       hi.fn, hi.graph, hi.prof, hi.hist, lo.fn, lo.graph, lo.prof, lo.hist,
	       hi.site, lo.site, bench_sites.total);
}
