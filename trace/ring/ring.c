/* trace/ring/ring.c: per-CPU ring buffers, the writing side (see ring.h
 * for the rules; their memory and its swap: ring_swap.c). */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "ktime.h"
#include "mmu.h"
#include "percpu.h"
#include "smp.h"
#include "ring.h"
#include "wire.h"

#define FUNC_RECORD_MAX	(1 + 10 + 5 + 5)	/* header, delta, site, caller */
#define LOST_RECORD_MAX	(1 + 2 + 10)

static uint8_t *put_header(uint8_t *p, unsigned int kind, uint64_t delta)
{
	if (delta < WIRE_DELTA_ESCAPE) {
		*p++ = (uint8_t)(kind << 5 | delta);
		return p;
	}
	*p++ = (uint8_t)(kind << 5 | WIRE_DELTA_ESCAPE);
	return ring_put_varint(p, delta);
}

/* Records the current block's length and events as final. */
static void leave_block(struct ring_cpu *r)
{
	if (!r->cur)
		return;
	r->cur->used = (uint32_t)(r->wr - r->cur->data);
	r->cur->events = r->cur_events;
	r->cur->check = ring_block_check(r->cur);
	r->stored_done += r->cur_events;
}

volatile bool ring_paused;

/*
 * Opens the inline path (ring_put_func and the recorders in assembly,
 * which read wr_fast_end, never ring_paused) up to the end of the
 * current block, unless recording is paused. The owner only.
 *
 * Pairs with ring_pause, which stores ring_paused, then (after a
 * barrier) NULL into every wr_fast_end. Here the order is the reverse:
 * store wr_fast_end, full barrier, load ring_paused. Whichever way the
 * two CPUs interleave, the path ends closed: either this load sees the
 * pause and closes it again, or this store came before the pauser's
 * NULL (the load came before the pauser's flag store, which precedes its
 * NULL store), so the NULL wins. Without the re-check, a pause landing
 * between a slow path's read of ring_paused and this store left the
 * path open for the whole block, about 300 events during a traceoff.
 */
static void open_fast_path(struct ring_cpu *r)
{
	WRITE_ONCE(r->wr_fast_end, r->cur->data + r->cap - RING_FAST_ROOM);
	dmb_ish();	/* the store above before the load of ring_paused below */
	if (READ_ONCE(ring_paused))
		WRITE_ONCE(r->wr_fast_end, NULL);
}

/* Forgets every caller (a new block): stores of zero pairs, since the
 * kernel's memset writes one word a step and this runs per block. */
static void clear_caller_cache(struct ring_cpu *r)
{
	for (uint64_t *c = r->cache; c < r->cache + RING_CALLER_CACHE; c += 8)
		__asm__ volatile("stp xzr, xzr, [%0]\n\tstp xzr, xzr, [%0, #16]\n\t"
				 "stp xzr, xzr, [%0, #32]\n\tstp xzr, xzr, [%0, #48]"
				 : : "r"(c) : "memory");
	r->cache_used = 0;
}

/*
 * Starts the next block (interrupts masked, owner only). In stop mode it
 * fails while that block is unread; in overwrite mode it takes the
 * oldest unread block as lost. Events lost so far are written first, as
 * a kind-6 record: the point of loss.
 */
