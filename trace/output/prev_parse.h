/*
 * trace/output/prev_parse.h: reading what a previous boot left in the
 * region kept across resets (layout: prev.c), trusting none of it.
 *
 * A valid CRC-32 proves only that the header's bytes were written
 * together: a stale image, a bit flip during a reset or a program that
 * scribbled over the region can leave any header and any ring state.
 * So every value read from the region is checked against the region and
 * this image's layout before it is used as an offset, a count or a
 * position, and nothing outside the region is ever read. The parser is
 * pure (no kernel calls, no globals): test/fuzz/fuzz_prev.c runs it on
 * the host.
 *
 * Three verdicts, from the worst:
 *  - the header is refused: nothing else in the region is read;
 *  - one CPU's ring state is refused (it cannot be what a writer left,
 *    whenever a reset hit it): its blocks and counters are not used;
 *  - one block does not check (a reset cut it short): it is counted.
 * A ring state a reset can tear (a swap or a block switch half done)
 * is not refused: at worst its blocks do not check.
 */
#ifndef TRACE_PREV_PARSE_H
#define TRACE_PREV_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "prev_int.h"
#include "ring/ring.h"
#include "wire.h"

/* The region as the parser sees it: 'size' readable bytes, which the
 * previous boot knew at address 'base' (the pointers it kept there are
 * addresses in [base, base + size); the header says base must not
 * move, but the parser never follows one without checking it). */
struct prev_view {
	const uint8_t *bytes;
	uint64_t base, size;
};

/* Why something was refused; what == NULL when it was not. */
enum prev_why_kind {
	PREV_WHY_PLAIN,		/* "<what>" */
	PREV_WHY_FIELD,		/* "its <what> is <got>, this image's <want>" */
	PREV_WHY_VALUE,		/* "its <what> cannot be <got>" */
	PREV_WHY_IMAGE,		/* another image: got and want are hashes */
};
struct prev_why {
	const char *what;
	enum prev_why_kind kind;
	uint64_t got, want;
};

/* One CPU's ring as read and checked: what the walk may use. */
struct prev_ring {
	uint64_t mem;		/* offset of its first block in the region */
	uint32_t nblocks;	/* 0: no block of it is read */
	uint64_t lo, hi;	/* the sequence numbers it may hold: [lo, hi) */
	uint64_t cur, wr;	/* offsets of its open block and next byte;
				   cur 0 when none */
	uint64_t wr_seq;
	uint32_t cur_events;
	struct wire_prev_cpu books;	/* cpu and counters; kept, torn 0 */
};

/* The layout this image uses for a region of 'size' bytes at 'base':
 * half_bytes 0 when the region is too small for rings. */
struct prev_header prev_layout(uint64_t base, uint64_t size, uint32_t image_hash);
/* CRC-32 of a header with its crc field zero. */
uint32_t prev_header_crc(const struct prev_header *h);

/* Copies the region's header into *h (read once) and checks it against
 * 'want' (prev_layout for this region and image): every field but crc
 * and boot must be want's; crc must match; boot must be one a next boot
 * can count on from (1 up). */
struct prev_why prev_read_header(const struct prev_view *v, const struct prev_header *want,
				 struct prev_header *h);

/* Reads and checks CPU 'cpu's ring state (cpu < h->ncpus; h accepted
 * by prev_read_header for this view) into *r. */
struct prev_why prev_read_ring(const struct prev_view *v, const struct prev_header *h,
			       unsigned int cpu, struct prev_ring *r);

/* Block 'seq' of ring r if it checks, and its length in *used; NULL if
 * it does not. Its bytes lie in the view, in one of r's blocks. */
const struct ring_block *prev_block(const struct prev_view *v, const struct prev_ring *r,
				    uint64_t seq, uint32_t *used);

/* Each block of r from the oldest it may hold, in order: the ones that
 * check go to take() and are counted kept in r->books, the others torn. */
typedef void prev_take_fn(void *ctx, uint64_t seq, const struct ring_block *b, uint32_t used);
void prev_walk(const struct prev_view *v, struct prev_ring *r, prev_take_fn *take, void *ctx);

#endif /* TRACE_PREV_PARSE_H */
