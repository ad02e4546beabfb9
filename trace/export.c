/* trace/export.c: see export.h. */
#include <stdbool.h>
#include <string.h>

#include "barrier.h"
#include "console.h"
#include "core.h"
#include "export.h"
#include "irq.h"
#include "ktime.h"
#include "mmu.h"
#include "percpu.h"
#include "ring.h"
#include "smp.h"
#include "spinlock.h"
#include "wire.h"

#define PAYLOAD_MAX	(RING_BLOCK_SIZE + 64)
#define META_EVERY	256	/* data frames between metadata frames */

/* Everything below is used only by the holder of export_lock (taken with
 * trylock from the tick, or with interrupts masked at drain). */
static struct spinlock export_lock = SPINLOCK_INIT;
static uint8_t body[PAYLOAD_MAX], payload[PAYLOAD_MAX];
static uint8_t escaped[WIRE_ESCAPED_MAX(PAYLOAD_MAX)];
static struct export_stats stats;
static uint64_t meta_seq, syms_seq, since_meta;
static uint32_t pace_per_tick;	/* bytes per tick, 0 = unlimited */
/* Bytes the line may still carry; added by CPU 0's tick and spent by
 * the sender, both atomically (the sender may hold export_lock for a
 * long time on a slow line). */
static int64_t budget;
static unsigned int next_cpu;

void export_set_pace(uint32_t baud)
{
	/* 8N1: ten bit times per byte. */
	pace_per_tick = baud ? baud / 10 / time_tick_hz() + 1 : 0;
}

static void send(unsigned int type, unsigned int cpu, uint64_t seq,
		 const uint8_t *b, size_t len)
{
	size_t n = wire_frame_build(payload, sizeof(payload), type, cpu, seq, b, len);
	size_t e = n ? wire_escape(escaped, sizeof(escaped), payload, n) : 0;

	if (!e)
		return;
	console_write_raw(escaped, e);
	stats.frames++;
	stats.bytes += e;
	__atomic_fetch_sub(&budget, (int64_t)e, __ATOMIC_RELAXED);
}

void trace_printf_meta(struct wire_out *o);	/* trace/printf.c */
void tp_meta(struct wire_out *o);		/* trace/tp_record.c */

static void send_meta(void)
{
	struct wire_out o;
	extern char bt_tables_start[], bt_tables_end[];

	wire_out_init(&o, body, sizeof(body));
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, WIRE_VERSION);
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, time_counter_hz());
	wire_out_varint(&o, WIRE_META_NCPUS);
	wire_out_varint(&o, smp_num_cpus());
	wire_out_varint(&o, WIRE_META_IMAGE_HASH);
	wire_out_u32le(&o, wire_crc32(0, bt_tables_start,
				      (size_t)(bt_tables_end - bt_tables_start)));
	wire_out_varint(&o, WIRE_META_NSITES);
	wire_out_varint(&o, trace_site_count());
	wire_out_varint(&o, WIRE_META_TEXT_BASE);
	wire_out_varint(&o, (uintptr_t)_text);
	trace_printf_meta(&o);
	tp_meta(&o);
	if (!o.overflow)
		send(WIRE_FRAME_META, 0, meta_seq++, body, o.len);
	stats.meta_frames++;
	since_meta = 0;
}

/* Symbol dump: as many sites per frame as fit. */
static void send_symbols(void)
{
	unsigned int n = trace_site_count();

	for (unsigned int first = 0; first < n;) {
		struct wire_out o;
		unsigned int count = 0;
		size_t mark;

		wire_out_init(&o, body, sizeof(body));
		wire_out_varint(&o, first);
		mark = o.len;
		wire_out_varint(&o, 0);	/* count, patched below (1 byte) */
		for (unsigned int i = first; i < n && count < 127; i++) {
			const char *name = trace_site_name(i);
			size_t before = o.len;

			wire_out_varint(&o, trace_site_addr(i) - (uintptr_t)_text);
			wire_out_varint(&o, bt_syms[bt_sites[i]].size);
			wire_out_str(&o, name, strlen(name));
			if (o.overflow || o.len > sizeof(body) - 64) {
				o.len = before;
				o.overflow = 0;
				break;
			}
			count++;
		}
		body[mark] = (uint8_t)count;
		send(WIRE_FRAME_SYMS, 0, syms_seq++, body, o.len);
		first += count;
	}
}

