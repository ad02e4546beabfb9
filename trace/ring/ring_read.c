/*
 * trace/ring/ring_read.c: the reading side of the ring buffers (see ring.h
 * for the rules): any CPU takes complete blocks as frame bodies, and the
 * totals every CPU's books are made of.
 */
#include <string.h>

#include "barrier.h"
#include "ring.h"
#include "wire.h"

bool ring_is_closed(unsigned int cpu)
{
	struct ring_cpu *r = ring_of(cpu);

	return !r || (!READ_ONCE(r->cur) && !READ_ONCE(r->nest));
}

/* *events: the block's events, once claimed; taken: the reader keeps the
 * block (ring_take_body), so they count at once. */
static long read_body(unsigned int cpu, uint8_t *buf, size_t cap, uint64_t *seq,
		      uint32_t *events_out, bool taken)
{
	struct ring_cpu *r = ring_of(cpu);

	for (;;) {
		if (!r || cap < 2 * WIRE_VARINT_MAX)
			return -1;
		uint64_t want = smp_load_acquire(&r->rd_seq);

		if (want >= smp_load_acquire(&r->closed_seq))
			return -1;
		struct ring_block *b = ring_block_at(r, want);

		if (smp_load_acquire(&b->seq) != want)
			continue;	/* being reused: rd_seq has moved */
		size_t len = b->used;
		uint32_t events = b->events;
		unsigned int head = wire_block_head_put(buf, b->base_ts, b->first);

		if (len > cap - head || len > r->cap)
			len = 0;	/* cannot happen for a complete block */
		memcpy(buf + head, b->data, len);
		*seq = want;
		dmb_ish();	/* the copy is done before we claim the block */
		if (__atomic_compare_exchange_n(&r->rd_seq, &want, want + 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			*events_out = events;
			if (taken) {
				r->exported += events;
				r->taken += events;
			}
			return (long)(len + head);
		}
		/* The writer took it as lost while we copied: next one. */
	}
}

long ring_read_body(unsigned int cpu, uint8_t *buf, size_t cap, uint64_t *seq,
		    uint32_t *events)
{
	return read_body(cpu, buf, cap, seq, events, false);
}

void ring_mark_sent(unsigned int cpu, uint32_t events)
{
	struct ring_cpu *r = ring_of(cpu);

	if (r)
		r->exported += events;
}

long ring_take_body(unsigned int cpu, uint8_t *buf, size_t cap, uint64_t *seq)
{
	uint32_t events;

	return read_body(cpu, buf, cap, seq, &events, true);
}

void ring_get_totals(unsigned int cpu, struct ring_totals *t)
{
	struct ring_cpu *r = ring_of(cpu);

	*t = (struct ring_totals){ 0 };
	if (!r)
		return;
	t->produced = ring_produced(r);
	t->overwritten = r->overwritten;
	t->dropped = r->dropped;
	/* exported counts the taken blocks too: they leave the ring once. */
	t->discarded = r->discarded + r->taken;
	t->in_ring = t->produced - t->dropped - t->overwritten - r->discarded - r->exported;
	t->blocks = r->started ? r->wr_seq + 1 : r->seq_base;
}
