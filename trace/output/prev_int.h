/*
 * trace/output/prev_int.h: what prev.c (reading the previous boot) and
 * prev_region.c (this boot's region) share: the region's header and how
 * this image lays the region out.
 */
#ifndef TRACE_PREV_INT_H
#define TRACE_PREV_INT_H

#include <stdint.h>

#define PREV_MAGIC	0x3130564552505442ULL	/* "BTPREV01", little-endian */
#define PREV_LAYOUT	1			/* of this file's region */
#define HEAD_BYTES	4096UL

struct prev_header {
	uint64_t magic;
	uint32_t layout;	/* PREV_LAYOUT */
	uint32_t crc;		/* CRC-32 of this header with crc = 0 */
	uint64_t base, size;	/* where the region was: it must not move */
	uint32_t image_hash;	/* CRC-32 of .bt_tables, as in the metadata */
	uint32_t ncpus;		/* ring_cpu entries */
	uint64_t boot;		/* boots since the region was first written */
	uint32_t ring_cpu_bytes, block_bytes;	/* the layout of what follows */
	uint64_t rings_off, data_off, half_bytes;
};

/* The layout this image uses for a region of 'size' bytes at 'base'
 * (prev_layout with this image's hash; the checks: prev_parse.h). */
struct prev_header prev_layout_for(uint64_t base, uint64_t size);

#endif /* TRACE_PREV_INT_H */
