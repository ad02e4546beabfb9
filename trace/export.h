/*
 * trace/export.h: sending ring buffer blocks, metadata and symbols to the
 * host as frames on the console UART (docs/wire.md).
 *
 * export_poll() runs from CPU 0's timer tick (interrupt context) and
 * sends complete blocks within a byte budget per tick: unlimited by
 * default (QEMU's UART is instant), or what a given baud rate carries
 * (kernel parameter trace_pace=BAUD) to reproduce a real serial line's
 * losses. It never waits for a lock: if another CPU is exporting, it
 * returns. export_drain() is the final flush at power-off.
 */
#ifndef TRACE_EXPORT_H
#define TRACE_EXPORT_H

#include <stdint.h>

void export_start(void);		/* metadata and symbol frames */
void export_poll(void);			/* tick: send what the budget allows */
void export_drain(void);		/* close and send every block */
void export_end(void);			/* the end-of-stream frame: last */
void export_set_pace(uint32_t baud);	/* 0 = unlimited */

struct export_stats {
	uint64_t frames, bytes, blocks, meta_frames;
};
void export_get_stats(struct export_stats *out);

#endif /* TRACE_EXPORT_H */
