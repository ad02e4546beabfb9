/* test/target/test_ring.c: ring buffer modes, nesting and accounting. */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>

#include "barrier.h"
#include "irq.h"
#include "kprintf.h"
#include "ktest.h"
#include "mmu.h"
#include "output/export.h"
#include "percpu.h"
#include "ring/ring.h"
#include "control/control.h"
#include "tracers/tracer.h"
#include "wire.h"

#define CALLER ((uintptr_t)_text + 0x400)

static uint8_t blk[RING_BODY_MAX];
static struct wire_rec_iter it;

struct tally {
	uint64_t events;	/* function entries decoded */
	uint64_t lost;		/* sum of kind-6 counts */
	uint64_t first_site, last_site;
	uint64_t ext;		/* kind-7 records */
	int order_ok;		/* sites strictly increasing */
	int bad;		/* undecodable blocks */
	/* Event numbers (wire.md 2.8): the next one expected, and the
	 * events the numbering says are missing between blocks read. */
	uint64_t next_event, holes;
	uint64_t records;	/* every record but kind 6 */
};

static void write_func(unsigned int site)
{
	unsigned long f = irq_save();	/* the fast path's contract */

	ring_write_func(site, CALLER);
	irq_restore(f);
}

/*
 * These tests count every event they read, so they must be the rings'
 * only reader (ring.h): each holds the exporter (export_hold) from
 * before its ring_setup to its last read. Without it an idle CPU, once
 * any earlier suite started tracing, sends some of the blocks as frames
 * and they are neither read here nor lost.
 */

/* Reads every complete block of this CPU's ring and decodes it. */
static void drain(struct tally *t, unsigned int cpu)
{
	uint64_t seq;
	long len;

	if (!export_held())
		t->bad++;	/* not the only reader: the counts mean nothing */
	while ((len = ring_take_body(cpu, blk, sizeof(blk), &seq)) >= 0) {
		struct wire_record r;
		int rc;

		if (wire_rec_begin(&it, blk, (size_t)len, NULL, NULL)) {
			t->bad++;
			continue;
		}
		if (it.first_event < t->next_event)
			t->bad++;	/* numbers never go back */
		else
			t->holes += it.first_event - t->next_event;
		t->next_event = it.first_event;
		while ((rc = wire_rec_next(&it, &r)) == WIRE_REC_OK) {
			if (r.kind != WIRE_REC_LOST)
				t->next_event++;
			if (r.kind == WIRE_REC_LOST) {
				t->lost += r.count;
			} else if (r.kind == WIRE_REC_EXT) {
				t->ext++;
			} else if (r.kind <= WIRE_REC_FUNC_CALLER) {
				if (t->events && r.site <= t->last_site)
					t->order_ok = 0;
				if (!t->events)
					t->first_site = r.site;
				t->last_site = r.site;
				t->events++;
			}
		}
		if (rc != WIRE_REC_DONE)
			t->bad++;
	}
}

/* A tally for a ring just set up on 'cpu': numbering goes on from what
 * the CPU produced before. */
static void fresh(struct tally *t, unsigned int cpu)
{
	struct ring_cpu *r = ring_of(cpu);

	memset(t, 0, sizeof(*t));
	t->order_ok = 1;
	t->next_event = r ? ring_produced(r) : 0;
}

#define SMALL (4 * RING_BLOCK_SIZE)

KTEST(ring_overwrite_keeps_the_newest_and_counts_the_rest)
{
	struct tally tl;
	struct ring_cpu *r;
	const unsigned int n = 3000;	/* about 12 blocks' worth */

	export_hold();
	KT_EQ(t, ring_setup(SMALL, RING_OVERWRITE), 0);
	fresh(&tl, smp_cpu_id());
	r = ring_of(smp_cpu_id());
	uint64_t before = ring_produced(r);

	for (unsigned int i = 0; i < n; i++)
		write_func(i);
	ring_close_block();
	drain(&tl, smp_cpu_id());
	export_release();
	KT_EQ(t, tl.bad, 0);
	KT_EQ(t, ring_produced(r) - before, n);
	KT_EQ(t, tl.events + tl.lost, n);		/* exact, nothing twice */
	KT_EQ(t, tl.holes, tl.lost);		/* the numbers show the same hole */
	KT_EQ(t, tl.next_event, ring_produced(r));	/* and nothing after it */
	KT_EQ(t, tl.last_site, n - 1);		/* the newest survived */
	KT_EXPECT(t, tl.order_ok);
	KT_EQ(t, tl.first_site, n - tl.events);	/* a contiguous tail */
	KT_EXPECT(t, tl.lost > 0);
}

