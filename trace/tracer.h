/* trace/tracer.h: the tracers and the control layer that starts them. */
#ifndef TRACE_TRACER_H
#define TRACE_TRACER_H

#include <baretrace_trace.h>

extern struct trace_ops tracer_function_ops;

/* Boot: applies the trace_* kernel parameters; starts tracing if
 * trace= named a tracer. After smp_init, before main(). */
void trace_boot_start(void);
/* Power-off: stops the tracer and sends everything left, then (after
 * the final console line) the end-of-stream frame. */
void trace_stop_and_drain(void);
void trace_end_stream(void);

#endif /* TRACE_TRACER_H */
