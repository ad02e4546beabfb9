/*
 * trace/control.c: starting and stopping tracing from boot arguments.
 *
 *   trace=function            the tracer to start before main()
 *   trace_filter=demo_*,...   its filter (globs; see baretrace_trace.h)
 *   trace_notrace=...         functions it must leave alone
 *   trace_buf=64K             ring buffer per CPU (whole KiB blocks)
 *   trace_mode=overwrite|stop keep the newest or the oldest when full
 *   trace_pace=115200         export no faster than this baud rate
 */
#include <string.h>

#include "bootargs.h"
#include "core.h"
#include "export.h"
#include "irq.h"
#include "ktime.h"
#include "kprintf.h"
#include "percpu.h"
#include "ring.h"
#include "smp.h"
#include "tracer.h"

#define CLOSE_AFTER_TICKS_DIV	10	/* close a block after 1/10 s */

/* Written by the parameter setters at boot, before any CPU traces. */
static const char *boot_tracer, *boot_filter = "", *boot_notrace = "";
static unsigned long boot_buf = RING_DEFAULT_BYTES;
static enum ring_mode boot_mode = RING_OVERWRITE;
static unsigned long boot_pace;
static struct trace_ops *active;

static int param_trace(const char *v)
{
	if (strcmp(v, "function") && strcmp(v, "nop"))
		return -1;
	boot_tracer = v;
	return 0;
}
KERNEL_PARAM("trace", param_trace, "tracer to start at boot: function, nop");

static int param_filter(const char *v)
{
	boot_filter = v;
	return 0;
}
KERNEL_PARAM("trace_filter", param_filter, "functions to trace (globs)");

static int param_notrace(const char *v)
{
	boot_notrace = v;
	return 0;
}
KERNEL_PARAM("trace_notrace", param_notrace, "functions not to trace (globs)");

static int param_buf(const char *v)
{
	unsigned long n;

	if (bootargs_parse_ulong(v, &n) || n < RING_MIN_BLOCKS * RING_BLOCK_SIZE ||
	    n > (64UL << 20))
		return -1;
	boot_buf = n;
	return 0;
}
KERNEL_PARAM("trace_buf", param_buf, "ring buffer bytes per CPU (2K-64M)");

static int param_mode(const char *v)
{
	if (!strcmp(v, "overwrite"))
		boot_mode = RING_OVERWRITE;
	else if (!strcmp(v, "stop"))
		boot_mode = RING_STOP;
	else
		return -1;
	return 0;
}
KERNEL_PARAM("trace_mode", param_mode, "when full: overwrite (newest) or stop (oldest)");

static int param_pace(const char *v)
{
	unsigned long n;

	if (bootargs_parse_ulong(v, &n) || n > 100000000)
		return -1;
	boot_pace = n;
	return 0;
}
KERNEL_PARAM("trace_pace", param_pace, "export at most this many baud (0 = as fast as possible)");

static void trace_tick(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	ring_close_if_older(time_counter_hz() / CLOSE_AFTER_TICKS_DIV);
	if (cpu == 0)
		export_tick();
}

void trace_boot_start(void)
{
	if (!boot_tracer || !strcmp(boot_tracer, "nop"))
		return;
	if (ring_setup(boot_buf, boot_mode)) {
		kprintf("trace: no memory for %lu bytes of ring buffer per CPU\n", boot_buf);
		return;
	}
	export_set_pace((uint32_t)boot_pace);
	active = &tracer_function_ops;
	if (trace_ops_set_filter(active, boot_filter) ||
	    trace_ops_set_notrace(active, boot_notrace)) {
		kprintf("trace: bad filter '%s' or notrace '%s'; not tracing\n",
			boot_filter, boot_notrace);
		active = NULL;
		return;
	}
	export_start();
	time_tick_hook(trace_tick);
	smp_set_idle_hook(export_idle);
	int err = trace_ops_register(active);

	kprintf("trace: %s tracer on %u sites, %lu KiB per CPU, %s mode%s\n", boot_tracer,
		trace_wanted_sites(active), ring_bytes() / 1024,
		boot_mode == RING_STOP ? "stop" : "overwrite", err ? " (FAILED)" : "");
}

bool trace_active(void)
{
	return active != NULL;
}

int trace_set_buffer(size_t bytes, int stop_mode)
{
	struct trace_ops *was = active;
	enum ring_mode mode = stop_mode ? RING_STOP : RING_OVERWRITE;

	if (bytes < RING_MIN_BLOCKS * RING_BLOCK_SIZE || bytes > (64UL << 20))
		return -1;
	if (was) {
		trace_ops_unregister(was);	/* no CPU writes after this */
		export_drain();
	}
	int err = ring_setup(bytes, mode);

	if (!err) {
		boot_buf = bytes;
		boot_mode = mode;
	}
	if (was && ring_of(0))
		trace_ops_register(was);
	return err;
}

void trace_send_metadata(void)
{
	export_start();
}

void trace_end_stream(void)
{
	if (ring_of(0))
		export_end();
}

void trace_stop_and_drain(void)
{
	if (!active)
		return;
	/* Unregistering needs an IPI round: only with interrupts on. */
	if (!irq_in_interrupt() && !(read_sysreg(daif) & (1 << 7)))
		trace_ops_unregister(active);
	active = NULL;
	export_drain();

	/* The totals a benchmark or a CI log can read. */
	uint64_t events = 0, lost = 0;
	struct export_stats es;

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		struct ring_cpu *r = ring_of(c);

		if (r) {
			events += ring_produced(r);
			lost += r->lost;
		}
	}
	export_get_stats(&es);
	kprintf("trace: %lu events, %lu lost, %lu frames, %lu wire bytes, "
		"%lu data blocks\n", (unsigned long)events, (unsigned long)lost,
		(unsigned long)es.frames, (unsigned long)es.bytes, (unsigned long)es.blocks);
}
