/*
 * test/bench/fp.c: what keeping the FP/SIMD state costs (ARCHITECTURE.md
 * 7a), side by side in one boot:
 *  - an exception round trip (a write fault that kernel/cpu/fault.c fixes
 *    up, less the same write that does not fault) through the kernel's
 *    vectors, interrupting code without FP/SIMD (FPEN off: nothing saved,
 *    exception_round_trip_insns) and code with it on (q0-q31, FPCR and
 *    FPSR saved, exception_round_trip_live_fp_insns), and through the
 *    same kernel/cpu/entry.S assembled without any FP/SIMD handling
 *    (entry_nofp.S);
 *  - bench_fn with an application callback (q0-q7, FPCR, FPSR kept by
 *    trace/core/fp_call.S), the same callback flagged TRACE_OPS_NO_FPSIMD (no
 *    save), both as the site's only ops and as two ops through the list,
 *    and the core function tracer, whose ops carries the flag.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <baretrace_trace.h>

#include "barrier.h"
#include "bench.h"
#include "exception.h"
#include "fault.h"
#include "pmu.h"

#define FP_ROUNDS 10000

extern char exception_vectors[], bench_vectors_nofp[];
static const uint32_t ro_word = 1;	/* .rodata: a write faults */
static uint32_t rw_word;
static volatile uint64_t cb_hits;
static volatile int sink;

static notrace void count_cb(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			     struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	cb_hits++;
}

/* FP_ROUNDS fault_probe_write32(addr) calls, counted: what
 * round_writes measures, built without FP/SIMD so that it runs as code
 * that never used it when cpu_call_fp_off calls it. */
struct writes {
	void *addr;
	unsigned int faults;
	uint32_t insns;
	uint64_t cpacr;		/* CPACR_EL1 after them: FP/SIMD still as given? */
};

static __attribute__((target("general-regs-only"))) long round_writes(void *arg)
{
	struct writes *w = arg;
	uint32_t t0 = (uint32_t)pmu_insns();

	for (int i = 0; i < FP_ROUNDS; i++)
		w->faults += fault_probe_write32(w->addr, 1) != 0;
	w->insns = (uint32_t)pmu_insns() - t0;
	w->cpacr = read_sysreg(cpacr_el1);
	return 0;
}

/* Instructions per write to addr, by code with FP/SIMD on or off; *bad
 * is set when FP/SIMD was not as asked at the end. */
static double per_write(void *addr, bool fp_live, unsigned int *faults, int *bad)
{
	struct writes w = { .addr = addr };

	if (fp_live) {
		__asm__ volatile("fmov d16, xzr" ::: "v16");	/* traps if off: on */
		round_writes(&w);
	} else {
		cpu_call_fp_off(round_writes, &w);
	}
	*faults += w.faults;
	*bad |= !!(w.cpacr & (1u << CPACR_FPEN_EL1_BIT)) != fp_live;
	return (double)w.insns / FP_ROUNDS;
}

/* One exception round trip through the vectors at 'vbar', interrupting
 * code that has FP/SIMD on (its state saved) or off. IRQs stay masked so
 * nothing else is counted, nor taken by the bench table. */
static double round_trip(char *vbar, bool fp_live, unsigned int *faults, int *bad)
{
	unsigned long flags = irq_save();

	write_sysreg(vbar_el1, (uintptr_t)vbar);
	isb();		/* later exceptions use the new table */
	double fault = per_write((void *)&ro_word, fp_live, faults, bad);
	double plain = per_write(&rw_word, fp_live, faults, bad);

	write_sysreg(vbar_el1, (uintptr_t)exception_vectors);
	isb();
	irq_restore(flags);
	return fault - plain;
}

/* BENCH_CALLS calls of bench_fn, counted, run as code without FP/SIMD
 * (cpu_call_fp_off); returns CPACR_EL1 after them (FP/SIMD still off?). */
static __attribute__((target("general-regs-only"))) long fn_calls(void *arg)
{
	uint32_t *insns = arg, t0 = (uint32_t)pmu_insns();
	int acc = 0;

	for (int i = 0; i < BENCH_CALLS; i++)
		acc += bench_fn(i);
	sink = acc;
	*insns = (uint32_t)pmu_insns() - t0;
	return (long)read_sysreg(cpacr_el1);
}

