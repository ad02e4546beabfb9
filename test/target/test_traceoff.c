/*
 * test/target/test_traceoff.c: a traceoff (ring_pause) stops recording
 * on every CPU, the inline paths included (the function recorder in
 * assembly reads only wr_fast_end, never ring_paused), whenever it lands.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "irq.h"
#include "kprintf.h"
#include "ktest.h"
#include "ktime.h"
#include "output/export.h"
#include "ring/ring.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/tracer.h"

#define CALLS_WHILE_OFF	50

static struct rec recs[CHECK_MAX];

static unsigned int alpha_records(unsigned int n)
{
	unsigned int c = 0;

	for (unsigned int i = 0; i < n; i++)
		c += (recs[i].kind == WIRE_REC_FUNC || recs[i].kind == WIRE_REC_FUNC_CALLER) &&
		     recs[i].site == (uint64_t)site_of("tt_alpha");
	return c;
}

/*
 * The interleaving, replayed on one CPU: this CPU's slow path has read
 * ring_paused (false) and is about to open its next block when a
 * traceoff lands (another CPU's ring_pause, which NULLs every CPU's
 * wr_fast_end); then it opens the block. The calls that follow, while
 * recording is off, must record nothing.
 */
KTEST(traceoff_landing_while_a_block_opens_records_nothing)
{
	unsigned int cpu = smp_cpu_id();

	export_hold();		/* the only reader of what it counts (ring.h) */
	check_reset();
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	tt_alpha(1);			/* recorded: a block is open */
	struct ring_cpu *r = ring_of(cpu);
	unsigned long f = irq_save();

	ring_pause(true);		/* the traceoff lands ... */
	bool opened = ring_next_block(r, counter_read());	/* ... then the owner opens */
	irq_restore(f);
	uint64_t before = ring_produced(r);

	for (int i = 0; i < CALLS_WHILE_OFF; i++)
		tt_alpha(i);		/* traceoff: none recorded */
	uint64_t while_off = ring_produced(r) - before;

	ring_pause(false);
	tt_alpha(2);			/* recorded again */
	trace_stop();
	trace_set_tracer("nop");
	KT_EXPECT(t, opened);
	kprintf("# events recorded during the traceoff: %lu of %d calls\n",
		   (unsigned long)while_off, CALLS_WHILE_OFF);
	KT_EQ(t, while_off, 0);
	KT_EQ(t, alpha_records(check_collect(cpu, recs, CHECK_MAX)), 2);
	export_release();
}

/*
 * The same race for real: CPU 1 calls tt_alpha without pause while CPU 0
 * switches recording off and on. After each traceoff CPU 1, once it has
 * seen it, makes CALLS_WHILE_OFF more calls and counts what its ring
 * recorded of them: nothing, every round. (How often a round lands in
 * the window depends on timing; the assertion does not.)
 */
#define ROUNDS	600

static volatile unsigned int round_asked, round_done, stop_worker;
static volatile uint64_t recorded_off;

static void worker(void *arg)
{
	struct ring_cpu *r = ring_of(smp_cpu_id());
	unsigned int seen = 0;

	(void)arg;
	while (!READ_ONCE(stop_worker)) {
		tt_alpha((int)seen);
		if (smp_load_acquire(&round_asked) == seen)
			continue;
		seen++;
		uint64_t before = ring_produced(r);

		for (int i = 0; i < CALLS_WHILE_OFF; i++)
			tt_alpha(i);
		recorded_off += ring_produced(r) - before;
		smp_store_release(&round_done, seen);
	}
}

KTEST(traceoff_from_another_cpu_stops_its_inline_recorder)
{
	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	check_reset();
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	round_asked = round_done = stop_worker = 0;
	recorded_off = 0;
	smp_start(1, worker, NULL);
	for (unsigned int i = 1; i <= ROUNDS; i++) {
		/* Let CPU 1 run a varying stretch with recording on, so the
		 * traceoffs land at varying points of its blocks. */
		for (uint64_t end = counter_read() + 20 + (i * 37) % 400; counter_read() < end;)
			cpu_relax();
		ring_pause(true);
		smp_store_release(&round_asked, i);
		while (smp_load_acquire(&round_done) != i)
			cpu_relax();
		ring_pause(false);
	}
	WRITE_ONCE(stop_worker, 1);
	smp_wait(1);
	trace_stop();
	trace_set_tracer("nop");
	kprintf("# events recorded by CPU 1 while off: %lu in %d rounds of %d calls\n",
		   (unsigned long)recorded_off, ROUNDS, CALLS_WHILE_OFF);
	KT_EQ(t, recorded_off, 0);
}
