/*
 * trace/output/dump.c: the ring buffers as readable text on the console, with
 * no host tool: the 'dump' command and the automatic dump after a crash
 * report. It reads without consuming: the host can still receive the
 * same blocks. A block being rewritten while it is copied is detected by
 * its sequence number and skipped.
 */
#include <stdbool.h>
#include <string.h>

#include "barrier.h"
#include "core/core.h"
#include "hang.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "ring.h"
#include "symbols.h"
#include "tracers/tracer.h"
#include "wire.h"

/* One dump at a time: the buffers below are shared. */
static struct spinlock dump_lock = SPINLOCK_INIT;
static uint8_t copy[RING_BLOCK_SIZE + 32];
static struct wire_rec_iter it;

static const char *name_of_site(uint64_t site)
{
	const char *n = site < trace_site_count() ? trace_site_name((unsigned int)site) : NULL;

	return n ? n : "?";
}

static void print_ts(unsigned int cpu, uint64_t ts, char *buf, size_t n)
{
	uint64_t hz = time_counter_hz();
	uint64_t us = ts % hz * 1000000 / hz;

	ksnprintf(buf, n, "[%03u] %lu.%06lu:", cpu, (unsigned long)(ts / hz),
		  (unsigned long)us);
}

/* Decodes the block in copy[] (snapshot), printing its records but the
 * first 'skip'; returns how many it holds. */
static unsigned long print_block(unsigned int cpu, size_t len, uint64_t base,
				 uint64_t first, unsigned long skip)
{
	unsigned int vl = wire_block_head_put(copy, base, first);
	struct wire_record r;
	unsigned long n = 0;
	char ts[40];

	memmove(copy + vl, copy + 32, len);
	if (wire_rec_begin(&it, copy, len + vl, NULL, NULL))
		return 0;
	while (wire_rec_next(&it, &r) == WIRE_REC_OK) {
		if (n++ < skip)
			continue;
		print_ts(cpu, r.ts, ts, sizeof(ts));
		switch (r.kind) {
		case WIRE_REC_FUNC:
		case WIRE_REC_FUNC_CALLER: {
			const char *caller = r.has_caller ?
				sym_lookup((uintptr_t)_text + r.caller * 4 - 4, NULL, NULL) : NULL;

			kprintf("%s %s <-%s\n", ts, name_of_site(r.site), caller ? caller : "?");
			break;
		}
		case WIRE_REC_GRAPH_ENTRY:
			kprintf("%s %*s%s() {\n", ts, (int)r.depth * 2, "", name_of_site(r.site));
			break;
		case WIRE_REC_EXIT:
			kprintf("%s } %s %lu ticks\n", ts, name_of_site(r.site),
				(unsigned long)r.duration);
			break;
		case WIRE_REC_LOST:
			kprintf("CPU:%u [LOST %lu EVENTS]\n", cpu, (unsigned long)r.count);
			break;
		case WIRE_REC_PRINTF:
			kprintf("%s trace_printf format #%lu, %lu arguments\n", ts,
				(unsigned long)r.id, (unsigned long)r.count);
			break;
		default:
			kprintf("%s record kind %u\n", ts, r.kind);
			break;
		}
	}
	return n;
}

/* Copies block 'seq' if it still holds it: its data goes to copy + 16. */
static long snapshot(const struct ring_cpu *r, uint64_t seq, uint64_t *base,
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
	memcpy(copy + 32, b->data, len);
	dmb_ish();
	return READ_ONCE(b->seq) == seq ? (long)len : -1;
}

/* The oldest block sequence number r may still hold, 'last' its newest. */
static uint64_t oldest_seq(const struct ring_cpu *r, uint64_t last)
{
	return last + 1 > r->seq_base + r->nblocks ? last + 1 - r->nblocks : r->seq_base;
}

/* Prints one ring (a live one or a snapshot copy). dump_lock held. */
static unsigned long dump_one(unsigned int cpu, const struct ring_cpu *r)
{
	unsigned long total = 0;

	if (!r || !r->started)
		return 0;
	uint64_t last = READ_ONCE(r->wr_seq), oldest = oldest_seq(r, last);

	for (uint64_t seq = oldest; seq <= last; seq++) {
		uint64_t base, first;
		long len = snapshot(r, seq, &base, &first);

		if (len >= 0)
			total += print_block(cpu, (size_t)len, base, first, 0);
		lockup_touch();	/* a long dump on a slow line is no lockup */
	}
	return total;
}

/* Prints the newest n records of ring r. The owner may go on writing:
 * the blocks are counted from the newest down, then printed oldest
 * first; a block rewritten between the two passes is skipped. */
static unsigned long dump_last(unsigned int cpu, const struct ring_cpu *r, unsigned long n)
{
	unsigned long have = 0, total = 0;
	uint64_t base, first;

	if (!r || !r->started)
		return 0;
	uint64_t last = READ_ONCE(r->wr_seq), oldest = oldest_seq(r, last), from = last + 1;

	/* Count with printing off: skip = every record. */
	while (from > oldest && have < n) {
		long len = snapshot(r, from - 1, &base, &first);

		from--;
		if (len >= 0)
			have += print_block(cpu, (size_t)len, base, first, ~0UL);
	}
	for (uint64_t seq = from; seq <= last; seq++) {
		long len = snapshot(r, seq, &base, &first);
		unsigned long skip = have > n ? have - n : 0;

		if (len < 0)
			continue;
		unsigned long in = print_block(cpu, (size_t)len, base, first, skip);

		total += in > skip ? in - skip : 0;
		have = have > in ? have - in : 0;
	}
	return total;
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

void trace_dump_ring(unsigned int cpu, const struct ring_cpu *r)
{
	unsigned long flags;

	if (!dump_lock_take(&flags))
		return;
	kprintf("# cpu %u: %lu records\n", cpu, dump_one(cpu, r));
	spin_unlock(&dump_lock);
	irq_restore(flags);
}

void trace_dump(void)
{
	unsigned long flags, total = 0;

	if (!dump_lock_take(&flags))
		return;
	kprintf("# trace dump: oldest first, per CPU\n");
	for (unsigned int cpu = 0; cpu < smp_num_cpus(); cpu++)
		total += dump_one(cpu, ring_of(cpu));
	kprintf("# trace dump: %lu records\n", total);
	spin_unlock(&dump_lock);
	irq_restore(flags);
}

void trace_dump_last(unsigned int cpu, unsigned int n)
{
	unsigned long flags;

	if (cpu >= smp_num_cpus() || !dump_lock_take(&flags))
		return;
	kprintf("# cpu %u: last %lu records\n", cpu, dump_last(cpu, ring_of(cpu), n));
	spin_unlock(&dump_lock);
	irq_restore(flags);
}
