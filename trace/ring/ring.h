/*
 * trace/ring/ring.h: per-CPU ring buffers of encoded records.
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
 *  - One reader at a time, and who it is: the exporter's lock
 *    (export.h) serialises readers. The exporter takes it to send; any
 *    other reader (a test or check that counts what it reads) holds it
 *    with export_hold() from before its ring_setup until its last read,
 *    or an idle CPU sends the blocks it expects (they count as
 *    exported: neither read by it nor lost).
 */
#ifndef TRACE_RING_H
#define TRACE_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ring_ts.h"

#define RING_BLOCK_SIZE		1024		/* bytes per block, header included */
/* Per CPU, unless trace_buf= says: 1/RING_RAM_SHARE of the RAM the DTB
 * reports, split over the CPUs, within [RING_DEFAULT_MIN, RING_MAX_BYTES]
 * (trace_default_buffer, trace/control/control.c). */
#define RING_RAM_SHARE		16
#define RING_DEFAULT_MIN	(64 * 1024)
#define RING_MAX_BYTES		(64UL << 20)	/* the largest trace_buf= */
#define RING_MIN_BLOCKS		2
#define RING_CALLER_CACHE	256
#define RING_FRAME_BODY_MAX	(RING_BLOCK_SIZE + 16)	/* largest frame body sent */
#define RING_FUNC_RECORD_MAX	21	/* header, delta, site, caller */
#define RING_GRAPH_POS_BITS	16	/* graph_open's count: <= 255 a block */
/* Room wr_fast_end leaves: at least the largest record a fast path writes,
 * a graph exit without a return value (header 1 + delta 10, site 2,
 * duration 10, flags 1), so none of them adds a margin of its own. */
#define RING_FAST_ROOM		27

enum ring_mode {
	RING_OVERWRITE,		/* keep the newest (flight recorder) */
	RING_STOP,		/* keep the oldest, drop new events when full */
};

struct ring_block {
	volatile uint64_t seq;	/* sequence number of what it holds now */
	uint64_t base_ts;	/* counter value the first delta is from */
	uint64_t first;		/* number of its first event (wire.md 2.8) */
	uint32_t used;		/* bytes of records in data[], set when the
				   block is left (the writer uses wr) */
	uint32_t events;	/* records in it (for lost accounting) */
	uint64_t check;		/* ring_block_check() once left, 0 while
				   open: a block that a reset cut short
				   does not check (prev.c) */
	uint8_t data[];
};

/*
 * A block's check: its head and its records folded together, cheap
 * enough for the writer to compute once per block: two sums of the
 * records' 64-bit words (even and odd ones, 32 bytes a step: a little
 * over two instructions per 8 bytes, about one per event), mixed with
 * the head. Any one changed word changes it, so it finds a block left
 * half written or half reused by a reset, or lost cache lines; it is no
 * defence against a deliberate change. Never 0.
 */
static inline uint64_t ring_block_check(const struct ring_block *b)
{
	const uint64_t *w = (const uint64_t *)(const void *)b->data;
	uint32_t n = b->used;
	uint64_t even = b->seq, odd = b->base_ts ^ ((uint64_t)n << 32 | b->events);

	for (; n >= 32; n -= 32, w += 4) {
		even += w[0];
		odd += w[1];
		even += w[2];
		odd += w[3];
	}
	for (const uint8_t *p = (const uint8_t *)w; n; n--)
		even += (uint64_t)*p++ << (8 * (n & 7));
	return ((even * 0x9e3779b97f4a7c15ULL) ^ (odd * 0xc2b2ae3d27d4eb4fULL) ^ b->first) | 1;
}

struct ring_cpu {
	struct ring_block *mem;
	uint32_t nblocks;
	uint32_t cap;		/* bytes of data[] per block */
	enum ring_mode mode;
	uint64_t seq_base;	/* sequence number of this memory's first block */

