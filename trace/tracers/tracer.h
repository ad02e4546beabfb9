/* trace/tracers/tracer.h: the tracers, their options and their callbacks. */
#ifndef TRACE_TRACER_H
#define TRACE_TRACER_H

#include <stdbool.h>
#include <stddef.h>

#include <baretrace_trace.h>

/* Which CPUs and contexts tracers record (trace/control/options.c). */
#define TRACE_CTX_THREAD	1
#define TRACE_CTX_IRQ		2
#define TRACE_CTX_ALL		3
extern uint64_t trace_cpumask;
extern unsigned int trace_context;
extern bool trace_filtered;	/* a CPU mask or context filter is set */

extern struct trace_ops tracer_function_ops, tracer_graph_ops, tracer_profile_ops;
void tracer_function_fast(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			  struct trace_regs *regs);
void tracer_function_filtered(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			      struct trace_regs *regs);

struct graph_options {
	unsigned int max_depth;		/* 0: no limit */
	uint64_t threshold;		/* counter ticks; 0: record every call */
	bool retval;
	uint64_t *graph_funcs;		/* site bitmap; NULL: every function */
};
extern struct graph_options graph_opts;

/* trace/tracers/unwind.c: for backtraces of the code patch sites call (the
 * hook of kernel/report/hooks.h, regdump_set_unwind_head). */
struct exc_frame;
bool trace_unwind_head(const struct exc_frame *f, uintptr_t *func, uintptr_t *ret,
		       uintptr_t *fp);

#endif /* TRACE_TRACER_H */
