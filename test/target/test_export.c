/*
 * test/target/test_export.c: the exporter never holds a CPU that has
 * work to do. An idle CPU that is sending a long backlog of frames when
 * work is handed to it must start the work after the block in flight,
 * not after the whole backlog (a reviewer saw a worker start 297 s late
 * with graph tracing on every function at tick_hz=10000).
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "config.h"
#include "output/export.h"
#include "irq.h"
#include "kprintf.h"
#include "ktest.h"
#include "mmu.h"
#include "ring/ring.h"
#include "control/control.h"
#include "tracers/tracer.h"

#define CALLER ((uintptr_t)_text + 0x400)

static uint64_t blocks_at_start;
static volatile bool release_busy;

/* Data blocks sent so far. Metadata frames are left out: a metadata set
 * goes out with the block that makes it due, as one unit. */
static uint64_t blocks_now(void)
{
	struct export_stats s;

	export_get_stats(&s);
	return READ_ONCE(s.blocks);
}

static void note_start(void *arg)
{
	(void)arg;
	blocks_at_start = blocks_now();
}

/* Keeps a CPU out of the idle loop, so it cannot export. */
static void stay_busy(void *arg)
{
	(void)arg;
	while (!READ_ONCE(release_busy))
		cpu_relax();
}

/*
 * Only CPU 1 is idle (the others are kept busy), so only it can send the
 * backlog. The bound is what export_idle() guarantees, whatever the host's
 * speed or how QEMU schedules the CPUs: it looks for work before every
 * block, so once the work is visible at most the block in flight goes
 * out. Counting from after smp_start() (and a full barrier) leaves out
 * what CPU 1 sent before it could see the work; a CPU descheduled by a
 * loaded host then sends nothing, it does not send more.
 */
KTEST(exporter_leaves_a_backlog_for_handed_work)
{
	unsigned int n = smp_num_cpus();

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_export_ready(), 0);
	WRITE_ONCE(release_busy, false);
	for (unsigned int c = 2; c < n; c++)
		smp_start(c, stay_busy, NULL);
	export_idle_enable(true);
	KT_EQ(t, trace_set_buffer(64 * 1024, 0), 0);
	/* A backlog: about 60 full blocks on this CPU. */
	unsigned long f = irq_save();

	for (unsigned int i = 0; i < 60 * 1000 / 3; i++)
		ring_write_func(i & 0x7f, CALLER);
	irq_restore(f);
	ring_close_block();
	/* Wait until CPU 1 has begun sending it, then hand it work. */
	uint64_t before = blocks_now(), deadline = time_ns() + 2000000000ULL;

	while (blocks_now() < before + 2 && time_ns() < deadline)
		cpu_relax();
	smp_start(1, note_start, NULL);
	dmb_ish();
	uint64_t handed = blocks_now();

	smp_wait(1);
	/*
	 * Signed: CPU 1 may run note_start and go back to sending the
	 * backlog before this CPU has read 'handed' (seen on raspi4b, whose
	 * CPUs share one host thread: 'late' was 2^64 - 1). Then no block
	 * came late, and the difference is below zero.
	 */
	int64_t late = (int64_t)(blocks_at_start - handed);

	kprintf("    # %ld blocks sent between the hand-off and the start\n", (long)late);
	KT_EXPECT(t, handed >= before + 2);	/* the backlog was being sent */
	/* The block in flight: never the rest of the backlog (about 60). */
	KT_EXPECT(t, late <= 1);
	WRITE_ONCE(release_busy, true);
	for (unsigned int c = 2; c < n; c++)
		smp_wait(c);
	export_flush();
	/* The other suites read the rings themselves. */
	export_idle_enable(false);
}
