/* trace/control/control.h: the control layer's own interface, shared by its
 * files (the top layer: nothing below names it, trace/LAYERS). */
#ifndef TRACE_CONTROL_H
#define TRACE_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

const char *trace_tracer_name(void);
/* tracer_names.c: the names that choose a tracer (trace=: every one;
 * recording: those trace_set_tracer takes, function, function_graph and
 * nop), each ended by a NUL, then an empty name. Whether a name is one;
 * the ops a recording tracer's name chooses (NULL for nop): 0, or -1
 * for another name; the name of an ops (NULL: "nop"); the known name
 * nearest a mistyped one, or NULL; the names as "a, b, c" in buf. */
extern const char trace_tracer_names[];
struct trace_ops;
bool trace_tracer_known(const char *name, bool recording);
int trace_tracer_ops(const char *name, struct trace_ops **ops);
const char *trace_tracer_name_of(const struct trace_ops *ops);
const char *trace_tracer_nearest(const char *word, bool recording);
void trace_tracer_list(char *buf, size_t cap, bool recording);
/* control.c and options.c: the graph tracer is the one running (its
 * options are then fixed); picks the function tracer's callback for
 * the CPU and context filters set, and whether sites may call its
 * recorder in assembly (re-patching them if it runs): 0 or an error. */
bool trace_graph_running(void);
int trace_pick_function_callback(void);
/* The exporter runs: frames go out on the console UART. */
bool trace_exporting(void);
/* console_gate.c: true (having said why, and how to run it captured)
 * when the command typed at the console that runs now would start trace
 * frames on a console nothing captures; false for C code, boot
 * arguments, a captured console, or frames that flow already. Commands
 * ask before they change anything; the exporter's start asks too. */
bool trace_console_refuses(void);
/* Ring buffers and the exporter exist (tracepoints recorded without a
 * tracer need them too). 0 or TRACE_ENOMEM. Thread context. */
int trace_export_ready(void);	/* or TRACE_ENOCAPTURE: trace_console_refuses */
const char *trace_get_filter(void);
/* The ring bytes per CPU in use, or to be used once tracing first
 * starts (whole blocks); *stop_mode (if not NULL) the mode. */
size_t trace_buffer_bytes(bool *stop_mode);
/* Ring bytes per CPU when trace_buf= does not say (RING_RAM_SHARE). */
size_t trace_default_buffer(void);
bool trace_profiling(void);
/* The functions the profiler leaves out (globs; while it is off): 0 or
 * an error. How many functions it counts (while it is on). */
int trace_profile_notrace(const char *globs);
unsigned int trace_profile_functions(void);

/* coverage_ctl.c: function coverage on the sites the globs choose
 * ("" = every site), beside any other tracer; off keeps the bits.
 * 0 or an error (TRACE_EBUSY: on already, or a patch refused to stop).
 * Its notrace globs (while it is off). Whether it runs. */
int trace_coverage(bool on, const char *globs);
int trace_coverage_notrace(const char *globs);
/* While it is off: forget that it ran, so the end of the run, a crash
 * or the next boot sends no coverage (a test of coverage cleaning up
 * after itself). 0, or TRACE_EBUSY while it runs. */
int trace_coverage_forget(void);
bool trace_covering(void);

/* hist_ctl.c: duration histograms (trace/tracers/hist.h) of the functions
 * the globs choose (1 to HIST_FUNCS_MAX of them; "" is refused), beside
 * any other tracer; off keeps the counts. *chosen (if not NULL): how many
 * functions the globs chose, also when refused for it. 0 or an error
 * (TRACE_EINVAL: a bad glob, none or too many functions; TRACE_EBUSY: on
 * already, or a patch refused to stop); refused, nothing changed.
 * Whether it runs. Thread context. */
int trace_hist(bool on, const char *globs, unsigned int *chosen);
bool trace_histing(void);
/* While it is off: forget that it ran (the end of the run sends and
 * prints nothing of it). 0, or TRACE_EBUSY while it runs. */
int trace_hist_forget(void);
/* hist_ctl.c: the tracepoint field histograms (trace/events/hist_ev.h),
 * "SYSTEM:EVENT:FIELD[:keys=KEY],..." (1 to HIST_EV_MAX specs); off keeps
 * the counts. 0, or an error said on the console, nothing changed. */
int trace_hist_events(bool on, const char *specs);
/* probe_ctl.c: plants the trace_probe= probes; 0, or -1 when one was
 * refused (it said why). */
int trace_probe_boot_start(void);

/* Boot: applies the trace_* kernel parameters (params.c). After
 * smp_init, before main(). */
void trace_boot_start(void);
/* Power-off: stops the tracers and sends everything left, then (after
 * the final console line) the end-of-stream frame. */
void trace_stop_and_drain(void);
void trace_end_stream(void);

/* Sends a metadata frame now (a capture that started late decodes from
 * the next data frame on). */
void trace_send_metadata(void);
/* The metadata set alone, when the exporter runs (a probe's schema
 * changed: probe_ctl.c). */
void trace_send_meta_only(void);

#endif /* TRACE_CONTROL_H */
