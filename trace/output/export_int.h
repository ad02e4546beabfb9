/*
 * trace/output/export_int.h: what the exporter's own files share (export.c,
 * export_meta.c, export_close.c). Unless said otherwise, for the holder
 * of the exporter's lock only.
 */
#ifndef TRACE_EXPORT_INT_H
#define TRACE_EXPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring/ring.h"

#define EXPORT_PAYLOAD_MAX	(RING_BLOCK_SIZE + 64)	/* a frame body, at most */

/* One frame onto the UART, counted in the exporter's stats. */
bool export_send(unsigned int type, unsigned int cpu, uint64_t seq,
		 const uint8_t *b, size_t len);
/* The image hash (wire.md 2.2: the CRC of .bt_tables), computed once.
 * Any CPU, any context, lock or none. */
uint32_t export_image_hash(void);
/* The metadata set; returns the frames it took. */
unsigned int export_send_meta(void);
/* The symbol dump. */
void export_send_symbols(void);
/* True if 'cpu' stopped for good (smp_stop_others): it runs no more. */
bool export_cpu_stopped(unsigned int cpu);
/* Closes every CPU's current block, waiting at most 'us'; with 'final'
 * the rings end first (export_close.c). Any lock holder or none. */
void export_close_all(bool final, uint64_t us);

#endif /* TRACE_EXPORT_INT_H */
