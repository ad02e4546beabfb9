/* test/bench/bench.h: the benchmark image (make bench). */
#ifndef TEST_BENCH_H
#define TEST_BENCH_H

#include <stdint.h>

#define BENCH_CALLS 100000

/* The same trivial function, three ways: with a patch site
 * (targets.c), without one (notrace), and built with
 * -finstrument-functions (instrumented.c). */
int bench_fn(int x);
int bench_other(int x);
int bench_fn_notrace(int x);
int bench_fn_instrumented(int x);
extern volatile int bench_instrument_on;

void bench_callops(void);
void bench_record(void);
void bench_tracers(void);
void bench_tracepoints(void);
void bench_direct(void);
void bench_fp(void);
void bench_workload(void);
/* The workload alone, 'rounds' times; returns the calls it made. */
unsigned long bench_workload_rounds(unsigned int rounds);
int bench_ringsize(void);
void bench_export(void);
/* Instructions per call of bench_fn over BENCH_CALLS calls (record.c). */
double bench_fn_per_call(void);

/* Instructions per call of fn over BENCH_CALLS calls, loop included;
 * the caller provides 'static volatile int sink' and includes pmu.h. */
#define MEASURE(fn) ({							\
	uint32_t t0 = (uint32_t)pmu_insns();				\
	int acc = 0;							\
	for (int i = 0; i < BENCH_CALLS; i++)				\
		acc += fn(i);						\
	sink = acc;							\
	(double)(uint32_t)((uint32_t)pmu_insns() - t0) / BENCH_CALLS;	\
})

#endif /* TEST_BENCH_H */
