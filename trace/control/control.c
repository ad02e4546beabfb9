/*
 * trace/control/control.c: the control layer. The console commands
 * (trace/commands*.c), the boot arguments (trace/control/params.c) and C code
 * (baretrace_trace.h) all change tracing through these functions; each
 * checks its input and changes nothing when it refuses.
 *
 * State: the recording tracer (function or function_graph, one at a
 * time) with its filters and options, the profiler (independent, with
 * its own filter), the ring buffers and their mode. All of it is changed
 * under ctl_lock, in thread context; tracers read options without locks
 * (they are set while the tracer is stopped). The tracers' options are
 * in options.c.
 */
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "output/export.h"
#include "output/prev.h"
#include "tracers/fgraph.h"
#include "base/glob.h"
#include "irq.h"
#include "ktime.h"
#include "heap.h"
#include "kprintf.h"
#include "percpu.h"
#include "tracers/profile.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracers/coverage.h"
#include "events/hist_ev.h"
#include "tracers/hist.h"
#include "tracers/tracer.h"
#include "uart.h"
#include "control.h"
#include "output/output.h"

#define CLOSE_AFTER_TICKS_DIV	10	/* close a block after 1/10 s */

static struct spinlock ctl_lock = SPINLOCK_INIT;
static struct trace_ops *tracer;	/* chosen recording tracer, NULL = nop */
static bool running, exporting, profiling, ended;
static size_t buf_bytes;	/* 0: trace_default_buffer() */
static enum ring_mode buf_mode = RING_OVERWRITE;
static char filter_pat[TRACE_PATTERN_MAX], notrace_pat[TRACE_PATTERN_MAX];

static void trace_tick(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	ring_close_if_older(time_counter_hz() / CLOSE_AFTER_TICKS_DIV);
	if (cpu == 0) {
		coverage_retire();	/* the sites reached since the last tick */
		export_tick();
	}
}

/*
 * The default ring: 1/16 of RAM split over the CPUs online. A default
 * run then keeps what a whole benchmark records rather than its last
 * moments (64 KiB lost 44 % of a function-traced run of 364,581 calls):
 * 32 MiB in all on QEMU virt's 512 MiB, 8 MiB per CPU; 16 MiB on a
 * Pi 3's 1 GiB, 32 MiB on a Pi 4's 2 GiB. The rest of RAM stays the
 * application's: the region kept across resets holds two such sets
 * (kernel/report/persist.h sizes it at 1/8 of RAM), so the heap loses
 * nothing to the rings, and 1/8 + the 64 MiB left for a loader still
 * leave most of RAM to the heap. Where RAM is too small for that region
 * to grow (under about 200 MiB), the default is what its 8 MiB hold, so
 * a reset still keeps the rings. At least 64 KiB (the size before, for
 * a small board), at most what trace_buf= accepts.
 */
size_t trace_default_buffer(void)
{
	unsigned int ncpus = smp_num_cpus() ? smp_num_cpus() : 1;
	uint64_t bytes = ram_region().size / RING_RAM_SHARE / ncpus;
	size_t room = prev_ring_room() / ncpus;

	if (room && bytes > room)
		bytes = room;
	bytes &= ~(uint64_t)(RING_DEFAULT_MIN - 1);	/* whole 64 KiB */
	return bytes < RING_DEFAULT_MIN ? RING_DEFAULT_MIN :
	       bytes > RING_MAX_BYTES ? RING_MAX_BYTES : (size_t)bytes;
}

/* Rings and the exporter, once. ctl_lock held. */
static int ensure_rings(void)
{
	if (ring_of(0))
		return 0;
	if (!exporting && trace_console_refuses())
		return TRACE_ENOCAPTURE;
	if (!buf_bytes)
		buf_bytes = trace_default_buffer();
	if (ring_setup(buf_bytes, buf_mode)) {
		kprintf("trace: no memory for %lu bytes of ring buffer per CPU\n",
			(unsigned long)buf_bytes);
		return TRACE_ENOMEM;
	}
	if (!exporting) {
		exporting = true;
		export_start();
		time_tick_hook(trace_tick);
		smp_set_idle_hook(export_idle);
	}
	return 0;
}

bool trace_exporting(void)
{
	return exporting;
}

int trace_export_ready(void)
{
	spin_lock(&ctl_lock);
	int err = ensure_rings();

	spin_unlock(&ctl_lock);
	return err;
}

int trace_set_tracer(const char *name)
{
	struct trace_ops *t;

	if (trace_tracer_ops(name, &t))
		return TRACE_EINVAL;
	bool was = running;

	if (was)
		trace_stop();
	spin_lock(&ctl_lock);
	tracer = t;
	spin_unlock(&ctl_lock);
	return was && t ? trace_start() : 0;
}

const char *trace_tracer_name(void)
{
	return trace_tracer_name_of(tracer);
}

/* Applies a pattern to the current tracer now if it is stopped, or
 * through the core (one patch batch) if it runs. */
static int set_pattern(char *slot, const char *globs, int (*apply)(struct trace_ops *, const char *))
{
	char old[TRACE_PATTERN_MAX];
	int err;

	if (strlen(globs) >= TRACE_PATTERN_MAX)
		return TRACE_EINVAL;
	spin_lock(&ctl_lock);
	strcpy(old, slot);
	strcpy(slot, globs);
	err = tracer ? apply(tracer, slot) : 0;
	if (err)
		strcpy(slot, old);
	spin_unlock(&ctl_lock);
	return err;
}

int trace_set_filter(const char *globs)
{
	return set_pattern(filter_pat, globs, trace_ops_set_filter);
}

