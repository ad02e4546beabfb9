/* trace/ring.c: per-CPU ring buffers (see ring.h for the rules). */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "ktime.h"
#include "mmu.h"
#include "percpu.h"
#include "ring.h"
#include "wire.h"

#define FUNC_RECORD_MAX	(1 + 10 + 5 + 5)	/* header, delta, site, caller */
#define LOST_RECORD_MAX	(1 + 10)

static struct ring_cpu rings[NR_CPUS];
static size_t ring_size = RING_DEFAULT_BYTES;
static enum ring_mode ring_mode_now = RING_OVERWRITE;

struct ring_cpu *ring_of(unsigned int cpu)
{
	return cpu < NR_CPUS && rings[cpu].mem ? &rings[cpu] : NULL;
}

size_t ring_bytes(void)
{
	return ring_size;
}

enum ring_mode ring_get_mode(void)
{
	return ring_mode_now;
}

static struct ring_block *block_at(const struct ring_cpu *r, uint64_t seq)
{
	return (struct ring_block *)((uint8_t *)r->mem +
				     (size_t)(seq % r->nblocks) * RING_BLOCK_SIZE);
}

int ring_setup(size_t bytes, enum ring_mode mode)
{
	uint32_t n = (uint32_t)(bytes / RING_BLOCK_SIZE);

	if (n < RING_MIN_BLOCKS)
		return -1;
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		struct ring_cpu *r = &rings[c];
		void *mem = c < smp_num_cpus() ? malloc((size_t)n * RING_BLOCK_SIZE) : NULL;

		if (c < smp_num_cpus() && !mem)
			return -1;
		cpu_data(c)->ring = NULL;
		free(r->mem);
		memset(r, 0, sizeof(*r));
		if (!mem)
			continue;
		r->mem = mem;
		r->nblocks = n;
		r->cap = RING_BLOCK_SIZE - (uint32_t)sizeof(struct ring_block);
		r->mode = mode;
		for (uint32_t i = 0; i < n; i++)
			block_at(r, i)->seq = UINT64_MAX;	/* never written */
		dsb_ish();
		cpu_data(c)->ring = r;
	}
	ring_size = (size_t)n * RING_BLOCK_SIZE;
	ring_mode_now = mode;
	return 0;
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static uint8_t *put_header(uint8_t *p, unsigned int kind, uint64_t delta)
{
	if (delta < WIRE_DELTA_ESCAPE) {
		*p++ = (uint8_t)(kind << 5 | delta);
		return p;
	}
	*p++ = (uint8_t)(kind << 5 | WIRE_DELTA_ESCAPE);
	return put_varint(p, delta);
}

/*
 * Starts the next block (interrupts masked, owner only). In stop mode it
 * fails while that block is unread; in overwrite mode it takes the
 * oldest unread block as lost. Events lost so far are written first, as
 * a kind-6 record: the point of loss.
 */
