/*
 * trace/output/dump.c: the ring buffers as readable text on the console, with
 * no host tool: the 'dump' command and the automatic dump after a crash
 * report. It reads without consuming: the host can still receive the
 * same blocks. A block being rewritten while it is copied is detected by
 * its sequence number and skipped. This file reads the rings; each
 * block's records are decoded and worded, one line each, by
 * dump_record.c and dump_ext.c.
 */
#include <stdbool.h>
#include <string.h>

#include "barrier.h"
#include "core/core.h"
#include "exception.h"
#include "hang.h"
#include "kprintf.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracers/trigger.h"
#include "wire.h"
#include "dump.h"
#include "dump_int.h"
#include "output.h"

/* One dump at a time: the buffers below are shared. */
static struct spinlock dump_lock = SPINLOCK_INIT;
/* Block copies: data at +32, the decoder's block head just before it. */
#define COPY_HEAD	32
static uint8_t copy[2][COPY_HEAD + RING_BLOCK_SIZE];

/* A CPU dumping for a break-key or lockup report has interrupts masked,
 * so another CPU's crash cannot stop it with an SGI: it stops here,
 * between records, after letting go of the buffers, so the crash
 * report is not interleaved with its lines and the crash's own dump
 * gets the lock. dump_lock held. */
void dump_yield_to_crash(void)
{
	if (__builtin_expect(crash_elsewhere(), 0)) {
		dump_set_sink(NULL);	/* the crash's dump prints on the console */
		spin_unlock(&dump_lock);
		crash_yield();
	}
}

/* Decodes a block copy (snapshot), printing its records but the first
 * 'skip'; returns how many it holds. The copy is left as it was, so it
 * can be decoded again. */
static unsigned long print_block(uint8_t *buf, unsigned int cpu, size_t len, uint64_t base,
				 uint64_t first, unsigned long skip, bool lost_here)
{
	uint8_t head[2 * WIRE_VARINT_MAX];
	unsigned int vl = wire_block_head_put(head, base, first);

	_Static_assert(sizeof(head) <= COPY_HEAD, "block head room");
	memcpy(buf + COPY_HEAD - vl, head, vl);
	return dump_block(buf + COPY_HEAD - vl, len + vl, cpu, skip, lost_here);
}

/* Copies block 'seq' if it still holds it: its data goes to buf + COPY_HEAD. */
static long snapshot(uint8_t *buf, const struct ring_cpu *r, uint64_t seq, uint64_t *base,
		     uint64_t *first)
{
	struct ring_block *b = (struct ring_block *)((uint8_t *)r->mem +
						     (size_t)(seq % r->nblocks) * RING_BLOCK_SIZE);
	size_t len;

	if (smp_load_acquire(&b->seq) != seq)
		return -1;
	if (b == READ_ONCE(r->cur))
		len = (size_t)(READ_ONCE(r->wr) - b->data);	/* still being filled */
	else
		len = b->used;
	if (len > r->cap)
		return -1;
	*base = b->base_ts;
	*first = b->first;
	memcpy(buf + COPY_HEAD, b->data, len);
	dmb_ish();
	return READ_ONCE(b->seq) == seq ? (long)len : -1;
}

/* The most blocks a dump prints per CPU: the newest 64 KiB, as the whole
 * ring was when that was the default. A default ring is now 1/16 of RAM
 * (8 MiB per CPU on QEMU virt): printed whole as text on a 115200-baud
 * line after a crash it would take hours; the exported trace has it. */
#define DUMP_BLOCKS	64U

/* The oldest block sequence number r may still hold, 'last' its newest. */
static uint64_t oldest_seq(const struct ring_cpu *r, uint64_t last)
{
	return last + 1 > r->seq_base + r->nblocks ? last + 1 - r->nblocks : r->seq_base;
}

/*
 * Where a ring's lost-events records (kind 6) are true as they stand. A
 * block opens with one carrying what was lost since the previous block
 * opened. In stop mode those are the events dropped while the ring was
 * full: lost right there. In overwrite mode they are the events of the
 * oldest block, reused unread to open this one (and what that block
 * carried): older than every record a dump can still show, so printed
 * between two blocks they named a gap that is not there (two records
 * with the same timestamp around 'CPU:0 [LOST 18592 EVENTS]'), and
 * each held only its own chain of reused blocks since one was last
 * sent, far fewer than the ring had overwritten. There the
 * dump says once, before the ring's first record, how many the ring
 * overwrote, and how many it dropped (an interrupt that found the ring
 * held by the code it interrupted), from the ring's own counts.
 */
static bool lost_in_place(const struct ring_cpu *r)
{
	return r->mode == RING_STOP;
}

static void print_older_losses(unsigned int cpu, const struct ring_cpu *r)
{
	uint64_t over = READ_ONCE(r->overwritten), dropped = READ_ONCE(r->dropped);

	if (over)
		dump_line("CPU:%u [LOST %lu EVENTS] (older than these: overwritten before they were "
			  "sent)", cpu, (unsigned long)over);
	if (dropped)
		dump_line("CPU:%u [LOST %lu EVENTS] (dropped: no block was free)", cpu,
			  (unsigned long)dropped);
}

