/*
 * trace/core/kernel_hooks.c: where the trace core joins the kernel. The kernel
 * never names the tracer; it offers hooks (kernel/hooks.h) and the trace
 * core registers on them here: its init calls, the drain and the
 * end-of-stream frame at the end of a run, the buffer dump after a crash
 * report, and the translation of return addresses the graph tracer
 * replaced, for backtraces.
 */
#include <stdint.h>

#include "core.h"
#include "fgraph.h"
#include "hooks.h"
#include "kprintf.h"
#include "tracers/tracer.h"

static void dump_at_crash(void)
{
	if (!trace_active())
		return;
	kprintf("==== trace buffers at the crash ====\n");
	trace_dump();
}

/* Early: every patch site prepared, and the hooks in place before any
 * tracer can start. */
static void trace_join_kernel(void)
{
	trace_init();
	power_set_end_hooks(trace_stop_and_drain, trace_end_stream);
	crash_set_hooks(dump_at_crash, fgraph_translate);
}
KERNEL_INIT(trace_join_kernel, KINIT_EARLY);

/* Late: the trace= boot parameters, once every CPU is online. */
KERNEL_INIT(trace_boot_start, KINIT_LATE);
