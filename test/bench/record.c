/*
 * test/bench/record.c: what one function event costs: the function
 * tracer on bench_fn, BENCH_CALLS calls, against the same function with
 * its site disabled; and the same for bench_fn_low, its twin at a site
 * below 128 (targets.c). Ring in overwrite mode, so block changes (and
 * the overwriting of old blocks) are in the average.
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"
#include "ring/ring.h"
#include "tracers/tracer.h"

static volatile int sink;

/* Two copies of one loop (bench.h's MEASURE), each calling its function
 * directly (a BL, as user code does), so the two figures differ only in
 * the callee. */
double bench_fn_per_call(void)
{
	return MEASURE(bench_fn);
}

double bench_fn_low_per_call(void)
{
	return MEASURE(bench_fn_low);
}

/* Function events of 'name' beyond its disabled site; *events the ring's. */
static double record_cost(const char *name, double (*per_call)(void), uint64_t *events)
{
	struct ring_cpu *r = ring_of(smp_cpu_id());
	uint64_t before = ring_produced(r);
	double off = per_call();

	trace_ops_set_filter(&tracer_function_ops, name);
	trace_ops_register(&tracer_function_ops);
	double on = per_call();

	trace_ops_unregister(&tracer_function_ops);
	*events = ring_produced(r) - before;
	return on - off;
}

void bench_record(void)
{
	uint64_t ev, ev_low;

	if (ring_setup(64 * 1024, RING_OVERWRITE)) {
		printf("bench: no memory for the ring\n");
		return;
	}
	double high = record_cost("bench_fn", bench_fn_per_call, &ev);
	double low = record_cost("bench_fn_low", bench_fn_low_per_call, &ev_low);

	printf("\nfunction tracer, insns per recorded event beyond a disabled site:\n"
	       "| bench_fn at site %d | bench_fn_low at site %d |\n|---:|---:|\n"
	       "| %.2f (%lu events) | %.2f (%lu events) |\n", bench_sites.high, bench_sites.low,
	       high, (unsigned long)ev, low, (unsigned long)ev_low);
	printf("BENCH-PART export {\"record_insns\": %.2f, \"record_insns_low_site\": %.2f, "
	       "\"site_high\": %d, \"site_low\": %d}\n", high, low, bench_sites.high,
	       bench_sites.low);
}
