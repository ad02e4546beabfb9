/* trace/output/export.c: see export.h. */
#include <stdbool.h>
#include <string.h>

#include "barrier.h"
#include "console.h"
#include "core/core.h"
#include "export.h"
#include "export_int.h"
#include "irq.h"
#include "kprintf.h"
#include "ktime.h"
#include "mmu.h"
#include "percpu.h"
#include "prev.h"
#include "ring/ring.h"
#include "smp.h"
#include "events/tracepoint.h"
#include "uart.h"
#include "wire.h"
#include "wire_line.h"

#define PAYLOAD_MAX	EXPORT_PAYLOAD_MAX
#define META_EVERY	256	/* data frames between metadata frames */

#define IDLE_FRAMES_MAX	8	/* frames per call, then back to the idle loop */

/*
 * The exporter's lock: the id + 1 of the CPU that holds it, 0 when free.
 * Idle CPUs only try it; the end of a run waits for it, and takes it over
 * from a CPU that was stopped while holding it (a crash). Everything
 * below is used only by its holder.
 */
static volatile int export_owner;
/* Set once at the end of a run: idle exporters stay out for good. */
static volatile bool closing;
/* Idle CPUs export unless a test that reads the rings itself says not. */
static volatile bool idle_off;
/* A metadata set asked for (export_meta_now) and not sent yet: set by
 * any CPU, atomically; taken by the lock's holder before the next frame
 * of records goes out and before it lets the lock go, so a new probe's
 * schema reaches the host before or with any record of it even when the
 * lock was busy at the request (it used to be dropped after 1 s). */
static volatile bool meta_pending;
static uint8_t body[PAYLOAD_MAX];	/* the end-of-stream frame's body */
static uint8_t escaped[WIRE_ESCAPED_MAX(PAYLOAD_MAX)];	/* a frame on the line */
static struct export_stats stats;
static uint64_t since_meta;
static uint32_t pace_per_tick;	/* bytes per tick, 0 = unlimited */
/* Bytes the line may still carry; added by CPU 0's tick and spent by
 * the sender, both atomically (the sender may hold export_lock for a
 * long time on a slow line). */
static int64_t budget;
static unsigned int next_cpu;
/* How the run ended, for the end-of-stream frame: set once, by the CPU
 * where it happened (export_set_outcome), before the end of the run. */
static struct wire_end_run run_end;

