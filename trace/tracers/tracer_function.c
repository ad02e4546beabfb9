/*
 * trace/tracers/tracer_function.c: the function tracer: one entry record, with
 * its caller, per call of every function its filter selects.
 */
#include <stdint.h>

#include "core/core.h"
#include "ktime.h"
#include "percpu.h"
#include "output/ring.h"
#include "tracer.h"

/* Everything inline: this runs on every traced call (see make bench). */
void tracer_function_fast(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			  struct trace_regs *regs)
{
	/* Every online CPU has a ring while a tracer is registered. */
	struct ring_cpu *r = this_cpu()->ring;

	(void)ops;
	(void)regs;
	ring_put_func(r, trace_site_fast(ip), (parent - (uintptr_t)_text) >> 2,
		      counter_read());
}

/* With a CPU mask or a context filter set (control.c picks). */
void tracer_function_filtered(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			      struct trace_regs *regs)
{
	struct percpu *pc = this_cpu();
	unsigned int ctx = pc->irq_depth ? TRACE_CTX_IRQ : TRACE_CTX_THREAD;

	if (((trace_cpumask >> pc->cpu) & 1) && (trace_context & ctx))
		tracer_function_fast(ip, parent, ops, regs);
}

struct trace_ops tracer_function_ops = {
	.func = tracer_function_fast, .flags = TRACE_OPS_NO_FPSIMD
};
