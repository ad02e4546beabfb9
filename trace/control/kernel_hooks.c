/*
 * trace/control/kernel_hooks.c: where the trace core joins the kernel. The kernel
 * never names the tracer; it offers hooks (kernel/report/hooks.h) and the trace
 * core registers on them here: its init calls, the drain and the
 * end-of-stream frame at the end of a run, the buffer dump (and the
 * coverage and histogram frames) after a crash report and after a
 * break-key or lockup report (and one CPU's newest
 * records for the latter), the translation of return addresses the
 * graph tracer replaced and of the code patch sites call, for
 * backtraces, and how the run ended.
 */
#include <stdint.h>

#include "core/core.h"
#include "events/hist_ev.h"
#include "output/export.h"
#include "ring/ring.h"
#include "tracers/fgraph.h"
#include "tracers/hist.h"
#include "hooks.h"
#include "kprintf.h"
#include "tracers/tracer.h"
#include "tracers/trigger.h"
#include "control.h"
#include "output/output.h"
#include "wire.h"

/* The histograms, if they ever ran (hist_out.c, hist_ev_out.c): what
 * they counted up to the report. */
static void send_hists(void)
{
	hist_send();
	hist_ev_send();
}

static void dump_at_crash(void)
{
	coverage_send();	/* what was reached, if coverage ever ran */
	send_hists();
	if (!trace_active())
		return;
	kprintf("==== trace buffers at the crash ====\n");
	trace_dump();
}

/* The break key and lockup reports (kernel/report/hang.c): the same text dump,
 * then every closed block to a host capture; the run goes on. */
static void dump_at_hang(const char *why)
{
	coverage_send();
	send_hists();
	if (!trace_active()) {
		kprintf("(no tracer running: no trace to dump)\n");
		return;
	}
	kprintf("==== trace buffers at the %s ====\n", why);
	trace_dump();
	export_flush();
}

/* How the run ended (kernel/report/power.c, once per run, on the CPU
 * where it happened): an extension record in this CPU's ring, now
 * (docs/wire.md 2.6, subtype 4), and the outcome for the end-of-stream
 * frame. A ring that records nothing (paused, full in stop mode, no
 * tracer) has no record; the end frame still says it. */
static void mark_outcome(unsigned int outcome, int status)
{
	uint8_t b[1 + 10];
	unsigned int n = 1 + wire_varint_put(b + 1, wire_zigzag(status));
	uint8_t *p;

	b[0] = (uint8_t)outcome;
	export_set_outcome(outcome, status);
	if (!trace_active())
		return;
	p = ring_reserve(WIRE_REC_EXT, 1 + wire_varint_len(n) + n);
	if (!p)
		return;
	*p++ = WIRE_EXT_OUTCOME;
	p += wire_varint_put(p, n);
	for (unsigned int i = 0; i < n; i++)
		p[i] = b[i];
	ring_commit();
}

static void last_records(unsigned int cpu, unsigned int n)
{
	if (!trace_active()) {
		kprintf("(no tracer running: nothing recorded)\n");
		return;
	}
	trace_dump_last(cpu, n);
}

/* Early: every patch site prepared, and the hooks in place before any
 * tracer can start. */
static void trace_join_kernel(void)
{
	trace_init();
	fgraph_init();	/* the tracers' return hooks, after the sites */
	ring_set_ready_hook(trace_export_ready);
	trigger_set_dump(trace_dump);
	power_set_end_hooks(trace_stop_and_drain, trace_end_stream);
	crash_set_hooks(dump_at_crash, fgraph_translate);
	regdump_set_unwind_head(trace_unwind_head);
	power_set_outcome_hook(mark_outcome);
	hang_set_hooks(dump_at_hang, last_records);
}
KERNEL_INIT(trace_join_kernel, KINIT_EARLY);

/* Late: the trace= boot parameters, once every CPU is online. */
KERNEL_INIT(trace_boot_start, KINIT_LATE);
