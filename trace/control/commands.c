/*
 * trace/control/commands.c: console commands of the trace core (the shell is in
 * kernel/shell/shell.c). Each checks its whole line before changing anything.
 */
#include <string.h>

#include "bootargs.h"
#include "output/export.h"
#include "kprintf.h"
#include "percpu.h"
#include "ring/ring.h"
#include "shell.h"
#include "tracers/tracer.h"
#include "control.h"
#include "output/output.h"

static int cmd_dump(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return shell_usage("dump", "takes no arguments");
	trace_dump();
	return 0;
}
SHELL_CMD(dump, cmd_dump, "", "print the trace buffers as text");

/* What the rings are, or will be once tracing first starts: before
 * that they do not exist and ring_bytes() is only the default. */
static void buffer_show(void)
{
	bool stop;
	unsigned long size = trace_buffer_bytes(&stop);

	kprintf("buffer: %lu KiB per CPU, %s mode\n", size / 1024, stop ? "stop" : "overwrite");
}

static int cmd_buffer(int argc, char **argv)
{
	unsigned long size;
	bool stop;

	trace_buffer_bytes(&stop);
	if (argc == 1) {
		buffer_show();
		return 0;
	}
	if (argc > 3)
		return shell_usage("buffer", "too many arguments");
	if (bootargs_parse_ulong(argv[1], &size))
		return shell_usage("buffer", "SIZE is a number with an optional K or M");
	if (size < RING_MIN_BLOCKS * RING_BLOCK_SIZE || size > (64UL << 20))
		return shell_usage("buffer", "SIZE must be from 2K to 64M");
	if (argc == 3) {
		if (!strcmp(argv[2], "stop"))
			stop = true;
		else if (!strcmp(argv[2], "overwrite"))
			stop = false;
		else
			return shell_usage("buffer", "the mode is 'overwrite' or 'stop'");
	}
	if (trace_set_buffer(size, stop)) {
		kprintf("buffer: not enough memory for %lu bytes per CPU; unchanged\n", size);
		return 1;
	}
	buffer_show();
	return 0;
}
SHELL_CMD(buffer, cmd_buffer, "[SIZE [overwrite|stop]]", "show or set the ring buffers");

static int cmd_meta(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return shell_usage("meta", "takes no arguments");
	trace_send_metadata();
	return 0;
}
SHELL_CMD(meta, cmd_meta, "", "send metadata and symbol frames to the host");

static int cmd_stats(int argc, char **argv)
{
	struct trace_patch_stats ps;
	struct export_stats es;

	(void)argv;
	if (argc != 1)
		return shell_usage("stats", "takes no arguments");
	trace_patch_stats(&ps);
	export_get_stats(&es);
	kprintf("patcher: %lu batches, %lu sites patched, %lu sync rounds, %lu refused\n",
		(unsigned long)ps.batches, (unsigned long)ps.sites,
		(unsigned long)ps.rounds, (unsigned long)ps.refused);
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		struct ring_cpu *r = ring_of(c);
		struct ring_totals t;

		ring_get_totals(c, &t);
		if (r)
			kprintf("ring %u: %lu events, %lu lost, next block %lu, read up to %lu\n",
				c, (unsigned long)t.produced,
				(unsigned long)(t.overwritten + t.dropped + t.discarded),
				(unsigned long)r->wr_seq, (unsigned long)r->rd_seq);
	}
	kprintf("export: %lu frames, %lu bytes, %lu data blocks, %lu metadata frames\n",
		(unsigned long)es.frames, (unsigned long)es.bytes,
		(unsigned long)es.blocks, (unsigned long)es.meta_frames);
	return 0;
}
SHELL_CMD(stats, cmd_stats, "", "counters of the patcher, ring buffers and exporter");
