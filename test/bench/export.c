/*
 * test/bench/export.c: what the exporter costs per byte on the wire.
 * A ring in stop mode is filled with EXPORT_EVENTS function events of
 * bench_fn (nothing lost), then export_flush() sends every block through
 * the real path: each block escaped onto the line from where it lies in
 * the ring, with its CRC, in one pass (wire_line_*), then the UART.
 * Under -icount the PMU counts every CPU's instructions, so the other
 * CPUs must be asleep: the idle exporter is off (they stay in WFI) and
 * only the flush's one close-the-blocks IPI round runs on them (about
 * 1,700 instructions, counted). Masked on the line (docs/wire.md 1),
 * these records' bytes need next to no escape.
 *
 * Then where the instructions go, on one more block of the same
 * records: its frame's one-pass build (export_build_insns_per_byte) and
 * its UART write under the console lock (export_uart_insns_per_byte),
 * each per byte of that frame on the line; the rest of the flush's
 * figure is each frame's fixed cost (finding and claiming the block,
 * the locks) and the metadata set that comes due every 256 blocks.
 */
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "console.h"
#include "pmu.h"
#include "output/export.h"
#include "ring/ring.h"
#include "wire.h"
#include "wire_line.h"

#define EXPORT_EVENTS	10000	/* about 40 KiB of records: fits 64 KiB */
#define PART_EVENTS	1000	/* a few blocks, for the one that is timed */

static volatile int sink;
static uint8_t block[RING_BODY_MAX];
static uint8_t line[WIRE_ESCAPED_MAX(RING_BODY_MAX + WIRE_FRAME_HEAD_MAX + WIRE_CRC_SIZE)];

static void record_events(int n)
{
	int acc = 0;

	trace_set_buffer(64 * 1024, 1);	/* empty rings, stop mode */
	trace_set_tracer("function");
	trace_set_filter("bench_fn");
	trace_start();
	for (int i = 0; i < n; i++)
		acc += bench_fn(i);
	sink = acc;
	trace_stop();
	trace_set_tracer("nop");
}

/* One block taken off this CPU's ring (its events count as discarded,
 * wire.md 2.4), built and written as send_one_block does. */
static void export_parts(void)
{
	uint64_t seq, base_ts, first;
	struct wire_line l;
	long len;

	record_events(PART_EVENTS);
	export_hold();
	len = ring_take_body(0, block, sizeof(block), &seq);
	export_release();
	int a = len > 0 ? wire_varint_get(block, (size_t)len, &base_ts) : -1;
	int b = a > 0 ? wire_varint_get(block + a, (size_t)(len - a), &first) : -1;

	if (b <= 0) {
		printf("bench: export: no block to time the parts on\n");
		return;
	}
	size_t head = (size_t)(a + b), records = (size_t)len - head;
	uint32_t t0 = (uint32_t)pmu_insns();

	wire_line_begin_block(&l, line, sizeof(line), 0, seq, base_ts, first, records);
	wire_line_add(&l, block + head, records);
	size_t e = wire_line_end(&l);
	uint32_t t1 = (uint32_t)pmu_insns();

	console_write_raw(line, e);
	uint32_t t2 = (uint32_t)pmu_insns();

	if (!e) {
		printf("bench: export: the block's frame did not build\n");
		return;
	}
	printf("\nexporter, one frame of %lu bytes on the line: build %.2f, UART %.2f insns "
	       "per wire byte\n", (unsigned long)e, (double)(t1 - t0) / e, (double)(t2 - t1) / e);
	printf("BENCH-PART export {\"export_build_insns_per_byte\": %.2f, "
	       "\"export_uart_insns_per_byte\": %.2f}\n", (double)(t1 - t0) / e,
	       (double)(t2 - t1) / e);
}

void bench_export(void)
{
	struct export_stats s0, s1;

	export_idle_enable(false);
	record_events(EXPORT_EVENTS);
	export_get_stats(&s0);
	uint32_t t0 = (uint32_t)pmu_insns();

	export_flush();
	uint32_t insns = (uint32_t)pmu_insns() - t0;

	export_get_stats(&s1);

	uint64_t bytes = s1.bytes - s0.bytes, frames = s1.frames - s0.frames;

	if (!bytes) {
		printf("bench: export: the flush sent nothing\n");
		export_idle_enable(true);
		return;
	}
	printf("\nexporter: %lu frames, %lu wire bytes for %d events: %u insns, "
	       "%.2f insns per wire byte\n", (unsigned long)frames, (unsigned long)bytes,
	       EXPORT_EVENTS, insns, (double)insns / bytes);
	printf("BENCH-PART export {\"export_insns_per_byte\": %.2f, \"export_bench_bytes\": %lu, "
	       "\"export_bench_frames\": %lu}\n", (double)insns / bytes, (unsigned long)bytes,
	       (unsigned long)frames);
	export_parts();
	export_idle_enable(true);
}
