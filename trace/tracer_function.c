/*
 * trace/tracer_function.c: the function tracer: one entry record, with
 * its caller, per call of every function its filter selects.
 */
#include <stdint.h>

#include "core.h"
#include "ktime.h"
#include "percpu.h"
#include "ring.h"
#include "tracer.h"

/* Everything inline: this runs on every traced call (see make bench). */
static void function_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			   struct trace_regs *regs)
{
	/* Every online CPU has a ring while a tracer is registered. */
	struct ring_cpu *r = this_cpu()->ring;

	(void)ops;
	(void)regs;
	ring_put_func(r, trace_site_fast(ip), (parent - (uintptr_t)_text) >> 2,
		      counter_read());
}

struct trace_ops tracer_function_ops = { .func = function_entry };
