/*
 * trace/output/prev_region.c: this boot's rings in the region kept across
 * resets (see prev.h and the layout in prev.c): the header that lets the
 * next boot recognise them, the per-CPU ring state, and the two halves
 * of ring memory that ring_setup alternates between.
 */
#include <string.h>

#include "barrier.h"
#include "kprintf.h"
#include "percpu.h"
#include "persist.h"
#include "prev.h"
#include "prev_int.h"
#include "prev_parse.h"
#include "ring/ring.h"

#include "config.h"

/* This boot's header, set once by prev_rings under ring_setup's
 * caller's lock; NULL with no region. */
static struct prev_header *head;

struct ring_cpu *prev_rings(void)
{
	struct mem_region r = persist_region();

	if (!r.size)
		return NULL;
	struct prev_header *h = (struct prev_header *)(uintptr_t)r.base;
	struct prev_header want = prev_layout_for(r.base, r.size);

	if (!want.half_bytes)
		return NULL;
	struct ring_cpu *rings = (struct ring_cpu *)(uintptr_t)(r.base + want.rings_off);

	memset(rings, 0, NR_CPUS * sizeof(*rings));
	want.boot = prev_boot_number() + 1;	/* 1 when none was kept */
	want.crc = prev_header_crc(&want);
	want.magic = 0;
	*h = want;
	/* The magic last: a reset before here leaves no header. */
	__atomic_store_n(&h->magic, PREV_MAGIC, __ATOMIC_RELEASE);
	head = h;
	return rings;
}

size_t prev_ring_room(void)
{
	struct mem_region r = persist_region();

	return r.size ? prev_layout_for(r.base, r.size).half_bytes : 0;
}

static uintptr_t half_at(unsigned int i)
{
	return (uintptr_t)head + head->data_off + i * head->half_bytes;
}

bool prev_holds(const void *p)
{
	return head && (uintptr_t)p >= half_at(0) && (uintptr_t)p < half_at(2);
}

static bool in_half(const void *p, unsigned int i)
{
	return p && (uintptr_t)p >= half_at(i) && (uintptr_t)p < half_at(i + 1);
}

void *prev_ring_mem(size_t total, const struct ring_cpu *rings, unsigned int n)
{
	static bool said;

	if (!head)
		return NULL;
	if (total > head->half_bytes) {
		if (!said)
			kprintf("trace: rings of %lu KiB in all do not fit the %lu KiB kept "
				"across resets: a reset loses them\n", (unsigned long)(total >> 10),
				(unsigned long)(head->half_bytes >> 10));
		said = true;
		return NULL;
	}
	for (unsigned int i = 0; i < 2; i++) {
		bool busy = false;

		for (unsigned int c = 0; c < n; c++)
			busy |= in_half(rings[c].mem, i) || in_half(rings[c].old_mem, i) ||
				in_half(rings[c].new_mem, i);
		if (!busy)
			return (void *)half_at(i);
	}
	return NULL;
}

void prev_spoil_for_test(enum prev_spoil how)
{
	if (!head)
		return;
	if (how == PREV_SPOIL_BLOCK) {
		/* This CPU's oldest block, found as the next boot will. */
		struct prev_view v = { (const uint8_t *)head, head->base, head->size };
		struct prev_ring r;

		if (!prev_read_ring(&v, head, this_cpu()->cpu, &r).what && r.nblocks &&
		    r.lo + 1 < r.hi)
			((struct ring_block *)((uint8_t *)head + r.mem + r.lo % r.nblocks *
					       RING_BLOCK_SIZE))->data[0] ^= 0x40;
		return;
	}
	if (how == PREV_SPOIL_BOOKS) {
		/* More overwritten than this CPU ever stored. Only the owner
		 * writes 'overwritten', and interrupts are masked: no write of
		 * its own is in flight across this one. */
		unsigned long flags = irq_save();
		struct ring_cpu *r = this_cpu()->ring;

		if (r)
			r->overwritten += 1ULL << 62;
		irq_restore(flags);
		return;
	}
	if (how == PREV_SPOIL_IMAGE) {
		head->image_hash ^= 0x5a5a5a5a;
	} else if (how == PREV_SPOIL_RINGS_OFF) {
		head->rings_off = 1ULL << 40;	/* 1 TiB: far outside the region */
	} else {
		head->boot ^= 0x100;	/* the CRC no longer matches */
		return;
	}
	head->crc = prev_header_crc(head);	/* a header that checks */
}

const struct ring_kept_mem prev_kept_mem = { prev_rings, prev_ring_mem, prev_holds };
