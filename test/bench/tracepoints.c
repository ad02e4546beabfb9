/*
 * test/bench/tracepoints.c: what a tracepoint site costs per hit, beyond
 * the same code with no site (all figures are instructions per call of
 * a small function, loop included, minus that baseline):
 *
 *   off          the site's NOP
 *   static call  B out_of_line, store the fields, BL probe (a probe
 *                attached TP_PROBE_NO_FPSIMD, built general-regs-only)
 *   iterate      the same one probe reached through tp_iterate
 *   two probes   tp_iterate over two
 *   c call       the probe called from the same place as plain C
 *   fp probe     the same probe attached as one that may use FP/SIMD
 *                (the default): BL tp_iterate_fp, from code with
 *                FP/SIMD on (q8-q15, FPCR, FPSR kept) and off (none)
 *   live-FP caller  the static call from a function that holds a double
 *                across the site, less that function with no site
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "bench.h"
#include "control/control.h"
#include "core/core.h"
#include "events/hist_ev.h"
#include "events/tracepoint.h"
#include "exception.h"
#include "pmu.h"

TP_DECLARE(bench, hit);
TP_DEFINE(bench, hit, TP_FIELD(U32, i, "%u"), TP_FIELD(U64, x, "%lu"));

static volatile int sink;
static volatile uint64_t probe_hits, probe_sum;

#define NO_FP __attribute__((target("general-regs-only")))

static notrace NO_FP __attribute__((noinline)) void bench_probe(const struct tp_event *ev,
								 const uint64_t *f)
{
	(void)ev;
	probe_hits++;
	probe_sum += f[1];	/* reads a field, so the C call must store them too */
}

static notrace NO_FP void bench_probe2(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev;
	probe_hits++;
	probe_sum += f[1];	/* reads a field, so the C call must store them too */
}

static notrace __attribute__((noinline)) int tp_plain(int i)
{
	return i + 1;
}

static notrace __attribute__((noinline)) int tp_site(int i)
{
	trace_event(bench, hit, i, 7);
	return i + 1;
}

/* A caller with a live FP value across the site (and without a site). */
static volatile double fp_in = 1.5;

static notrace __attribute__((noinline)) int tp_plain_fp(int i)
{
	double d = fp_in;

	__asm__ volatile("" : "+w"(d));
	return i + (int)(d * 2.0);
}

static notrace __attribute__((noinline)) int tp_site_fp(int i)
{
	double d = fp_in;

	__asm__ volatile("" : "+w"(d));
	trace_event(bench, hit, i, 7);
	return i + (int)(d * 2.0);
}

static notrace __attribute__((noinline)) int tp_ccall(int i)
{
	const uint64_t f[] = { (uint64_t)i, 7 };

	bench_probe(&tp_ev_bench_hit, f);
	return i + 1;
}


/* Points the event's BL at 'to' (from 'from'): the iterate row with one
 * probe, which the core itself never sets up. */
static int retarget(uintptr_t from, uintptr_t to)
{
	uintptr_t bl = tp_first_site(&tp_ev_bench_hit, true);
	uint32_t old = patch_insn_bl(bl, from), insn = patch_insn_bl(bl, to);

	spin_lock(&trace_lock);
	int err = patch_apply_insns(&bl, &old, &insn, 1);

	spin_unlock(&trace_lock);
	return err;
}

/* BENCH_CALLS calls of tp_site, counted, run as code without FP/SIMD
 * (cpu_call_fp_off); returns CPACR_EL1 after them (FP/SIMD still off?). */
static NO_FP long site_calls(void *arg)
{
	uint32_t *insns = arg, t0 = (uint32_t)pmu_insns();
	int acc = 0;

	for (int i = 0; i < BENCH_CALLS; i++)
		acc += tp_site(i);
	sink = acc;
	*insns = (uint32_t)pmu_insns() - t0;
	return (long)read_sysreg(cpacr_el1);
}