	/* Writer: the owning CPU only. One STP commits ts_events, wr. */
	union {
		uint64_t ts_events;	/* last record's time, cur_events: ring_ts.h */
		uint16_t cur_events;	/* events in cur so far (the low bits) */
	};
	uint8_t *wr;		/* next free byte in cur (NULL with it) */
	uint8_t *wr_fast_end;	/* a record of RING_FAST_ROOM bytes fits
				   while wr < this (one LDP with wr) */
	struct ring_block *cur;	/* block being filled, NULL when none */
	uint64_t cache_used;	/* nonzero once cache[] was written in this
				   block: the next block clears it */
	uint64_t wr_seq;	/* its (or the last finished one's) number */
	bool started;		/* a block has been opened */
	uint64_t graph_open;	/* the reader's open graph entries (wire.md 2.1): (block
				   + 1) << RING_GRAPH_POS_BITS | count (fgraph.h: key) */
	uint32_t nest;		/* open reservations */
	uint64_t resv_seq;	/* block of the outermost open reservation */
	uint64_t lost_pending;	/* lost, not yet written (kind 7 subtype 7) */
	/* Totals since tracing started; they survive ring_setup, like the
	 * sequence numbers, so every event is accounted for once:
	 * produced = exported + overwritten + dropped + discarded + still
	 * in the ring. */
	uint64_t stored_done;	/* events in blocks already left */
	uint64_t dropped;	/* events never stored (stop mode, full) */
	uint64_t overwritten;	/* events in blocks reused unread */
	uint64_t discarded;	/* events thrown away by ring_setup */
	/* Last caller per site slot in the current block: one key of
	 * caller address << 16 | site (exact: addresses are below 2^48,
	 * and never 0, as a return address is not). Cleared when a block
	 * opens, as the host's decoder forgets callers at each block. */
	uint64_t cache[RING_CALLER_CACHE];

	/* Shared. */
	volatile uint64_t closed_seq;	/* blocks below it are complete */
	volatile uint64_t rd_seq;	/* next block to read */
	uint64_t exported;		/* events in blocks read and sent
					   or taken (readers, serialised
					   by their callers) */
	uint64_t taken;			/* of those, read by the target
					   itself (ring_take_body), never
					   sent: discarded in the totals */

	/* A new memory waiting for this CPU (ring_setup): set by the
	 * requester, applied by the owner when no reservation is open (in
	 * the requester's IPI, or by ring_commit), then swap_pending is
	 * cleared with a release store and the old memory handed back. */
	struct ring_block *new_mem, *old_mem;
	uint32_t new_nblocks;
	enum ring_mode new_mode;
	volatile bool swap_pending;
};

/* The block that holds sequence number 'seq' (now or once). */
static inline struct ring_block *ring_block_at(const struct ring_cpu *r, uint64_t seq)
{
	return (struct ring_block *)((uint8_t *)r->mem +
				     (size_t)(seq % r->nblocks) * RING_BLOCK_SIZE);
}

/* Events this CPU tried to record: stored ones plus dropped ones. */
static inline uint64_t ring_produced(const struct ring_cpu *r)
{
	return r->stored_done + (r->cur ? r->cur_events : 0) + r->dropped;
}

/*
 * Gives every online CPU a new, empty ring of 'bytes' (whole blocks),
 * discarding (and counting) what the old one still held. Safe while
 * every CPU writes: each CPU switches its own ring in an IPI, or at its
 * next ring_commit if it holds a reservation then, and the old memory is
 * freed once all have switched. The memory, and the rings' own state,
 * are in the region kept across resets when it has room (prev.h), else
 * on the heap. Readers must be held off by the caller
 * (the exporter's lock). Thread context, interrupts on. 0, or -1 with
 * nothing changed (no memory) or -2 (a CPU did not switch in time; its
 * old memory is kept, not freed).
 */
int ring_setup(size_t bytes, enum ring_mode mode);
/*
 * Where ring_setup takes memory besides the heap: the RAM kept across
 * resets, offered by the previous-boot layer above (prev_region.c), which
 * hands it here at boot before any ring exists (trace/LAYERS: the rings
 * never name it). rings(): the region's ring_cpu array, or NULL; mem():
 * 'total' bytes for rings in the region, or NULL; holds(): whether p is
 * such memory (never freed).
 */
struct ring_kept_mem {
	struct ring_cpu *(*rings)(void);
	void *(*mem)(size_t total, const struct ring_cpu *rings, unsigned int n);
	bool (*holds)(const void *p);
};
void ring_set_kept_mem(const struct ring_kept_mem *k);
/*
 * The rings and the exporter made to exist, by the control layer's
 * function (registered once at boot, before KINIT_LATE), for the layers
 * between it and the rings that need them on their own: tracepoints
 * enabled without a tracer, the previous boot's blocks. 0 or
 * TRACE_ENOMEM. Thread context.
 */
