/*
 * test/bench/export.c: what the exporter costs per byte on the wire.
 * A ring in stop mode is filled with EXPORT_EVENTS function events of
 * bench_fn (nothing lost), then export_flush() sends every block through
 * the real path: block copy, frame build and CRC, escaping, the UART.
 * Under -icount the PMU counts every CPU's instructions, so the other
 * CPUs must be asleep: the idle exporter is off (they stay in WFI) and
 * only the flush's one close-the-blocks IPI round runs on them (about
 * 1,700 instructions, counted). The records are a hard case for the
 * escaper: every fourth one has a 03 byte, one byte in eight escaped.
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"
#include "output/export.h"
#include "ring/ring.h"

#define EXPORT_EVENTS	10000	/* about 40 KiB of records: fits 64 KiB */

static volatile int sink;

void bench_export(void)
{
	struct export_stats s0, s1;
	int acc = 0;

	export_idle_enable(false);
	trace_set_buffer(64 * 1024, 1);	/* empty rings, stop mode */
	trace_set_tracer("function");
	trace_set_filter("bench_fn");
	trace_start();
	for (int i = 0; i < EXPORT_EVENTS; i++)
		acc += bench_fn(i);
	sink = acc;
	trace_stop();
	trace_set_tracer("nop");

	export_get_stats(&s0);
	uint32_t t0 = (uint32_t)pmu_insns();

	export_flush();
	uint32_t insns = (uint32_t)pmu_insns() - t0;

	export_get_stats(&s1);
	export_idle_enable(true);

	uint64_t bytes = s1.bytes - s0.bytes, frames = s1.frames - s0.frames;

	if (!bytes) {
		printf("bench: export: the flush sent nothing\n");
		return;
	}
	printf("\nexporter: %lu frames, %lu wire bytes for %d events: %u insns, "
	       "%.2f insns per wire byte\n", (unsigned long)frames, (unsigned long)bytes,
	       EXPORT_EVENTS, insns, (double)insns / bytes);
	printf("BENCH-PART export {\"export_insns_per_byte\": %.2f, \"export_bench_bytes\": %lu, "
	       "\"export_bench_frames\": %lu}\n", (double)insns / bytes, (unsigned long)bytes,
	       (unsigned long)frames);
}
