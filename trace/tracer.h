/* trace/tracer.h: the tracers and the control layer that starts them. */
#ifndef TRACE_TRACER_H
#define TRACE_TRACER_H

#include <stdbool.h>
#include <stddef.h>

#include <baretrace_trace.h>

extern struct trace_ops tracer_function_ops;

/* Boot: applies the trace_* kernel parameters; starts tracing if
 * trace= named a tracer. After smp_init, before main(). */
void trace_boot_start(void);
/* Power-off: stops the tracer and sends everything left, then (after
 * the final console line) the end-of-stream frame. */
void trace_stop_and_drain(void);
void trace_end_stream(void);
/* Prints every CPU's buffer as text on the console, without consuming it
 * (trace/dump.c). Any context; used after a crash report. */
void trace_dump(void);
/* Tracing is on (a tracer registered by the control layer). */
bool trace_active(void);
/* Changes the ring buffers (size per CPU, mode); a running tracer is
 * stopped, drained and started again. Thread context. 0 or -1. */
int trace_set_buffer(size_t bytes, int stop_mode);
/* Sends a metadata frame now (a capture that started late decodes from
 * the next data frame on). */
void trace_send_metadata(void);

#endif /* TRACE_TRACER_H */
