/*
 * trace/ring.h: per-CPU ring buffers of encoded records.
 *
 * Each CPU's buffer is a ring of fixed-size blocks. A block holds records
 * already encoded for the wire (docs/wire.md 2.1), delta-timed from the
 * block's base timestamp, so the exporter sends a block as one data
 * frame without decoding it. Block sequence numbers, per CPU, are the
 * frames' sequence numbers: a gap on the host means blocks were lost.
 *
 * Concurrency:
 *  - Only the owning CPU writes its ring (writer fields below). A record
 *    is written either whole with IRQ/FIQ masked (ring_write_func, the
 *    tracer fast path, which runs in a trace callback) or in two steps,
 *    ring_reserve() and ring_commit(), where the reserve step masks
 *    interrupts only while it claims space, so an interrupt may write its
 *    own records while a reservation is held (nesting is LIFO).
 *  - closed_seq says which blocks are complete: every block with a lower
 *    sequence number. It advances only when no reservation is open
 *    (nest == 0), with a release store.
 *  - rd_seq, the next block to read, is advanced by compare-and-swap by
 *    the reader after copying a block, or by an overwriting writer that
 *    takes the oldest unread block as lost. Whoever wins the CAS decides
 *    whether that block was exported or counted as lost; never both.
 */
#ifndef TRACE_RING_H
#define TRACE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RING_BLOCK_SIZE		1024		/* bytes per block, header included */
#define RING_DEFAULT_BYTES	(64 * 1024)	/* per CPU */
#define RING_MIN_BLOCKS		2
#define RING_CALLER_CACHE	256

enum ring_mode {
	RING_OVERWRITE,		/* keep the newest (flight recorder) */
	RING_STOP,		/* keep the oldest, drop new events when full */
};

struct ring_block {
	volatile uint64_t seq;	/* sequence number of what it holds now */
	uint64_t base_ts;	/* counter value the first delta is from */
	uint32_t used;		/* bytes of records in data[] */
	uint32_t events;	/* records in it (for lost accounting) */
	uint8_t data[];
};

struct ring_cpu {
	struct ring_block *mem;
	uint32_t nblocks;
	uint32_t cap;		/* bytes of data[] per block */
	enum ring_mode mode;

	/* Writer: the owning CPU only. */
	struct ring_block *cur;	/* block being filled, NULL when none */
	uint64_t wr_seq;	/* its (or the last finished one's) number */
	bool started;		/* a block has been opened */
	uint64_t last_ts;	/* timestamp of the last record written */
	uint32_t nest;		/* open reservations */
	uint64_t lost_pending;	/* lost, not yet written as a kind-6 record */
	struct {
		uint32_t site_plus1, caller;
		uint64_t seq;
	} cache[RING_CALLER_CACHE];	/* last caller per site, this block */

	/* Shared. */
	volatile uint64_t closed_seq;	/* blocks below it are complete */
	volatile uint64_t rd_seq;	/* next block to read */
	volatile uint64_t produced;	/* records written (by the owner) */
	volatile uint64_t lost;		/* events dropped or overwritten */
};

/* Allocates every online CPU's ring (thread context, tracing off).
 * 'bytes' per CPU, rounded to whole blocks. Returns 0 or -1. */
int ring_setup(size_t bytes, enum ring_mode mode);
struct ring_cpu *ring_of(unsigned int cpu);
size_t ring_bytes(void);
enum ring_mode ring_get_mode(void);

/* Function entry, IRQ/FIQ already masked (trace callbacks). */
void ring_write_func(unsigned int site, uintptr_t caller);

/* Two-step write of a record of known length: the header (kind and
 * timestamp) is written by ring_reserve, which returns where the 'len'
 * payload bytes go, or NULL if the event was dropped (counted lost). */
uint8_t *ring_reserve(unsigned int kind, unsigned int len);
void ring_commit(void);

/* Closes this CPU's partly filled block so the reader can take it, if no
 * reservation is open. Any context on the owning CPU. */
void ring_close_block(void);

/* Reader: copies the oldest complete unread block of 'cpu' (data only)
 * into buf. Returns its length, or -1 when there is none, and its
 * sequence number and base timestamp. Any CPU; callers serialise
 * readers. */
long ring_read_block(unsigned int cpu, uint8_t *buf, size_t cap,
		     uint64_t *seq, uint64_t *base_ts);
/* Closes this CPU's block if its first record is older than 'ticks'
 * (so a quiet CPU's events still reach the host). */
void ring_close_if_older(uint64_t ticks);

#endif /* TRACE_RING_H */
