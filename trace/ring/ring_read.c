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

bool ring_peek(unsigned int cpu, struct ring_view *v)
{
	struct ring_cpu *r = ring_of(cpu);

	for (;;) {
		if (!r)
			return false;
		uint64_t want = smp_load_acquire(&r->rd_seq);

		if (want >= smp_load_acquire(&r->closed_seq))
			return false;
		struct ring_block *b = ring_block_at(r, want);

		if (smp_load_acquire(&b->seq) != want)
			continue;	/* being reused: rd_seq has moved */
		v->seq = want;
		v->base_ts = b->base_ts;
		v->first = b->first;
		v->events = b->events;
		v->data = b->data;
		v->len = b->used;
		if (v->len > r->cap)
			v->len = 0;	/* cannot happen for a complete block */
		return true;
	}
}

bool ring_claim(unsigned int cpu, const struct ring_view *v)
{
	struct ring_cpu *r = ring_of(cpu);
	uint64_t want = v->seq;

	dmb_ish();	/* every read of the block is done before we claim it */
	return __atomic_compare_exchange_n(&r->rd_seq, &want, want + 1, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

long ring_take_body(unsigned int cpu, uint8_t *buf, size_t cap, uint64_t *seq)
{
	struct ring_cpu *r = ring_of(cpu);
	struct ring_view v;

	if (cap < 2 * WIRE_VARINT_MAX)
		return -1;
	while (ring_peek(cpu, &v)) {
		unsigned int head = wire_block_head_put(buf, v.base_ts, v.first);
		size_t len = v.len > cap - head ? 0 : v.len;

		memcpy(buf + head, v.data, len);
		if (ring_claim(cpu, &v)) {
			*seq = v.seq;
			r->exported += v.events;
			r->taken += v.events;
			return (long)(len + head);
		}
		/* The writer took it as lost while we copied: next one. */
	}
	return -1;
}

void ring_mark_sent(unsigned int cpu, uint32_t events)
{
	struct ring_cpu *r = ring_of(cpu);

	if (r)
		r->exported += events;
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