/* bench_fn per call by code without FP/SIMD; *bad set if it got some. */
static double fn_per_call_fp_off(int *bad)
{
	uint32_t insns = 0;

	*bad |= (cpu_call_fp_off(fn_calls, &insns) & (1u << CPACR_FPEN_EL1_BIT)) != 0;
	return (double)insns / BENCH_CALLS;
}

/* bench_fn per call beyond off with n copies of count_cb registered. */
static double with_ops(unsigned int n, uint32_t flags, double off, int *bad)
{
	struct trace_ops ops[2] = { { .func = count_cb, .flags = flags },
				    { .func = count_cb, .flags = flags } };

	for (unsigned int k = 0; k < n; k++)
		*bad |= trace_ops_set_filter(&ops[k], "bench_fn") || trace_ops_register(&ops[k]);
	double v = bench_fn_per_call() - off;

	for (unsigned int k = 0; k < n; k++) {
		*bad |= trace_ops_unregister(&ops[k]);
		trace_ops_set_filter(&ops[k], "");
	}
	return v;
}

void bench_fp(void)
{
	unsigned int faults = 0;
	int bad = 0, fp_bad = 0;
	double exc_off = round_trip(exception_vectors, false, &faults, &fp_bad);
	double exc_fp = round_trip(exception_vectors, true, &faults, &fp_bad);
	double exc_nofp = round_trip(bench_vectors_nofp, true, &faults, &fp_bad);
	double off = bench_fn_per_call();
	uint64_t hits0 = cb_hits;
	double app1 = with_ops(1, 0, off, &bad);
	double core1 = with_ops(1, TRACE_OPS_NO_FPSIMD, off, &bad);
	double app2 = with_ops(2, 0, off, &bad);
	struct trace_ops fo = { .func = count_cb };
	double off_nofp = fn_per_call_fp_off(&fp_bad), app1_off;

	bad |= trace_ops_set_filter(&fo, "bench_fn") || trace_ops_register(&fo);
	app1_off = fn_per_call_fp_off(&fp_bad) - off_nofp;
	bad |= trace_ops_unregister(&fo);
	trace_ops_set_filter(&fo, "");
	double core2 = with_ops(2, TRACE_OPS_NO_FPSIMD, off, &bad);

	trace_set_tracer("function");
	trace_set_filter("bench_fn");
	trace_start();
	double fn = bench_fn_per_call() - off;

	trace_stop();
	trace_set_tracer("nop");
	if (bad || fp_bad || faults != 3 * FP_ROUNDS || cb_hits - hits0 != 7ULL * BENCH_CALLS)
		printf("bench: fp: setup failed (FP/SIMD state %s), %u of %d writes faulted, "
		       "%lu callbacks\n", fp_bad ? "wrong" : "right", faults, 3 * FP_ROUNDS,
		       (unsigned long)(cb_hits - hits0));
	printf("\n| FP/SIMD preservation | with the save | without | save costs |\n"
	       "|---|---:|---:|---:|\n");
	printf("| exception round trip, FP/SIMD live (q0-q31, FPCR, FPSR) | %.2f | %.2f | %.2f |\n",
	       exc_fp, exc_nofp, exc_fp - exc_nofp);
	printf("| exception round trip, code without FP/SIMD (lazy: not saved) | %.2f | %.2f | %.2f |\n",
	       exc_off, exc_nofp, exc_off - exc_nofp);
	printf("| one ops callback (q0-q7, FPCR, FPSR) | %.2f | %.2f | %.2f |\n",
	       app1, core1, app1 - core1);
	printf("| one ops callback, code without FP/SIMD (lazy: not saved) | %.2f | %.2f | %.2f |\n",
	       app1_off, core1, app1_off - core1);
	printf("| two ops callbacks, list | %.2f | %.2f | %.2f |\n", app2, core2, app2 - core2);
	printf("| function tracer (core ops, never saves) | | %.2f | |\n", fn);
	printf("BENCH-JSON fp {\"exception_round_trip_insns\": %.2f, "
	       "\"exception_round_trip_live_fp_insns\": %.2f, "
	       "\"exception_round_trip_nofp_insns\": %.2f, \"app_callback_insns\": %.2f, "
	       "\"nofp_callback_insns\": %.2f, \"app_list2_insns\": %.2f, "
	       "\"nofp_list2_insns\": %.2f, \"function_tracer_insns\": %.2f, "
	       "\"app_callback_fp_off_insns\": %.2f}\n",
	       exc_off, exc_fp, exc_nofp, app1, core1, app2, core2, fn, app1_off);
}