bool ring_next_block(struct ring_cpu *r, uint64_t now)
{
	uint64_t next = r->started ? r->wr_seq + 1 : r->seq_base;
	struct ring_block *b = ring_block_at(r, next);

	if (next >= r->seq_base + r->nblocks) {
		uint64_t old = next - r->nblocks;

		/* Never reuse the block an interrupted writer still fills:
		 * an interrupt that fills the ring drops its events instead. */
		if (r->nest && old >= r->resv_seq)
			return false;
		if (r->mode == RING_STOP) {
			if (smp_load_acquire(&r->rd_seq) <= old)
				return false;	/* the caller counts the drop */
		} else if (__atomic_compare_exchange_n(&r->rd_seq, &old, old + 1, false,
						       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			/* Unread: its events, and the losses it was
			 * carrying, are lost now. */
			r->lost_pending += b->events;
			r->overwritten += b->events;
			if (b->used > 3 && b->data[0] >> 5 == WIRE_REC_EXT &&
			    b->data[1] == WIRE_EXT_LOST) {
				uint64_t carried = 0;

				wire_varint_get(b->data + 3, b->used - 3, &carried);
				r->lost_pending += carried;
			}
		}
	}
	leave_block(r);
	b->check = 0;	/* open: what it held no longer checks */
	smp_store_release(&b->seq, next);
	b->base_ts = now;
	b->first = r->stored_done + r->dropped;
	b->used = 0;
	b->events = 0;
	r->cur_events = 0;
	r->cur = b;
	r->wr = b->data;
	open_fast_path(r);
	r->wr_seq = next;
	if (r->cache_used)
		clear_caller_cache(r);
	r->started = true;
	r->ts_events = ring_ts_make(now, 0);	/* cur_events is 0 */
	r->graph_open = (next + 1) << RING_GRAPH_POS_BITS;
	if (r->lost_pending) {
		/* Kind 7 subtype 7 (wire.md 2.1, version 5): subtype, length,
		 * the count. */
		uint8_t *p = put_header(b->data, WIRE_REC_EXT, 0);
		uint8_t *end = ring_put_varint(p + 2, r->lost_pending);

		p[0] = WIRE_EXT_LOST;
		p[1] = (uint8_t)(end - (p + 2));
		r->wr = end;
		r->lost_pending = 0;
	}
	if (!r->nest)
		smp_store_release(&r->closed_seq, next);
	return true;
}

static struct ring_cpu *my_ring(void)
{
	return this_cpu()->ring;
}

/* An event that found no room (stop mode): lost, to be reported. */
static void count_drop(struct ring_cpu *r)
{
	r->dropped++;
	r->lost_pending++;
}

static volatile bool ring_ended;

void ring_pause(bool on)
{
	if (READ_ONCE(ring_ended))
		return;		/* the run is over: nothing resumes it */
	WRITE_ONCE(ring_paused, on);
	dsb_ish();	/* the flag before the NULLs below (open_fast_path) */
	/* Send every writer to the slow path, which reads ring_paused. A
	 * CPU opening its inline path at this moment closes it again
	 * (open_fast_path); one already inside an inline write finishes
	 * that one record. */
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		struct ring_cpu *rc = ring_of(c);

		if (rc)
			WRITE_ONCE(rc->wr_fast_end, NULL);
	}
}

void ring_put_func_slow(struct ring_cpu *r, unsigned int site,
			uintptr_t caller, uint64_t now)
{
	if (READ_ONCE(ring_paused))
		return;		/* not recording: not produced, not lost */
	if (r->cur && r->wr + RING_FAST_ROOM < r->cur->data + r->cap) {
		/* Room after all: the fast path was closed by a pause. */
		open_fast_path(r);
		if (r->wr_fast_end)
			ring_put_func(r, site, caller, now);
		return;
	}
	if (ring_next_block(r, now))
		ring_put_func(r, site, caller, now);
	else
		count_drop(r);
}

void ring_write_func(unsigned int site, uintptr_t caller)
{
	struct ring_cpu *r = my_ring();

	if (r)
		ring_put_func(r, site, caller, counter_read());
}

/* The common part of ring_reserve and ring_reserve_at: 'now' is the
 * record's time, unless 'read_now' says to read the counter here. */
static inline __attribute__((always_inline)) uint8_t *reserve(unsigned int kind, unsigned int len,
							  bool read_now, uint64_t now)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();
	uint8_t *p = NULL;

	if (!r || len + 11 > r->cap || READ_ONCE(ring_paused))
		goto out;
	if (read_now)
		now = counter_read();
	if (!r->cur || r->wr + 11 + len > r->cur->data + r->cap) {
		if (!ring_next_block(r, now)) {
			count_drop(r);
			goto out;
		}
	}
	/* A 'now' before the last record's (a caller that broke
	 * ring_reserve_at's rule) is written as that time, never as a
	 * negative delta, which would shift every later time in the block. */
	uint64_t delta = ring_ts_delta(r->ts_events, now);

	if (delta > RING_TS_MASK - (1ULL << 32))	/* before it (modulo 2^48) */
		delta = 0;
	else
		r->ts_events = ring_ts_make(now, r->cur_events);
	p = put_header(r->wr, kind, delta);
	r->wr = p + len;
	r->cur_events++;
	if (!r->nest++)
		r->resv_seq = r->wr_seq;
