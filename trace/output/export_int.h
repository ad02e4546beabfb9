/*
 * trace/output/export_int.h: what the exporter's own files share (export.c,
 * export_meta.c). Everything here is for the holder of the exporter's
 * lock only.
 */
#ifndef TRACE_EXPORT_INT_H
#define TRACE_EXPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "ring/ring.h"

#define EXPORT_PAYLOAD_MAX	(RING_BLOCK_SIZE + 64)	/* a frame body, at most */

/* One frame onto the UART, counted in the exporter's stats. */
void export_send(unsigned int type, unsigned int cpu, uint64_t seq,
		 const uint8_t *b, size_t len);
/* The metadata set; returns the frames it took. */
unsigned int export_send_meta(void);
/* The symbol dump. */
void export_send_symbols(void);

#endif /* TRACE_EXPORT_INT_H */
