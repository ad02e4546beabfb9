/* trace/tracers/tracer.h: the tracers and the control layer's internals. */
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

const char *trace_tracer_name(void);
/* control.c and options.c: the graph tracer is the one running (its
 * options are then fixed); picks the function tracer's callback for
 * the CPU and context filters set, and whether sites may call its
 * recorder in assembly (re-patching them if it runs): 0 or an error. */
bool trace_graph_running(void);
int trace_pick_function_callback(void);
/* Ring buffers and the exporter exist (tracepoints recorded without a
 * tracer need them too). 0 or TRACE_ENOMEM. Thread context. */
int trace_export_ready(void);
const char *trace_get_filter(void);
/* The ring bytes per CPU in use, or to be used once tracing first
 * starts (whole blocks); *stop_mode (if not NULL) the mode. */
size_t trace_buffer_bytes(bool *stop_mode);
bool trace_profiling(void);

/* Boot: applies the trace_* kernel parameters (params.c). After
 * smp_init, before main(). */
void trace_boot_start(void);
/* Power-off: stops the tracers and sends everything left, then (after
 * the final console line) the end-of-stream frame. */
void trace_stop_and_drain(void);
void trace_end_stream(void);
/* trace/output/totals.c: the end-of-run totals line(s) on the console. */
void trace_report_totals(void);
/* Prints every CPU's buffer as text on the console, without consuming it
 * (trace/output/dump.c). Any context; used after a crash report. */
void trace_dump(void);
/* Prints the newest n records of one CPU's buffer, oldest first, read
 * while that CPU may go on writing (the lockup report). Any context. */
void trace_dump_last(unsigned int cpu, unsigned int n);
/* Sends a metadata frame now (a capture that started late decodes from
 * the next data frame on). */
void trace_send_metadata(void);

#endif /* TRACE_TRACER_H */