out:
	irq_restore(flags);
	return p;
}

uint8_t *ring_reserve(unsigned int kind, unsigned int len)
{
	return reserve(kind, len, true, 0);
}

uint8_t *ring_reserve_at(unsigned int kind, unsigned int len, uint64_t now)
{
	return reserve(kind, len, false, now);
}

/* Out of line and reached by a tail call, so ring_commit's common path
 * keeps no frame. */
static void __attribute__((noinline, cold)) swap_then_restore(struct ring_cpu *r,
							     unsigned long flags)
{
	ring_swap_now(r, cpu_id());
	irq_restore(flags);
}

void ring_commit(void)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();

	if (r && r->nest && --r->nest == 0) {
		smp_store_release(&r->closed_seq, r->wr_seq);
		if (READ_ONCE(r->swap_pending))
			return swap_then_restore(r, flags);
	}
	irq_restore(flags);
}

static void close_current(struct ring_cpu *r)
{
	leave_block(r);
	r->cur = NULL;
	r->wr = r->wr_fast_end = NULL;
	smp_store_release(&r->closed_seq, r->wr_seq + 1);
}

/* Finishes the current block without opening the next one (so an
 * overwriting ring does not lose a block to a close). Losses still
 * pending (stop mode) get a block of their own. Interrupts masked. */
static void finish_block(struct ring_cpu *r)
{
	if (r->nest)
		return;
	if (r->cur && r->wr != r->cur->data)
		close_current(r);
	if (r->lost_pending && !r->cur && ring_next_block(r, counter_read()))
		close_current(r);
}

void ring_close_block(void)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();

	if (r)
		finish_block(r);
	irq_restore(flags);
}

void ring_end(void)
{
	ring_pause(true);
	WRITE_ONCE(ring_ended, true);
}

void ring_close_block_of(unsigned int cpu)
{
	struct ring_cpu *r = ring_of(cpu);

	if (r)
		finish_block(r);
}

uint64_t ring_writer_mark(unsigned int cpu)
{
	const struct ring_cpu *r = ring_of(cpu);

	if (!r)
		return 0;
	return (uint64_t)(uintptr_t)READ_ONCE(r->wr) ^ READ_ONCE(r->wr_seq) << 44 ^
	       (uint64_t)READ_ONCE(r->nest) << 40 ^ READ_ONCE(r->cur_events);
}

/*
 * The one writer here is not the owner, which still runs. That is safe
 * once it writes no more: after ring_end its fast paths are closed
 * (wr_fast_end NULL) and its slow paths return at once, so the only
 * writes it can still make are a record it began before ring_end and
 * has not finished. 'mark' taken after ring_end and unchanged since
 * says it made none in between; what is left is a writer stopped for
 * that whole time inside a record. If one were, its last stores land
 * past the block's 'used' (not sent, not counted: produced reads
 * cur_events only while a block is open) and leave wr set with no block,
 * which every writer path reads as "no room" (wr_fast_end is NULL).
 * Never inside a reservation: its record is not complete. The owner
 * itself does not close its block once the run has ended (its slow
 * paths return at once, and a CPU that does not answer takes no
 * close_here call); only its tick could (ring_close_if_older), had it
 * unmasked interrupts at this very moment.
 */
bool ring_close_stuck(unsigned int cpu, uint64_t mark)
{
	struct ring_cpu *r = ring_of(cpu);

	if (ring_is_closed(cpu))
		return true;
	if (!READ_ONCE(ring_ended) || READ_ONCE(r->nest) || ring_writer_mark(cpu) != mark)
		return false;
	finish_block(r);
	return ring_is_closed(cpu);
}

void ring_close_if_older(uint64_t ticks)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();
	uint64_t now = counter_read();

	if (r && r->cur && now - r->cur->base_ts > ticks)
		finish_block(r);
	irq_restore(flags);
}
