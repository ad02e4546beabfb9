/*
 * test/bench/direct.c: a direct trampoline against an ops callback doing
 * the same work (count the call), on bench_fn; instructions per call
 * beyond bench_fn untraced. The long row forces the path a trampoline
 * beyond BL range takes (trace_caller_direct and the direct_call slot).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <baretrace_trace.h>

#include "bench.h"

volatile uint64_t bench_direct_hits;
void bench_direct_tramp(void);
extern bool trace_direct_force_long;

static volatile uint64_t ops_hits;

static notrace void count_call(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			       struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	ops_hits++;
}

void bench_direct(void)
{
	struct trace_ops ops = { .func = count_call };
	double base = bench_fn_per_call(), direct, via_ops, far;
	int bad = 0;

	bad |= trace_direct_attach(bench_fn, bench_direct_tramp);
	direct = bench_fn_per_call() - base;
	bad |= trace_direct_detach(bench_fn);
	bad |= trace_ops_set_filter(&ops, "bench_fn") || trace_ops_register(&ops);
	via_ops = bench_fn_per_call() - base;
	bad |= trace_ops_unregister(&ops);
	trace_direct_force_long = true;
	bad |= trace_direct_attach(bench_fn, bench_direct_tramp);
	trace_direct_force_long = false;
	far = bench_fn_per_call() - base;
	bad |= trace_direct_detach(bench_fn);
	if (bad || bench_direct_hits != 2ULL * BENCH_CALLS || ops_hits != BENCH_CALLS)
		printf("bench: direct: setup failed or hits wrong\n");
	printf("\n| bench_fn counted by | insns per call beyond untraced |\n|---|---|\n"
	       "| direct trampoline (BL) | %.2f |\n| ops callback | %.2f |\n"
	       "| direct trampoline, long path | %.2f |\n", direct, via_ops, far);
	printf("BENCH-JSON direct {\"direct_insns\": %.2f, \"ops_insns\": %.2f, "
	       "\"long_range_insns\": %.2f}\n", direct, via_ops, far);
}
