/*
 * trace/output/export.h: sending ring buffer blocks, metadata and symbols to the
 * host as frames on the console UART (docs/wire.md).
 *
 * Frames go out in idle time: export_idle() runs on idle secondary CPUs
 * whenever they wake (every tick at least), in thread context, so the
 * polled UART writes never spin inside traced code or an interrupt.
 * With a single CPU there is no idle time and CPU 0's tick sends
 * instead. export_tick() (CPU 0's tick) grows the byte budget: unlimited
 * by default (QEMU's UART is instant), or what a given baud rate carries
 * (kernel parameter trace_pace=BAUD) to reproduce a real serial line's
 * losses. Senders never wait for a lock: if another CPU is exporting,
 * they return. export_close() and export_end() end a run.
 */
#ifndef TRACE_EXPORT_H
#define TRACE_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void export_start(void);		/* metadata and symbol frames */
void export_meta_now(void);		/* the metadata set alone (a new probe's schema) */
void export_tick(void);			/* CPU 0's tick: budget (and 1-CPU send) */
bool export_idle(void);			/* idle CPUs: a few frames, if no work */
/* Idle CPUs export or not; returns the previous setting. */
bool export_idle_enable(bool on);
void export_flush(void);		/* close every CPU's block, send them all */
/* Keep every exporter out (ring_setup swaps rings under it), and let
 * them back. Thread context. Anyone but the exporter that reads the
 * rings (ring_take_body: tests, checks) holds it for as long as it
 * reads: the rings have one reader at a time, and an idle CPU would
 * otherwise send (and count as exported) blocks that reader expects. */
void export_hold(void);
void export_release(void);
bool export_held(void);		/* this CPU holds it (export_hold or sending) */
/* The end of a run: recording stops for good, every other exporter is
 * kept out (a stopped one loses the lock), every ring is closed and
 * sent. Then export_end(): the end-of-stream frame with each CPU's
 * totals (wire.md 2.4), and a wait until the UART sent its last bit. */
void export_close(void);
void export_end(void);
/* How the run ended (enum run_outcome, main()'s status for an exit), for
 * the end-of-stream frame (wire.md 2.4); before export_end. */
void export_set_outcome(unsigned int outcome, int status);
void export_set_pace(uint32_t baud);	/* 0 = unlimited */
/* Any one frame (profile dumps); the body is copied before it returns. */
void export_frame(unsigned int type, unsigned int cpu, uint64_t seq,
		  const uint8_t *body, size_t len);

struct export_stats {
	uint64_t frames, bytes, blocks, meta_frames;
};
void export_get_stats(struct export_stats *out);

#endif /* TRACE_EXPORT_H */
