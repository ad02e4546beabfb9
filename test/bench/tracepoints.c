/*
 * test/bench/tracepoints.c: what a tracepoint site costs per hit, beyond
 * the same code with no site (all figures are instructions per call of
 * a small function, loop included, minus that baseline):
 *
 *   off          the site's NOP
 *   static call  B out_of_line, store the fields, BL probe
 *   iterate      the same one probe reached through tp_iterate
 *   two probes   tp_iterate over two
 *   c call       the probe called from the same place as plain C
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "bench.h"
#include "core/core.h"
#include "pmu.h"
#include "events/tracepoint.h"

TP_DECLARE(bench, hit);
TP_DEFINE(bench, hit, TP_FIELD(U32, i, "%u"), TP_FIELD(U64, x, "%lu"));

static volatile int sink;
static volatile uint64_t probe_hits, probe_sum;

static notrace __attribute__((noinline)) void bench_probe(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev;
	probe_hits++;
	probe_sum += f[1];	/* reads a field, so the C call must store them too */
}

static notrace void bench_probe2(const struct tp_event *ev, const uint64_t *f)
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

void bench_tracepoints(void)
{
	const struct tp_event *ev = &tp_ev_bench_hit;
	double base = MEASURE(tp_plain), off = MEASURE(tp_site), c = MEASURE(tp_ccall) - base;
	double one, iter, two;
	int bad = 0;

	bad |= tp_probe_attach(ev, bench_probe);
	one = MEASURE(tp_site) - base;
	bad |= retarget((uintptr_t)bench_probe, (uintptr_t)tp_iterate);
	iter = MEASURE(tp_site) - base;
	bad |= retarget((uintptr_t)tp_iterate, (uintptr_t)bench_probe);
	bad |= tp_probe_attach(ev, bench_probe2);
	two = MEASURE(tp_site) - base;
	bad |= tp_probe_detach(ev, bench_probe2);
	bad |= tp_probe_detach(ev, bench_probe);
	if (bad || probe_hits != 5ULL * BENCH_CALLS)
		printf("bench: tracepoints: setup failed or hits wrong (%lu)\n",
		       (unsigned long)probe_hits);
	printf("\n| tracepoint site | insns per hit beyond no site |\n|---|---|\n"
	       "| off | %.2f |\n| one probe, static call | %.2f |\n"
	       "| one probe, iterate | %.2f |\n| two probes | %.2f |\n"
	       "| plain C call of the probe | %.2f |\n", off - base, one, iter, two, c);
	printf("BENCH-JSON tracepoints {\"off_insns\": %.2f, \"one_probe_static_call_insns\": %.2f, "
	       "\"one_probe_iterate_insns\": %.2f, \"two_probes_insns\": %.2f, "
	       "\"c_call_insns\": %.2f}\n", off - base, one, iter, two, c);
}
