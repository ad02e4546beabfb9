/*
 * test/bench/record.c: what one function event costs: the function
 * tracer on bench_fn, BENCH_CALLS calls, against the same function with
 * its site disabled. Ring in overwrite mode, so block changes (and the
 * overwriting of old blocks) are in the average.
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"
#include "ring/ring.h"
#include "tracers/tracer.h"

static volatile int sink;

double bench_fn_per_call(void)
{
	uint32_t t0 = (uint32_t)pmu_insns();
	int acc = 0;

	for (int i = 0; i < BENCH_CALLS; i++)
		acc += bench_fn(i);
	sink = acc;
	return (double)(uint32_t)((uint32_t)pmu_insns() - t0) / BENCH_CALLS;
}

void bench_record(void)
{
	if (ring_setup(64 * 1024, RING_OVERWRITE)) {
		printf("bench: no memory for the ring\n");
		return;
	}
	double off = bench_fn_per_call();

	trace_ops_set_filter(&tracer_function_ops, "bench_fn");
	trace_ops_register(&tracer_function_ops);
	double on = bench_fn_per_call();

	trace_ops_unregister(&tracer_function_ops);
	struct ring_cpu *r = ring_of(smp_cpu_id());

	printf("\nfunction tracer: %.2f insns/call traced, %.2f disabled: "
	       "%.2f insns per recorded event (%lu events)\n", on, off, on - off,
	       (unsigned long)ring_produced(r));
	printf("BENCH-PART export {\"record_insns\": %.2f}\n", on - off);
}