KTEST(ring_stop_keeps_the_oldest_and_reports_the_drop)
{
	struct tally tl;
	const unsigned int n = 3000;

	export_hold();
	KT_EQ(t, ring_setup(SMALL, RING_STOP), 0);
	fresh(&tl, smp_cpu_id());
	for (unsigned int i = 0; i < n; i++)
		write_func(i);
	drain(&tl, smp_cpu_id());	/* frees the blocks */
	ring_close_block();		/* now the pending loss gets its record */
	drain(&tl, smp_cpu_id());
	export_release();
	KT_EQ(t, tl.bad, 0);
	KT_EQ(t, tl.first_site, 0);		/* the oldest survived */
	KT_EQ(t, tl.last_site, tl.events - 1);	/* a contiguous head */
	KT_EXPECT(t, tl.order_ok);
	KT_EQ(t, tl.events + tl.lost, n);
	KT_EQ(t, tl.holes, tl.lost);
	KT_EXPECT(t, tl.lost > 0);
}

/*
 * An interrupt that fills a whole overwrite ring while the code it
 * interrupted holds a reservation: the block under that reservation is
 * never reused (the interrupt's excess events are dropped and counted),
 * so the outer record comes out whole. Nested writers run LIFO on one
 * CPU, which the calls below reproduce without an interrupt.
 */
KTEST(ring_nested_writer_filling_the_ring_spares_the_open_reservation)
{
	struct tally tl;
	uint8_t pattern[24];
	const unsigned int n = 4 * RING_BLOCK_SIZE / 2;	/* ~4 rings' worth */
	unsigned long f;

	export_hold();
	KT_EQ(t, ring_setup(2 * RING_BLOCK_SIZE, RING_OVERWRITE), 0);
	fresh(&tl, smp_cpu_id());
	struct ring_cpu *r = ring_of(smp_cpu_id());
	uint64_t before = ring_produced(r);

	for (unsigned int i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(0xc0 + i);
	uint8_t *p = ring_reserve(WIRE_REC_EXT, 2 + sizeof(pattern));

	KT_EXPECT(t, p != NULL);
	f = irq_save();
	for (unsigned int i = 0; i < n; i++)
		ring_write_func(i & 0x7f, CALLER);	/* the "interrupt" */
	irq_restore(f);
	if (p) {
		p[0] = 9;
		p[1] = sizeof(pattern);
		memcpy(p + 2, pattern, sizeof(pattern));
	}
	ring_commit();
	drain(&tl, smp_cpu_id());	/* before a close reuses a block */
	ring_close_block();
	drain(&tl, smp_cpu_id());
	export_release();
	KT_EQ(t, tl.bad, 0);
	KT_EQ(t, tl.ext, 1);			/* the outer record survived */
	KT_EQ(t, ring_produced(r) - before, n + 1);
	KT_EQ(t, tl.events + tl.ext + tl.holes, n + 1);
	KT_EXPECT(t, r->dropped > 0);		/* the interrupt's excess */
}

#define SGI_TEST 3
static volatile int irq_wrote;

static void sgi_writes(unsigned int irq, void *arg)
{
	(void)irq;
	(void)arg;
	ring_write_func(7, CALLER);	/* interrupt context: masked */
	ring_write_func(8, CALLER);
	irq_wrote = 1;
}

KTEST(ring_nested_writer_in_an_irq_leaves_no_torn_record)
{
	struct tally tl;
	uint8_t pattern[40];

	export_hold();
	KT_EQ(t, ring_setup(SMALL, RING_OVERWRITE), 0);
	fresh(&tl, smp_cpu_id());
	irq_register(SGI_TEST, sgi_writes, NULL);
	for (unsigned int i = 0; i < sizeof(pattern); i++)
		pattern[i] = (uint8_t)(0xa0 + i);
	write_func(1);
	/* Hold a reservation for an extension record, let an interrupt
	 * write two records, then fill the reservation in. */
	uint8_t *p = ring_reserve(WIRE_REC_EXT, 1 + 1 + sizeof(pattern));

	KT_EXPECT(t, p != NULL);
	irq_wrote = 0;
	irqchip_send_sgi(SGI_TEST, smp_cpu_id());
	for (int i = 0; i < 1000000 && !irq_wrote; i++)
		cpu_relax();
	KT_EQ(t, irq_wrote, 1);
	/* Not readable while the reservation is open. */
	ring_close_block();
	uint64_t seq;

	KT_EQ(t, ring_take_body(smp_cpu_id(), blk, sizeof(blk), &seq), -1);
	p[0] = 9;			/* subtype */
	p[1] = sizeof(pattern);		/* length */
	memcpy(p + 2, pattern, sizeof(pattern));
	ring_commit();
	ring_close_block();
	/* Decode and check the extension record's bytes and the order. */
	long len = ring_take_body(smp_cpu_id(), blk, sizeof(blk), &seq);

	export_release();
	struct wire_record r;
	unsigned int kinds[8], k = 0;

	KT_EXPECT(t, len > 0);
	KT_EQ(t, wire_rec_begin(&it, blk, (size_t)(len > 0 ? len : 0), NULL, NULL), 0);
	while (k < 8 && wire_rec_next(&it, &r) == WIRE_REC_OK) {
		kinds[k++] = r.kind;
		if (r.kind == WIRE_REC_EXT) {
			KT_EQ(t, r.subtype, 9);
			KT_EQ(t, r.data_len, sizeof(pattern));
			KT_EXPECT(t, r.data && !memcmp(r.data, pattern, sizeof(pattern)));
		}
	}
	KT_EQ(t, k, 4);			/* func, ext, func, func */
	KT_EQ(t, kinds[1], WIRE_REC_EXT);
	KT_EQ(t, kinds[2], WIRE_REC_FUNC_CALLER);
	KT_EQ(t, kinds[3], WIRE_REC_FUNC_CALLER);
}

/* Overflow with a slow reader on another CPU: every event is either
 * decoded or counted in a lost record, exactly, with the exporter
 * running on the idle CPUs (as after any suite that traced) and held
 * off by this reader. */
static volatile int writer_done;

static void overflow_writer(void *arg)
{
	unsigned int n = *(unsigned int *)arg;

	for (unsigned int i = 0; i < n; i++)
		write_func(i % 1000);
	ring_close_block();
	smp_store_release(&writer_done, 1);
}

static void run_overflow(struct ktest_ctx *t, enum ring_mode mode)
{
	struct tally tl;
	unsigned int n = 20000, cpu = 1;

	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_export_ready(), 0);
	bool idle_was = export_idle_enable(true);

	export_hold();
	KT_EQ(t, ring_setup(SMALL, mode), 0);
	fresh(&tl, cpu);
	uint64_t before = ring_produced(ring_of(cpu));

	writer_done = 0;
	smp_start(cpu, overflow_writer, &n);
	while (!smp_load_acquire(&writer_done)) {
		drain(&tl, cpu);	/* a reader slower than the writer */
		time_delay_us(50);
	}
	smp_wait(cpu);
	drain(&tl, cpu);
	smp_call(cpu, (smp_fn)ring_close_block, NULL);	/* pending losses */
	drain(&tl, cpu);
	export_release();
	export_idle_enable(idle_was);
	KT_EQ(t, tl.bad, 0);
	KT_EQ(t, ring_produced(ring_of(cpu)) - before, n);
	KT_EQ(t, tl.events + tl.lost, n);
	/* The numbering alone finds every missing event, at its place. */
	KT_EQ(t, tl.holes + (ring_produced(ring_of(cpu)) - tl.next_event), tl.lost);
	kprintf("    # %s: %lu decoded, %lu lost\n", mode == RING_STOP ? "stop" : "overwrite",
		(unsigned long)tl.events, (unsigned long)tl.lost);
}