void export_frame(unsigned int type, unsigned int cpu, uint64_t seq,
		  const uint8_t *b, size_t len)
{
	unsigned long flags = irq_save();

	for (int i = 0; !spin_trylock(&export_lock); i++)
		if (i == 1000000) {
			irq_restore(flags);
			return;
		}
	send(type, cpu, seq, b, len);
	spin_unlock(&export_lock);
	irq_restore(flags);
}

void export_start(void)
{
	unsigned long flags = spin_lock_irqsave(&export_lock);

	send_meta();
	send_symbols();
	spin_unlock_irqrestore(&export_lock, flags);
}

/* Sends one complete block of some CPU, round robin; false if none. */
static bool send_one_block(void)
{
	unsigned int n = smp_num_cpus();

	for (unsigned int k = 0; k < n; k++) {
		unsigned int cpu = (next_cpu + k) % n;
		uint64_t seq, base;
		uint8_t *data = body + WIRE_VARINT_MAX;
		long len = ring_read_block(cpu, data, sizeof(body) - WIRE_VARINT_MAX,
					   &seq, &base);

		if (len < 0)
			continue;
		/* The body is base_ts then the records: put the varint
		 * right before the data. */
		unsigned int vl = wire_varint_len(base);
		uint8_t *start = data - vl;

		wire_varint_put(start, base);
		send(WIRE_FRAME_DATA, cpu, seq, start, (size_t)len + vl);
		stats.blocks++;
		next_cpu = cpu + 1;
		if (++since_meta >= META_EVERY)
			send_meta();
		return true;
	}
	return false;
}

void export_idle(void)
{
	if (!spin_trylock(&export_lock))
		return;
	while ((!pace_per_tick || __atomic_load_n(&budget, __ATOMIC_RELAXED) >=
		(int64_t)WIRE_ESCAPED_MAX(PAYLOAD_MAX) / 2) && send_one_block())
		;
	spin_unlock(&export_lock);
}

void export_tick(void)
{
	/* An idle line saves up at most a few frames' worth. */
	if (pace_per_tick && __atomic_load_n(&budget, __ATOMIC_RELAXED) < 4 * PAYLOAD_MAX)
		__atomic_fetch_add(&budget, pace_per_tick, __ATOMIC_RELAXED);
	if (smp_num_cpus() == 1)
		export_idle();
}

static void close_here(void *arg)
{
	(void)arg;
	ring_close_block();
}

void export_drain(void)
{
	/* Close every CPU's current block; others by IPI when we can. */
	if (!irq_in_interrupt() && (read_sysreg(daif) & (1 << 7)) == 0)
		smp_call_others(close_here, NULL);
	ring_close_block();
	unsigned long flags = irq_save();

	/* Bounded: a crash may have stopped the CPU that held the lock. */
	for (int i = 0; !spin_trylock(&export_lock); i++)
		if (i == 1000000) {
			irq_restore(flags);
			return;
		}
	while (send_one_block())
		;
	/* Losses noted while draining (stop mode) get their record now
	 * that blocks are free again. */
	ring_close_block();
	while (send_one_block())
		;
	spin_unlock(&export_lock);
	irq_restore(flags);
}

void export_end(void)
{
	unsigned long flags = irq_save();

	for (int i = 0; !spin_trylock(&export_lock); i++)
		if (i == 1000000) {
			irq_restore(flags);
			return;
		}
	send(WIRE_FRAME_END, 0, 0, body, 0);
	spin_unlock(&export_lock);
	irq_restore(flags);
}

void export_get_stats(struct export_stats *out)
{
	*out = stats;
}
