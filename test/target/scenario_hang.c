/*
 * test/target/scenario_hang.c: a board that hangs with a trace in its
 * rings, for the post-mortem tools (tools/gdb/baretrace.py, checked by
 * test/gdb_check.py through QEMU's gdb stub).
 *
 * Boot with "trace=function trace_filter=tt_alpha,tt_beta,tt_gamma --
 * gdbhang". The calls are a fixed pattern the checker knows:
 *   CPU 1: tt_gamma(i) for i < HANG_CPU1_CALLS, then back to idle, where
 *          the tick closes its block and the exporter sends it;
 *   CPU 0: tt_alpha(i) for i < HANG_CPU0_CALLS, and tt_beta(i) after it
 *          when i % 5 == 4; several blocks, the last one left open.
 * Then CPU 0 prints the rings as text (trace_dump, the target's own
 * decoder: what the checker compares with) and spins for ever with
 * interrupts masked, so no tick closes its block.
 */
#include <stdio.h>

#include <baretrace.h>

#include "barrier.h"
#include "target.h"
#include "tracers/tracer.h"

#define HANG_CPU0_CALLS	600
#define HANG_CPU1_CALLS	40

static void cpu1_calls(void *arg)
{
	(void)arg;
	for (int i = 0; i < HANG_CPU1_CALLS; i++)
		tt_gamma(i);
}

int scenario_gdbhang(void)
{
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