/* Prints one ring (a live one or a snapshot copy). dump_lock held. */
static unsigned long dump_one(unsigned int cpu, const struct ring_cpu *r)
{
	unsigned long total = 0;

	if (!r || !r->started)
		return 0;
	dump_record_start();
	uint64_t last = READ_ONCE(r->wr_seq), oldest = oldest_seq(r, last);
	bool here = lost_in_place(r);

	/* Bounded: an owner that keeps writing does not keep the dump going. */
	unsigned long steps = 2 * (unsigned long)r->nblocks + 2;

	if (!here)
		print_older_losses(cpu, r);
	if (last + 1 - oldest > DUMP_BLOCKS) {
		dump_line("CPU:%u [%lu older blocks not shown: the dump prints the newest %u; "
			  "the exported trace has them]", cpu,
			  (unsigned long)(last + 1 - oldest - DUMP_BLOCKS), DUMP_BLOCKS);
		oldest = last + 1 - DUMP_BLOCKS;
	}
	for (uint64_t seq = oldest; seq <= last && steps; seq++, steps--) {
		uint64_t base, first;
		long len = snapshot(copy[0], r, seq, &base, &first);

		if (len >= 0) {
			total += print_block(copy[0], cpu, (size_t)len, base, first, 0, here);
		} else {
			/* Rewritten while the dump printed what came before (its
			 * owner still runs, and a slow line gives it time to go
			 * round the ring): go on from what the ring holds now,
			 * or a fast writer would leave nothing readable. */
			uint64_t now = READ_ONCE(r->wr_seq), from = oldest_seq(r, now);

			if (from > seq + 1)
				seq = from - 1;
			if (now > last)
				last = now;
		}
		lockup_touch();	/* a long dump on a slow line is no lockup */
	}
	return total;
}

/* Prints the newest n records of ring r, oldest first. The owner may go
 * on writing (a CPU stuck in a traced loop writes fast): the newest one
 * or two blocks are copied first, then counted and printed from the
 * copies; a block rewritten while it was copied starts the copies again. */
static unsigned long dump_last(unsigned int cpu, const struct ring_cpu *r, unsigned long n)
{
	if (!r || !r->started)
		return 0;
	dump_record_start();
	for (int attempt = 0; attempt < 8; attempt++) {
		uint64_t last = READ_ONCE(r->wr_seq), oldest = oldest_seq(r, last);
		struct { long len; uint64_t base, first; unsigned long recs; } held[2];
		unsigned long have = 0, total = 0, skip;
		unsigned int k = 0;
		bool torn = false;

		for (uint64_t seq = last + 1; seq > oldest && k < 2 && have < n; seq--, k++) {
			held[k].len = snapshot(copy[k], r, seq - 1, &held[k].base, &held[k].first);
			if (held[k].len < 0) {
				torn = true;
				break;
			}
			held[k].recs = print_block(copy[k], cpu, (size_t)held[k].len,
						   held[k].base, held[k].first, ~0UL,
						   lost_in_place(r));
			have += held[k].recs;
		}
		if (torn)
			continue;
		for (skip = have > n ? have - n : 0; k--;) {
			unsigned long in = print_block(copy[k], cpu, (size_t)held[k].len,
						       held[k].base, held[k].first, skip,
						       lost_in_place(r));

			total += in > skip ? in - skip : 0;
			skip = skip > in ? skip - in : 0;
		}
		return total;
	}
	return 0;
}

static bool dump_lock_take(unsigned long *flags)
{
	*flags = irq_save();
	for (int i = 0; !spin_trylock(&dump_lock); i++)
		if (i == 1000000) {
			irq_restore(*flags);
			return false;
		}
	return true;
}

unsigned long trace_dump_ring_to(unsigned int cpu, const struct ring_cpu *r,
				 const struct dump_sink *sink)
{
	unsigned long flags, n;

	if (!dump_lock_take(&flags))
		return 0;
	dump_set_sink(sink);
	n = dump_one(cpu, r);
	dump_line("# cpu %u: %lu records", cpu, n);
	dump_set_sink(NULL);
	spin_unlock(&dump_lock);
	irq_restore(flags);
	return n;
}

void trace_dump_ring(unsigned int cpu, const struct ring_cpu *r)
{
	trace_dump_ring_to(cpu, r, NULL);
}

void trace_dump(void)
{
	unsigned long flags, total = 0;

	if (!dump_lock_take(&flags)) {
		kprintf("# trace dump skipped: another dump kept the buffers\n");
		return;
	}
	dump_line("# trace dump: oldest first, per CPU");
	for (unsigned int cpu = 0; cpu < smp_num_cpus(); cpu++)
		total += dump_one(cpu, ring_of(cpu));
	dump_line("# trace dump: %lu records", total);
	spin_unlock(&dump_lock);
	irq_restore(flags);
}

void trace_dump_last(unsigned int cpu, unsigned int n)
{
	unsigned long flags;

	if (cpu >= smp_num_cpus() || !dump_lock_take(&flags))
		return;
	dump_line("# cpu %u: last %lu records", cpu, dump_last(cpu, ring_of(cpu), n));
	spin_unlock(&dump_lock);
	irq_restore(flags);
}

void snapshot_show(void)
{
	if (!snapshot_taken()) {
		kprintf("snapshot: none taken\n");
		return;
	}
	kprintf("# snapshot: oldest first, per CPU\n");
	for (unsigned int c = 0; c < smp_num_cpus(); c++)
		if (snapshot_copy(c))
			trace_dump_ring(c, snapshot_copy(c));
}