void bench_tracepoints(void)
{
	const struct tp_event *ev = &tp_ev_bench_hit;
	double base = MEASURE(tp_plain), off = MEASURE(tp_site), c = MEASURE(tp_ccall) - base;
	double base_fp = MEASURE(tp_plain_fp);
	double one, iter, two, live, fp_on, fp_off;
	uint32_t off_insns = 0;
	int bad = 0;

	bad |= tp_probe_attach_flags(ev, bench_probe, TP_PROBE_NO_FPSIMD);
	one = MEASURE(tp_site) - base;
	live = MEASURE(tp_site_fp) - base_fp;
	bad |= retarget((uintptr_t)bench_probe, (uintptr_t)tp_iterate);
	iter = MEASURE(tp_site) - base;
	bad |= retarget((uintptr_t)tp_iterate, (uintptr_t)bench_probe);
	bad |= tp_probe_attach_flags(ev, bench_probe2, TP_PROBE_NO_FPSIMD);
	two = MEASURE(tp_site) - base;
	bad |= tp_probe_detach(ev, bench_probe2);
	bad |= tp_probe_detach(ev, bench_probe);
	bad |= tp_probe_attach(ev, bench_probe);	/* may use FP: tp_iterate_fp */
	__asm__ volatile("fmov d16, xzr" ::: "v16");	/* FP/SIMD on (traps if off) */
	fp_on = MEASURE(tp_site) - base;
	bad |= (cpu_call_fp_off(site_calls, &off_insns) & (1u << CPACR_FPEN_EL1_BIT)) != 0;
	fp_off = (double)off_insns / BENCH_CALLS - base;
	bad |= tp_probe_detach(ev, bench_probe);
	/* A hit of the field histogram (trace/events/hist_ev.c), keyed by
	 * the constant x: the probe alone on the site, a static call. */
	bad |= trace_hist_events(true, "bench:hit:i:keys=x");
	MEASURE(tp_site);	/* the first hit after the clear zeroes the table */
	double hev = MEASURE(tp_site) - base;
	const struct hist_ev_table *ht = hist_ev_table_of(0, smp_cpu_id());
	uint64_t hev_hits = 0;

	for (unsigned int b = 0; ht && b < HIST_BUCKETS; b++)
		for (unsigned int k = 0; k < HIST_EV_KEYS; k++)
			hev_hits += ht->rows[k].key == 7 ? ht->rows[k].bucket[b] : 0;
	bad |= trace_hist_events(false, NULL) | hist_ev_forget();
	printf("field histogram saw %lu hits of bench:hit (key x = 7)\n", (unsigned long)hev_hits);
	if (bad || probe_hits != 8ULL * BENCH_CALLS)
		printf("bench: tracepoints: setup failed or hits wrong (%lu)\n",
		       (unsigned long)probe_hits);
	printf("\n| tracepoint site | insns per hit beyond no site |\n|---|---|\n"
	       "| off | %.2f |\n| one probe, static call | %.2f |\n"
	       "| one probe, static call, caller holds a double across it | %.2f |\n"
	       "| one probe, iterate | %.2f |\n| two probes | %.2f |\n"
	       "| one probe that may use FP/SIMD, caller has FP/SIMD on | %.2f |\n"
	       "| one probe that may use FP/SIMD, caller has FP/SIMD off | %.2f |\n"
	       "| plain C call of the probe | %.2f |\n"
	       "| field histogram, keyed (trace_hist=bench:hit:i:keys=x) | %.2f |\n", off - base, one,
	       live, iter, two, fp_on, fp_off, c, hev);
	printf("BENCH-JSON tracepoints {\"off_insns\": %.2f, \"one_probe_static_call_insns\": %.2f, "
	       "\"one_probe_iterate_insns\": %.2f, \"two_probes_insns\": %.2f, "
	       "\"c_call_insns\": %.2f, \"one_probe_static_call_live_fp_caller_insns\": %.2f, "
	       "\"one_fp_probe_fp_on_insns\": %.2f, \"one_fp_probe_fp_off_insns\": %.2f, "
	       "\"hist_event_hit_insns\": %.2f}\n",
	       off - base, one, iter, two, c, live, fp_on, fp_off, hev);
}