KTEST(ring_overflow_with_a_slow_reader_accounts_exactly_overwrite)
{
	run_overflow(t, RING_OVERWRITE);
}

KTEST(ring_overflow_with_a_slow_reader_accounts_exactly_stop)
{
	run_overflow(t, RING_STOP);
}

/*
 * The exporter reads a block in place (ring_peek) and claims it only
 * after (ring_claim): a writer that laps the ring meanwhile takes that
 * block as lost, and the claim must then fail, so the torn frame the
 * reader built is never sent nor counted; the next peek shows a newer
 * block, which it can claim.
 */
KTEST(ring_claim_refuses_a_block_the_writer_took_while_it_was_read)
{
	unsigned int cpu = smp_cpu_id();
	struct ring_view v, v2;
	struct ring_totals a, b;
	struct tally tl;

	export_hold();
	KT_EQ(t, ring_setup(SMALL, RING_OVERWRITE), 0);
	fresh(&tl, cpu);
	for (unsigned int i = 0; i < 600; i++)	/* a block and a half */
		write_func(i);
	KT_EXPECT(t, ring_peek(cpu, &v));
	ring_get_totals(cpu, &a);
	for (unsigned int i = 0; i < 3000; i++)	/* laps the 4 blocks */
		write_func(i);
	ring_get_totals(cpu, &b);
	KT_EXPECT(t, !ring_claim(cpu, &v));
	KT_EXPECT(t, ring_peek(cpu, &v2));
	KT_EXPECT(t, v2.seq > v.seq);
	KT_EXPECT(t, ring_claim(cpu, &v2));
	ring_close_block();
	drain(&tl, cpu);
	export_release();
	/* The peeked block's events went to the overwritten count. The
	 * claimed one was never sent (nor marked sent: the trace's books
	 * would count it decoded): it stays in the ring's books, lost on
	 * the target, as a block a crashed exporter had claimed. */
	KT_EXPECT(t, b.overwritten - a.overwritten >= v.events);
	ring_get_totals(cpu, &b);
	KT_EQ(t, tl.bad, 0);
	KT_EQ(t, b.in_ring, v2.events);
}
