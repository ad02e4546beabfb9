/*
 * include/baretrace_trace.h: attaching callbacks to functions.
 *
 * Every function of the kernel, drivers and application is compiled with
 * a patchable entry. A tracer fills in a struct trace_ops, chooses the
 * functions it wants with glob filters, and registers it; from then on
 * each call of a wanted function calls ops->func before the function
 * body runs:
 *
 *   static void count(uintptr_t ip, uintptr_t parent_ip,
 *                     struct trace_ops *ops, struct trace_regs *regs)
 *   { hits++; }
 *   static struct trace_ops my_ops = { .func = count };
 *   trace_ops_set_filter(&my_ops, "sensor_* !sensor_hash");
 *   trace_ops_register(&my_ops);
 *
 * Callbacks run with interrupts masked, must be short, and must not
 * register or unregister ops. A callback that calls traced functions does
 * not recurse: calls made from inside a callback are not traced.
 * Callbacks may read and change the traced function's arguments (x0-x7)
 * and its return address (lr) through regs. Callbacks may use floating
 * point: the traced function's FP/SIMD arguments (q0-q7), FPCR and FPSR
 * are saved around them and restored, whatever they do, when the traced
 * context has FP/SIMD on; with it off (lazy: it never used any) nothing
 * is saved and FP/SIMD is off again after the callback (see
 * TRACE_OPS_NO_FPSIMD for the callbacks that can do without).
 *
 * Filters use ftrace's glob syntax, several patterns separated by spaces
 * or commas: "foo*", "*foo", "*foo*", "f?o", "[a-c]*", and "!pattern" to
 * exclude; "@GLOB" chooses by the folder of the function's source
 * instead of its name ("@app": the application's own functions,
 * "@kernel", "@drivers"; trace_site_folder). An empty filter (the
 * default) means every function. The
 * notrace list removes functions whatever the filter says.
 *
 * All calls here are thread context, not from callbacks or interrupts;
 * they return 0 or a negative TRACE_E* code and change nothing on error.
 */
#ifndef BARETRACE_TRACE_H
#define BARETRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Compile a function without a patch site: it can never be traced. */
#define notrace __attribute__((patchable_function_entry(0, 0)))

/* What the trampoline saved; layout fixed by trace/core/entry.S. fp and lr
 * form the traced function's frame record, record_fp and pc the
 * trampoline's, so backtraces pass through both. */
struct trace_regs {
	uint64_t x[9];		/* x0-x7 arguments, x8 indirect result */
	uint64_t sp;		/* stack pointer at the call */
	uint64_t fp;		/* caller's frame pointer */
	uint64_t lr;		/* return address of the traced function */
	uint64_t record_fp;	/* (frame record link; do not change) */
	uint64_t pc;		/* where the function body starts (ip + 8) */
	uint64_t pad[2];
};

struct trace_ops;
typedef void (*trace_func)(uintptr_t ip, uintptr_t parent_ip,
			   struct trace_ops *ops, struct trace_regs *regs);

struct trace_ops {
	trace_func func;		/* offset 0: the trampoline calls this */
	uintptr_t direct_call;		/* offset 8: reserved for direct calls */
	void *data;			/* the tracer's own */
	uint32_t flags;			/* TRACE_OPS_*; read when registering */
	/* Owned by the trace core (trace/core/ops.c); zero-initialise. Bitmaps
	 * over sites; NULL filter = every site, NULL notrace = none. */
	uint64_t *want;			/* filter minus notrace: read by dispatch */
	uint64_t *filter_bits;
	uint64_t *notrace_bits;
	struct trace_ops *fp_shim;	/* the literal for it, unless NO_FPSIMD */
	bool registered;
};

/* The callback, and everything it calls, never touches an FP/SIMD
 * register, FPCR or FPSR (it is built -mgeneral-regs-only, as the trace
 * core's own tracers are), so the trampoline need not save them. Without
 * it (the default) q0-q7, FPCR and FPSR are saved around the callback:
 * 23 instructions a call from code with FP/SIMD on, 13 from code
 * without (make bench, build/bench/fp.json). */
#define TRACE_OPS_NO_FPSIMD	(1u << 0)

#define TRACE_EINVAL	(-1)	/* bad pattern or argument */
#define TRACE_EBUSY	(-2)	/* already (un)registered, or too many ops */
#define TRACE_ENOMEM	(-3)
#define TRACE_EPATCH	(-4)	/* a site's text was not what the core expected */
/* A command typed at a console that nothing captures would start the
 * binary trace frames (docs/running.md); it said so. */