static bool export_trylock(void)
{
	int none = 0;

	return __atomic_compare_exchange_n(&export_owner, &none, (int)cpu_id() + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void send_meta(void);

/* The holder: a metadata set that was asked for goes out now. */
static void meta_due(void)
{
	if (__atomic_exchange_n(&meta_pending, false, __ATOMIC_ACQUIRE))
		send_meta();
}

static void export_unlock(void)
{
	meta_due();
	__atomic_store_n(&export_owner, 0, __ATOMIC_RELEASE);
}

/* True if 'cpu' stopped for good (smp_stop_others): it runs no more. */
bool export_cpu_stopped(unsigned int cpu)
{
	return cpu != cpu_id() && !READ_ONCE(cpu_data(cpu)->online);
}

/* Waits up to 'us' for the lock; a holder that was stopped loses it. */
static bool export_lock_wait(uint64_t us)
{
	uint64_t end = counter_read() + us * time_counter_hz() / 1000000;

	for (;;) {
		if (export_trylock())
			return true;
		int held = READ_ONCE(export_owner);

		if (held && export_cpu_stopped((unsigned int)held - 1) &&
		    __atomic_compare_exchange_n(&export_owner, &held, (int)cpu_id() + 1,
						false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			/* It may have been stopped halfway through a metadata
			 * set (a probe's schema in its last frames): the whole
			 * set again before the next block, or the host names
			 * the probe's records by number alone. */
			__atomic_store_n(&meta_pending, true, __ATOMIC_RELEASE);
			return true;
		}
		if (counter_read() > end)
			return false;
		cpu_relax();
	}
}

void export_set_pace(uint32_t baud)
{
	/* 8N1: ten bit times per byte. */
	pace_per_tick = baud ? baud / 10 / time_tick_hz() + 1 : 0;
}

/* The frame begin() started in l (0, or -1 if it does not fit) with
 * the body from b, into escaped[] in one pass: its bytes, or 0. */
static size_t frame_finish(struct wire_line *l, int begun, const uint8_t *b, size_t len)
{
	if (begun)
		return 0;
	wire_line_add(l, b, len);
	return wire_line_end(l);
}

static void frame_write(size_t e)
{
	console_write_raw(escaped, e);
	stats.frames++;
	stats.bytes += e;
	__atomic_fetch_sub(&budget, (int64_t)e, __ATOMIC_RELAXED);
}

bool export_send(unsigned int type, unsigned int cpu, uint64_t seq,
		 const uint8_t *b, size_t len)
{
	struct wire_line l;
	size_t e = frame_finish(&l, wire_line_begin(&l, escaped, sizeof(escaped), type, cpu, seq, len),
				b, len);

	if (e)
		frame_write(e);
	return e != 0;
}

static void send_meta(void)
{
	stats.meta_frames += export_send_meta();
	since_meta = 0;
}

void export_frame(unsigned int type, unsigned int cpu, uint64_t seq,
		  const uint8_t *b, size_t len)
{
	unsigned long flags = irq_save();
	bool mine = READ_ONCE(export_owner) == (int)cpu_id() + 1;

	if (mine || export_lock_wait(100000)) {
		export_send(type, cpu, seq, b, len);
		if (!mine)
			export_unlock();
	}
	irq_restore(flags);
}

void export_start(void)
{
	unsigned long flags = irq_save();

	if (export_lock_wait(1000000)) {
		send_meta();
		export_send_symbols();
		prev_send_info();	/* its blocks go before this boot's */
		export_unlock();
	}
	irq_restore(flags);
}

/* Never waits: a busy lock's holder sends it (meta_pending). */
void export_meta_now(void)
{
	unsigned long flags = irq_save();

	__atomic_store_n(&meta_pending, true, __ATOMIC_RELEASE);
	if (export_held())
		meta_due();
	else if (export_trylock())
		export_unlock();	/* sends it */
	irq_restore(flags);
}

/* Sends one complete block of some CPU, round robin; false if none. */
static bool send_one_block(void)
{
	unsigned int n = smp_num_cpus();

	meta_due();
	if (prev_send_one())
		return true;	/* the previous boot's blocks first */
	for (unsigned int k = 0; k < n; k++) {
		unsigned int cpu = (next_cpu + k) % n;
		struct ring_view v;
		bool claimed = false;

		/* Built from the block in place with interrupts on, then
		 * claimed, written and counted with them masked: a crash's
		 * stop request (an SGI) lands before the claim (the block
		 * stays the ring's) or after the frame went out; never a
		 * block counted sent that did not go out, nor the reverse. A
		 * writer that lapped the ring while we read makes the claim
		 * fail (ring_peek): the next oldest, then. */
		while (!claimed && ring_peek(cpu, &v)) {
			meta_due();	/* asked for while this block filled */
			struct wire_line l;
			size_t e = frame_finish(&l, wire_line_begin_block(&l, escaped, sizeof(escaped),
						cpu, v.seq, v.base_ts, v.first, v.len), v.data, v.len);
			unsigned long flags = irq_save();

			if (ring_claim(cpu, &v)) {
				claimed = true;
				if (e) {
					frame_write(e);
					ring_mark_sent(cpu, v.events);
				}
			}
			irq_restore(flags);
		}
		if (!claimed)
			continue;
		stats.blocks++;
		next_cpu = cpu + 1;
		if (++since_meta >= META_EVERY)
			send_meta();
		return true;
	}
	return false;
}

/*
 * Idle CPUs (thread context): a few frames, as the pace allows, and back
 * to the idle loop as soon as this CPU is handed work, so the exporter
 * never holds a CPU that has something to do. True when it stopped with
 * frames still to send (the idle loop calls again instead of waiting).
 */
bool export_idle(void)
{
	struct percpu *me = this_cpu();
	bool more = false;

	if (READ_ONCE(closing) || READ_ONCE(idle_off) || !export_trylock())
		return false;
	for (unsigned int n = 0;; n++) {
		if (READ_ONCE(closing) || READ_ONCE(me->work_fn) ||
		    (pace_per_tick && __atomic_load_n(&budget, __ATOMIC_RELAXED) <
		     (int64_t)WIRE_ESCAPED_MAX(PAYLOAD_MAX) / 2))
			break;
		if (n == IDLE_FRAMES_MAX) {
			more = true;
			break;
		}
		if (!send_one_block())
			break;
	}
	export_unlock();
	return more;
}

bool export_idle_enable(bool on)
{
	return !__atomic_exchange_n(&idle_off, !on, __ATOMIC_RELAXED);
}

void export_tick(void)
{
	/* An idle line saves up at most a few frames' worth. */
	if (pace_per_tick && __atomic_load_n(&budget, __ATOMIC_RELAXED) < 4 * PAYLOAD_MAX)
		__atomic_fetch_add(&budget, pace_per_tick, __ATOMIC_RELAXED);
	if (smp_num_cpus() == 1)
		export_idle();
}

/* Blocks export_flush sends per stretch with interrupts masked. */
#define FLUSH_BATCH	8

void export_flush(void)
{
	struct ring_cpu *r0 = ring_of(0);
	/* Bounded: while others keep writing there is always one more. */
	unsigned int left = (r0 ? r0->nblocks : 0) * smp_num_cpus();

	export_close_all(false, 10000);
	/* FLUSH_BATCH blocks at a time, interrupts masked only while they go
	 * out (under a second at 115200 baud): rings of 1/16 of RAM (the
	 * default) take minutes on a slow line, which must not look like a
	 * CPU stuck with interrupts masked (the lockup detector reported the
	 * soak's first buffer change). The idle CPUs' exporters may send
	 * some blocks in between. */
	for (bool sent = true; sent && left;) {
		unsigned long flags = irq_save();

		sent = false;
		if (export_lock_wait(1000000)) {
			for (unsigned int k = 0; k < FLUSH_BATCH && left; k++, left--)
				if (!(sent = send_one_block()))
					break;
			export_unlock();
		}
		irq_restore(flags);
	}
}

void export_hold(void)
{
	while (!export_lock_wait(1000000))
		;
}

void export_release(void)
{
	export_unlock();
}

bool export_held(void)
{
	return READ_ONCE(export_owner) == (int)cpu_id() + 1;
}

void export_close(void)
{
	unsigned long flags;

	if (READ_ONCE(closing))
		return;
	WRITE_ONCE(closing, true);
	export_close_all(true, 2 * SMP_STOP_US);	/* half to answer, as a patch round */
	flags = irq_save();
	/* Idle exporters leave between two frames; one that was stopped
	 * holding the lock loses it. Kept from here to the end. The end of
	 * a run that a report ends (a lockup, the watchdog) may come with
	 * the lock already this CPU's: it must not wait for itself. */
	if (export_held() || export_lock_wait(2000000)) {
		while (send_one_block())
			;
		/* Losses noted while draining (stop mode) get their record
		 * now that blocks are free again (informational: the end
		 * frame carries the totals). */
		ring_close_block();
		while (send_one_block())
			;
	}
	irq_restore(flags);
}

void export_set_outcome(unsigned int outcome, int status)
{
	run_end.outcome = outcome;
	run_end.status = status;
	smp_store_release(&run_end.known, 1);
}

void export_end(void)
{
	struct wire_end_cpu c[NR_CPUS];
	unsigned int n = smp_num_cpus();
	unsigned long flags = irq_save();

	export_close();
	if (READ_ONCE(export_owner) != (int)cpu_id() + 1 && !export_lock_wait(2000000)) {
		irq_restore(flags);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct ring_totals t;

		ring_get_totals(i, &t);
		/* What never left the ring (a block still open) was thrown
		 * away on the target too. */
		c[i] = (struct wire_end_cpu){ i, t.produced, t.overwritten, t.dropped,
					      t.discarded + t.in_ring, t.blocks };
	}
	size_t len = wire_end_encode(body, sizeof(body), c, n,
				     smp_load_acquire(&run_end.known) ? &run_end : NULL);

	export_send(WIRE_FRAME_END, 0, 0, body, len);
	uart_flush();
	irq_restore(flags);
}

void export_get_stats(struct export_stats *out)
{
	*out = stats;
}