int trace_set_notrace(const char *globs)
{
	return set_pattern(notrace_pat, globs, trace_ops_set_notrace);
}

const char *trace_get_filter(void)
{
	return filter_pat;
}

int trace_start(void)
{
	int err;

	spin_lock(&ctl_lock);
	if (running || !tracer) {
		spin_unlock(&ctl_lock);
		return running ? 0 : TRACE_EINVAL;
	}
	if ((err = ensure_rings()) || (err = trace_ops_set_filter(tracer, filter_pat)) ||
	    (err = trace_ops_set_notrace(tracer, notrace_pat))) {
		spin_unlock(&ctl_lock);
		return err;
	}
	trace_pick_function_callback();
	fgraph_reset();
	spin_unlock(&ctl_lock);
	err = trace_ops_register(tracer);	/* its own lock; may IPI */
	if (!err)
		running = true;
	return err;
}

int trace_stop(void)
{
	if (!running)
		return 0;
	int err = trace_ops_unregister(tracer);

	if (!err)
		running = false;
	return err;
}

bool trace_active(void)
{
	return running;
}

bool trace_graph_running(void)
{
	return running && tracer == &tracer_graph_ops;
}

/*
 * New rings for every CPU while every CPU may be writing (graph return
 * hooks, tracepoints, printf, triggers): the exporter is held off and
 * each CPU switches its own ring (ring_setup); what the old rings held
 * is counted as discarded.
 */
static int swap_rings(size_t bytes, enum ring_mode mode)
{
	if (!ring_of(0))
		return 0;
	export_hold();
	int err = ring_setup(bytes, mode);

	export_release();
	if (err == -2)
		kprintf("trace: a CPU did not switch rings in time; its old ring is kept\n");
	return err == -1 ? TRACE_ENOMEM : 0;
}

int trace_clear(void)
{
	return swap_rings(buf_bytes, buf_mode);
}

int trace_set_buffer(size_t bytes, int stop_mode)
{
	enum ring_mode mode = stop_mode ? RING_STOP : RING_OVERWRITE;

	/* Tracing goes on across the swap (ring_setup). */
	if (bytes < RING_MIN_BLOCKS * RING_BLOCK_SIZE || bytes > RING_MAX_BYTES)
		return TRACE_EINVAL;
	if (exporting)
		export_flush();	/* what was recorded goes out, not away */
	int err = swap_rings(bytes, mode);

	if (!err) {
		buf_bytes = bytes;
		buf_mode = mode;
	}
	return err;
}

int trace_profile(bool on, const char *globs)
{
	int err;

	if (!on) {
		if (profiling && !(err = trace_ops_unregister(&tracer_profile_ops)))
			profiling = false;
		return profiling ? TRACE_EBUSY : 0;
	}
	if (profiling)
		return TRACE_EBUSY;
	if ((err = trace_ops_set_filter(&tracer_profile_ops, globs ? globs : "")))
		return err;
	spin_lock(&ctl_lock);
	err = ensure_rings();	/* the exporter carries the profile dump */
	spin_unlock(&ctl_lock);
	if (err)
		return err;
	if (profile_alloc())
		return TRACE_ENOMEM;
	fgraph_reset();
	if (!(err = trace_ops_register(&tracer_profile_ops)))
		profiling = true;
	return err;
}

int trace_profile_notrace(const char *globs)
{
	return profiling ? TRACE_EBUSY : trace_ops_set_notrace(&tracer_profile_ops, globs);
}

unsigned int trace_profile_functions(void)
{
	return trace_wanted_sites(&tracer_profile_ops);
}

bool trace_profiling(void)
{
	return profiling;
}

void trace_send_metadata(void)
{
	if (exporting)
		export_start();
}

void trace_send_meta_only(void)
{
	if (exporting)
		export_meta_now();
}

void trace_end_stream(void)
{
	if (exporting)
		export_end();
	uart_flush();
}

void trace_stop_and_drain(void)
{
	if (!exporting && !profiling)
		return;	/* events, coverage and hist also set 'exporting' (trace_export_ready) */
	/* Unregistering needs an IPI round: only with interrupts on, and
	 * only if every CPU answers one now. A CPU that does not (interrupts
	 * masked) could keep the round waiting for ever: the sites then stay
	 * as they are and the rings stop recording instead (export_close;
	 * the rule is in trace/core/patch.c). Either way every round from
	 * here on is bounded. */
	bool ipi = !irq_in_interrupt() && !(read_sysreg(daif) & (1 << 7));

	if (!patch_end_of_run(ipi) && ipi) {
		trace_stop();
		trace_profile(false, NULL);
		trace_coverage(false, NULL);
		trace_hist(false, NULL, NULL);
		trace_hist_events(false, NULL);
	}
	if (profile_of(0))
		profile_send();
	if (hist_started()) {
		hist_send();
		hist_print();
	}
	if (hist_ev_specs(&(const struct hist_ev_spec *){ NULL })) {
		hist_ev_send();
		hist_ev_print();
	}
	if (coverage_reached()) {
		coverage_send();
		coverage_print();
	}
	if (!exporting || ended)
		return;
	ended = true;
	export_close();
	trace_report_totals();
}

size_t trace_buffer_bytes(bool *stop_mode)
{
	if (stop_mode)
		*stop_mode = buf_mode == RING_STOP;
	return ring_of(0) ? ring_bytes() :
	       (buf_bytes ? buf_bytes : trace_default_buffer()) / RING_BLOCK_SIZE * RING_BLOCK_SIZE;
}