#define TRACE_ENOCAPTURE	(-5)

int trace_ops_register(struct trace_ops *ops);
/* Returns only when no CPU can still be running ops->func: the caller
 * may then free or reuse ops. */
int trace_ops_unregister(struct trace_ops *ops);
int trace_ops_set_filter(struct trace_ops *ops, const char *patterns);
int trace_ops_set_notrace(struct trace_ops *ops, const char *patterns);

/* Sites (every traceable function), by index in address order. */
unsigned int trace_site_count(void);
const char *trace_site_name(unsigned int site);
/* The folder of the site's source, its first folder under the build's
 * obj/: "app" for the application's own, "kernel", "drivers", "boot",
 * "board", ...; "other" for library code; "" out of range. */
const char *trace_site_folder(unsigned int site);
uintptr_t trace_site_addr(unsigned int site);
int trace_site_of(uintptr_t func);	/* index, or -1 */

/* Direct trampolines (trace/core/direct.c): func's site calls tramp with
 * x30 = func + 8 (the body), x9 = func's return address, x0-x7 its
 * arguments: a BL when within +-128 MiB, otherwise through
 * trace_caller_direct and the literal's direct_call slot. */
int trace_direct_attach(void *func, void *tramp);
int trace_direct_detach(void *func);

/* Counters of the patcher. */
struct trace_patch_stats {
	uint64_t batches;	/* updates applied */
	uint64_t sites;		/* sites whose literal or instruction changed */
	uint64_t rounds;	/* cross-CPU synchronisation rounds */
	uint64_t refused;	/* batches refused on a text mismatch */
};
void trace_patch_stats(struct trace_patch_stats *out);
/* Instructions the boot-time preparation of every site took (PMU event
 * 0x08; 0 where the counter does not count, e.g. QEMU without -icount). */
uint64_t trace_sites_init_insns(void);

/*
 * trace_printf("fmt", ...): a message formatted on the host, cheap here:
 * the record holds the format's id and the arguments as integers (up to
 * 15; cast pointers to intptr_t). Formats: %d %i %u %x %X %o %c %p with
 * flags, width and precision; no %s (the text would have to travel).
 * The format strings reach the host in the metadata.
 */
struct trace_format {
	const char *fmt;
};

void trace_printf_args(const struct trace_format *f, unsigned int n, const int64_t *args);

#define trace_printf(format, ...) do {						\
	static const struct trace_format __trace_fmt				\
	__attribute__((used, section(".bt_formats"), aligned(8))) = { format };	\
	const int64_t __trace_args[] = { 0, ##__VA_ARGS__ };			\
	trace_printf_args(&__trace_fmt,						\
			  sizeof(__trace_args) / sizeof(__trace_args[0]) - 1,	\
			  __trace_args + 1);					\
} while (0)

/*
 * Control: the same layer the console commands and boot arguments use
 * (see docs/running.md, "Console commands"). Each returns 0 or a TRACE_E* code and
 * changes nothing when it refuses.
 */
int trace_set_tracer(const char *name);	/* "function", "function_graph", "nop" */
int trace_set_filter(const char *globs);	/* of the recording tracer */
int trace_set_notrace(const char *globs);
int trace_set_graph_function(const char *globs);	/* "" = everything */
int trace_set_max_depth(unsigned int depth);	/* 0 = no limit */
int trace_set_threshold_us(uint64_t us);	/* 0 = every call */
int trace_set_retval(bool on);
int trace_set_cpumask(uint64_t mask);
int trace_set_context(const char *ctx);	/* "thread", "irq", "all" */
int trace_set_buffer(size_t bytes, int stop_mode);
int trace_start(void);
int trace_stop(void);
int trace_clear(void);			/* empty the ring buffers */
bool trace_active(void);
int trace_snapshot(void);		/* copy the buffers aside */
int trace_profile(bool on, const char *globs);
int trace_set_triggers(const char *spec);	/* "func:traceoff[:3],..." ("" clears) */
int trace_set_args(const char *spec);	/* "func:N,..." ("" clears) */

/* Benchmarks: dispatch every wanted site through the list ops, as
 * before per-callsite ops, instead of calling a single ops directly. */
int trace_force_list(bool on);

#endif /* BARETRACE_TRACE_H */
