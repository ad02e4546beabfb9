/*
 * test/target/scenario_hang.c: a board that hangs with a trace in its
 * rings, for the post-mortem tools (tools/gdb/baretrace.py, checked by
 * test/gdb_check.py through QEMU's gdb stub).
 *
 * Boot with "trace=function trace_filter=tt_alpha,tt_beta,tt_gamma
 * trace_event=gdbhang:step -- gdbhang". The calls are a fixed pattern
 * the checker knows:
 *   CPU 2: the tracepoint gdbhang:step (i, name) for i < HANG_CPU2_EVENTS,
 *          names alpha, beta, gamma in turn, and one trace_printf (the
 *          console's dump and the host tool word both alike);
 *   CPU 1: tt_gamma(i) for i < HANG_CPU1_CALLS; both then go back to
 *          idle, where the tick closes their blocks and the exporter
 *          sends them;
 *   CPU 0: tt_alpha(i) for i < HANG_CPU0_CALLS, and tt_beta(i) after it
 *          when i % 5 == 4; several blocks, the last one left open.
 * Then CPU 0 prints the rings as text (trace_dump, the target's own
 * decoder: what the checker compares with) and spins for ever with
 * interrupts masked, so no tick closes its block.
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "target.h"
#include "output/output.h"
#include "tracers/tracer.h"

#define HANG_CPU0_CALLS	1200	/* 1440 events: more than 2 KiB rings hold */
#define HANG_CPU1_CALLS	40
#define HANG_CPU2_EVENTS	6

TP_DEFINE(gdbhang, step, TP_FIELD(U32, i, "%u"), TP_STRING(name, 16));

static void cpu1_calls(void *arg)
{
	(void)arg;
	for (int i = 0; i < HANG_CPU1_CALLS; i++)
		tt_gamma(i);
}

static void cpu2_events(void *arg)
{
	static const char *const names[] = { "alpha", "beta", "gamma" };

	(void)arg;
	for (unsigned int i = 0; i < HANG_CPU2_EVENTS; i++)
		trace_event(gdbhang, step, i, names[i % 3]);
	trace_printf("gdbhang: %d events on CPU %u, %#x, %d", HANG_CPU2_EVENTS,
		     smp_cpu_id(), 0xbeef, -42);
}

int scenario_gdbhang(void)
{
	if (smp_num_cpus() > 2) {
		smp_start(2, cpu2_events, NULL);
		smp_wait(2);
	}
	if (smp_num_cpus() > 1) {
		smp_start(1, cpu1_calls, NULL);
		smp_wait(1);
	}
	/* Masked from here on: the tick would close the open block. */
	(void)irq_save();
	for (int i = 0; i < HANG_CPU0_CALLS; i++) {
		tt_alpha(i);
		if (i % 5 == 4)
			tt_beta(i);
	}
	trace_dump();
	printf("gdbhang: spinning with interrupts masked\n");
	for (;;)
		cpu_relax();
}
