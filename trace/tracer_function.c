/*
 * trace/tracer_function.c: the function tracer: one entry record, with
 * its caller, per call of every function its filter selects.
 */
#include <stdint.h>

#include "core.h"
#include "ring.h"
#include "tracer.h"

static void function_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			   struct trace_regs *regs)
{
	(void)ops;
	(void)regs;
	ring_write_func((unsigned int)trace_site_fast(ip), parent);
}

struct trace_ops tracer_function_ops = { .func = function_entry };