void ring_set_ready_hook(int (*fn)(void));
int ring_make_ready(void);
struct ring_cpu *ring_of(unsigned int cpu);
/* Switches r to its pending memory (ring_swap.c): its owner, interrupts
 * masked, outside any reservation (ring_commit calls it). */
void ring_swap_now(struct ring_cpu *r, unsigned int cpu);
size_t ring_bytes(void);
enum ring_mode ring_get_mode(void);

/* Function entry, IRQ/FIQ already masked (trace callbacks). */
void ring_write_func(unsigned int site, uintptr_t caller);
/* The slow part of a write: opens the next block. false: the event is
 * dropped (stop mode, ring full) and counted. */
bool ring_next_block(struct ring_cpu *r, uint64_t now);
/* ring_put_func when the current block is full or there is none. */
void ring_put_func_slow(struct ring_cpu *r, unsigned int site,
			uintptr_t caller, uint64_t now);

static inline uint8_t *ring_put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A graph record's site: two bytes, little-endian (wire.md 2.2). */
static inline uint8_t *ring_put_site(uint8_t *p, unsigned int site)
{
	p[0] = (uint8_t)site;
	p[1] = (uint8_t)(site >> 8);
	return p + 2;
}

static inline unsigned int ring_varint_len(uint64_t v)
{
	unsigned int n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

/* The bytes of a record header for 'delta', and the header itself. */
static inline uint8_t *ring_put_header(uint8_t *p, unsigned int kind, uint64_t delta)
{
	if (__builtin_expect(delta < 31, 1)) {
		*p++ = (uint8_t)(kind << 5 | delta);
		return p;
	}
	*p++ = (uint8_t)(kind << 5 | 31);
	return ring_put_varint(p, delta);
}

/*
 * Room for 'max' bytes in this CPU's current block, inline: the start
 * of the record, or NULL to take the slow path (ring_reserve). Interrupts
 * masked; nothing is claimed until ring_put_done.
 */
static inline uint8_t *ring_put_begin(struct ring_cpu *r, unsigned int max)
{
	uint8_t *p = r->wr;

	return __builtin_expect(p && p + max <= r->cur->data + r->cap &&
				r->wr_fast_end, 1) ? p : NULL;
}

static inline void ring_put_done(struct ring_cpu *r, uint8_t *end, uint64_t now)
{
	r->wr = end;
	r->ts_events = ring_ts_make(now, r->cur_events);
	r->cur_events++;
}

/*
 * The function tracer's record, inline in its callback: one header
 * byte (kind 0 or 1, delta), then for a kind 1 the site and the caller,
 * for a kind 0 (this site's caller slot holds this site and caller: the
 * block had a kind 1 of both since the slot last changed) the slot, one
 * byte, whatever the site's number (wire.md 2.2). Interrupts masked; r
 * is this CPU's ring. 'caller' is the traced function's return address,
 * 'now' is CNTVCT. trace/tracers/rec_function.S writes the same bytes.
 */
static inline void ring_put_func(struct ring_cpu *r, unsigned int site,
				 uintptr_t caller, uint64_t now)
{
	extern char _text[];	/* kernel/cpu/mmu.h */
	uint8_t *p = r->wr;

	/* A tail call, so the fast path stays a leaf with no spills. With
	 * no current block wr and wr_fast_end are both NULL. */
	if (__builtin_expect(!(p < r->wr_fast_end), 0))
		return ring_put_func_slow(r, site, caller, now);
	uint64_t delta = ring_ts_delta(r->ts_events, now);
	uint64_t key = (uint64_t)caller << 16 | site;
	uint64_t *slot = &r->cache[site & (RING_CALLER_CACHE - 1)];
	unsigned int kind = *slot == key ? 0 : 1;	/* WIRE_REC_FUNC(_CALLER) */

	r->ts_events = ring_ts_make(now, r->cur_events);
	if (__builtin_expect(delta < 31, 1)) {
		*p++ = (uint8_t)(kind << 5 | delta);
	} else {
		*p++ = (uint8_t)(kind << 5 | 31);
		p = ring_put_varint(p, delta);
	}
	if (__builtin_expect(!kind, 1)) {
		*p++ = (uint8_t)site;	/* the slot: site % RING_CALLER_CACHE */
	} else {
		/* The caller in 4-byte units from _text (wire.md 2.2). */
		p = ring_put_varint(p, site);
		p = ring_put_varint(p, (caller - (uintptr_t)_text) >> 2);
		*slot = key;
		r->cache_used = key;
	}
	r->wr = p;
	r->cur_events++;
}

/* Two-step write of a record of known length: the header (kind and
 * timestamp) is written by ring_reserve, which returns where the 'len'
 * payload bytes go, or NULL if the event was dropped (counted lost).
 * The record's time is the counter when ring_reserve runs. */
uint8_t *ring_reserve(unsigned int kind, unsigned int len);
/* The same with the record's time given: 'now', the counter value the
 * event was taken at. A record of an event that was timed before it was
 * written (a graph entry, whose frame holds the call time; an exit,
 * whose duration ends at 'now') must carry that time, or its time and
 * the duration disagree by however long the slow path took. 'now' must
 * have been read with interrupts masked since, so no record of this CPU
 * is later than it. */
uint8_t *ring_reserve_at(unsigned int kind, unsigned int len, uint64_t now);
void ring_commit(void);

/* Pauses or resumes recording on every CPU (triggers traceoff/on);
 * while paused, writes are refused and not counted. Any context. */
extern volatile bool ring_paused;
void ring_pause(bool on);

/* Closes this CPU's partly filled block so the reader can take it, if no
 * reservation is open. Any context on the owning CPU. */
void ring_close_block(void);
/* The same for a CPU that was stopped for good (a crash): it writes no
 * more, so another CPU may close its block. */
void ring_close_block_of(unsigned int cpu);
/* The end of a run, a CPU that answers no interrupt: a value that
 * changes with every write of its ring ('mark'), and the close of its
 * open block from this CPU, done only if it made none since 'mark' was
 * taken after ring_end (ring.c says why that is safe). True when its
 * ring is closed. */
uint64_t ring_writer_mark(unsigned int cpu);
bool ring_close_stuck(unsigned int cpu, uint64_t mark);
/* No block open and no reservation held ('cpu' stopped, or after its
 * ring_close_block with recording paused). */
bool ring_is_closed(unsigned int cpu);
/* The end of the run: recording stops for good (ring_pause(false) no
 * longer resumes it), so the totals stop moving. */
void ring_end(void);

/* Reader (any CPU, holding the exporter's lock): ring_peek shows the
 * oldest complete unread block of 'cpu' in place, claiming nothing; an
 * overwriting writer takes a block (moves rd_seq) before it writes into
 * it, so what was read counts only if ring_claim then says true (else
 * peek again). Its events count as exported once sent (ring_mark_sent):
 * a reader stopped in between (a crash) leaves them lost on the target. */
struct ring_view {
	const uint8_t *data;	/* the records, 'len' bytes */
	size_t len;
	uint64_t seq, base_ts, first;	/* base_ts, first: wire.md 2.1 */
	uint32_t events;
};
bool ring_peek(unsigned int cpu, struct ring_view *v);
bool ring_claim(unsigned int cpu, const struct ring_view *v);
void ring_mark_sent(unsigned int cpu, uint32_t events);
/* A reader on the target that keeps what it reads (a test or check of
 * the rings' contents): the oldest block copied into buf as a data frame
 * body (wire.md 2.1: base_ts, first, records) and claimed; its length,
 * or -1 when there is none, and its sequence number. It is never sent,
 * so its events count as discarded in the totals (wire.md 2.4), not as
 * lost on the wire. */
long ring_take_body(unsigned int cpu, uint8_t *buf, size_t cap, uint64_t *seq);
#define RING_BODY_MAX	(RING_BLOCK_SIZE + 20)	/* what ring_take_body may write */

/* One CPU's totals (wire.md 2.4), read with writers and readers quiet. */
struct ring_totals {
	uint64_t produced, overwritten, dropped, discarded, in_ring, blocks;
};
void ring_get_totals(unsigned int cpu, struct ring_totals *t);
/* Closes this CPU's block if its first record is older than 'ticks'
 * (so a quiet CPU's events still reach the host). */
void ring_close_if_older(uint64_t ticks);

#endif /* TRACE_RING_H */
