/* test/bench/bench.h: the benchmark image (make bench). */
#ifndef TEST_BENCH_H
#define TEST_BENCH_H

#include <stdint.h>

#define BENCH_CALLS 100000

/* The same trivial function, three ways: with a patch site
 * (targets.c), without one (notrace), and built with
 * -finstrument-functions (instrumented.c). */
int bench_fn(int x);
int bench_fn_low(int x);	/* the same at a site below 128 (targets.c) */
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
void bench_coverage(void);
void bench_probes(void);

/* The whole-program workload (workload.inc): sizes, rounds, calls. */
#define WL_BYTES	2048
#define WL_NODES	512
#define WL_N		12	/* matrix order */
#define WL_ROUNDS	16
/* Calls per round: crc 1 + WL_BYTES, list WL_NODES + 1 + WL_NODES, matrix
 * 1 + N*N*(1 + N), fsm 1 + WL_BYTES; and the round itself. */
#define WL_CALLS_PER_ROUND (1 + WL_BYTES + 2 * WL_NODES + 1 + 1 + WL_N * WL_N * (1 + WL_N) + \
			    1 + WL_BYTES + 1)

/* The workload's copies (workload.inc): with patch sites (workload.c),
 * without (workload_nosite.c), and gcov-instrumented (workload_gcov.c).
 * WL_CALLS_PER_ROUND calls a round; bench_workload_insns runs rounds
 * 0 to 15 of one copy and returns the instructions they took. */
uint32_t wl_round(unsigned int r);
uint32_t nosite_wl_round(unsigned int r);
uint32_t gcov_wl_round(unsigned int r);
void wl_init(void);
void nosite_wl_init(void);
void gcov_wl_init(void);
uint32_t bench_workload_insns(uint32_t (*round)(unsigned int));
/* The cheapest of 4 runs (an interrupt in a run only adds). */
uint32_t bench_workload_best(uint32_t (*round)(unsigned int));
void bench_export(void);
/* Instructions per call of bench_fn (of bench_fn_low) over BENCH_CALLS
 * calls (record.c). */
double bench_fn_per_call(void);
double bench_fn_low_per_call(void);

/* Where the measured functions sit (main.c checks them before any
 * figure is taken): bench_fn above BENCH_SITE_HIGH_MIN, bench_fn_low
 * below BENCH_SITE_LOW_MAX, at least BENCH_SITES_MIN sites in all. */
#define BENCH_SITE_HIGH_MIN	2000
#define BENCH_SITE_LOW_MAX	128
#define BENCH_SITES_MIN		4000
#define BENCH_FILLER_FNS	4000	/* filler.c */
int bench_filler_sum(void);
int bench_sites_check(void);		/* main.c: 0 when they hold */
struct bench_sites {
	int high, low;			/* bench_fn's, bench_fn_low's */
	unsigned int total;
};
extern struct bench_sites bench_sites;

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