static bool next_block(struct ring_cpu *r, uint64_t now)
{
	uint64_t next = r->started ? r->wr_seq + 1 : 0;
	struct ring_block *b = block_at(r, next);

	if (next >= r->nblocks) {
		uint64_t old = next - r->nblocks;

		if (r->mode == RING_STOP) {
			if (smp_load_acquire(&r->rd_seq) <= old)
				return false;
		} else if (__atomic_compare_exchange_n(&r->rd_seq, &old, old + 1, false,
						       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			/* Unread: its events, and the losses it was
			 * carrying, are lost now. */
			r->lost_pending += b->events;
			r->lost += b->events;
			if (b->used && b->data[0] >> 5 == WIRE_REC_LOST) {
				uint64_t carried = 0;

				wire_varint_get(b->data + 1, b->used - 1, &carried);
				r->lost_pending += carried;
			}
		}
	}
	smp_store_release(&b->seq, next);
	b->base_ts = now;
	b->used = 0;
	b->events = 0;
	r->cur = b;
	r->wr_seq = next;
	r->started = true;
	r->last_ts = now;
	if (r->lost_pending) {
		uint8_t *p = put_header(b->data, WIRE_REC_LOST, 0);

		p = put_varint(p, r->lost_pending);
		b->used = (uint32_t)(p - b->data);
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

void ring_write_func(unsigned int site, uintptr_t caller)
{
	struct ring_cpu *r = my_ring();

	if (!r)
		return;
	uint64_t now = time_counter();
	struct ring_block *b = r->cur;

	r->produced++;
	if (!b || b->used + FUNC_RECORD_MAX > r->cap) {
		if (!next_block(r, now)) {
			r->lost_pending++;
			r->lost++;
			return;
		}
		b = r->cur;
	}
	uint64_t delta = now - r->last_ts;
	uint32_t coff = (uint32_t)((caller - (uintptr_t)_text) >> 2);
	unsigned int slot = site & (RING_CALLER_CACHE - 1);
	bool same = r->cache[slot].site_plus1 == site + 1 &&
		    r->cache[slot].caller == coff && r->cache[slot].seq == r->wr_seq;
	uint8_t *p = put_header(b->data + b->used, same ? WIRE_REC_FUNC : WIRE_REC_FUNC_CALLER,
				delta);

	r->last_ts = now;
	p = put_varint(p, site);
	if (!same) {
		p = put_varint(p, coff);
		r->cache[slot].site_plus1 = site + 1;
		r->cache[slot].caller = coff;
		r->cache[slot].seq = r->wr_seq;
	}
	b->used = (uint32_t)(p - b->data);
	b->events++;
}

uint8_t *ring_reserve(unsigned int kind, unsigned int len)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();
	uint8_t *p = NULL;

	if (!r || len + 11 > r->cap)
		goto out;
	uint64_t now = time_counter();
	struct ring_block *b = r->cur;

	r->produced++;
	if (!b || b->used + 11 + len > r->cap) {
		if (!next_block(r, now)) {
			r->lost_pending++;
			r->lost++;
			goto out;
		}
		b = r->cur;
	}
	p = put_header(b->data + b->used, kind, now - r->last_ts);
	r->last_ts = now;
	b->used = (uint32_t)(p - b->data) + len;
	b->events++;
	r->nest++;
out:
	irq_restore(flags);
	return p;
}

void ring_commit(void)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();

	if (r && r->nest && --r->nest == 0)
		smp_store_release(&r->closed_seq, r->wr_seq);
	irq_restore(flags);
}

/* Finishes the current block without opening the next one (so an
 * overwriting ring does not lose a block to a close). Losses still
 * pending (stop mode) get a block of their own. Interrupts masked. */
static void finish_block(struct ring_cpu *r)
{
	if (r->nest)
		return;
	if (r->cur && r->cur->used) {
		r->cur = NULL;
		smp_store_release(&r->closed_seq, r->wr_seq + 1);
	}
	if (r->lost_pending && !r->cur && next_block(r, time_counter())) {
		r->cur = NULL;
		smp_store_release(&r->closed_seq, r->wr_seq + 1);
	}
}

void ring_close_block(void)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();

	if (r)
		finish_block(r);
	irq_restore(flags);
}

void ring_close_if_older(uint64_t ticks)
{
	unsigned long flags = irq_save();
	struct ring_cpu *r = my_ring();
	uint64_t now = time_counter();

	if (r && r->cur && now - r->cur->base_ts > ticks)
		finish_block(r);
	irq_restore(flags);
}

long ring_read_block(unsigned int cpu, uint8_t *buf, size_t cap,
		     uint64_t *seq, uint64_t *base_ts)
{
	struct ring_cpu *r = ring_of(cpu);

	for (;;) {
		if (!r)
			return -1;
		uint64_t want = smp_load_acquire(&r->rd_seq);

		if (want >= smp_load_acquire(&r->closed_seq))
			return -1;
		struct ring_block *b = block_at(r, want);

		if (smp_load_acquire(&b->seq) != want)
			continue;	/* being reused: rd_seq has moved */
		size_t len = b->used;

		if (len > cap || len > r->cap)
			len = 0;	/* cannot happen for a complete block */
		memcpy(buf, b->data, len);
		*base_ts = b->base_ts;
		*seq = want;
		dmb_ish();	/* the copy is done before we claim the block */
		if (__atomic_compare_exchange_n(&r->rd_seq, &want, want + 1, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return (long)len;
		/* The writer took it as lost while we copied: next one. */
	}
}
