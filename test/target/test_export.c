/*
 * test/target/test_export.c: the exporter never holds a CPU that has
 * work to do. An idle CPU that is sending a long backlog of frames when
 * work is handed to it must start the work after at most a few frames,
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
#include "output/ring.h"
#include "tracers/tracer.h"

#define CALLER ((uintptr_t)_text + 0x400)

static uint64_t frames_at_start[NR_CPUS];

static uint64_t frames_now(void)
{
	struct export_stats s;

	export_get_stats(&s);
	return READ_ONCE(s.frames);
}

static void note_start(void *arg)
{
	(void)arg;
	frames_at_start[smp_cpu_id()] = frames_now();
}

KTEST(exporter_leaves_a_backlog_for_handed_work)
{
	unsigned int n = smp_num_cpus();

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_export_ready(), 0);
	export_idle_enable(true);
	KT_EQ(t, trace_set_buffer(64 * 1024, 0), 0);
	/* A backlog: about 60 full blocks on this CPU. */
	unsigned long f = irq_save();

	for (unsigned int i = 0; i < 60 * 1000 / 3; i++)
		ring_write_func(i & 0x7f, CALLER);
	irq_restore(f);
	ring_close_block();
	/* Wait until an idle CPU has begun sending it, then hand every
	 * idle CPU work and see how many frames went out before it ran. */
	uint64_t before = frames_now(), deadline = time_ns() + 2000000000ULL;

	while (frames_now() < before + 2 && time_ns() < deadline)
		cpu_relax();
	uint64_t handed[NR_CPUS], worst = 0;

	for (unsigned int c = 1; c < n; c++) {
		handed[c] = frames_now();
		smp_start(c, note_start, NULL);
	}
	for (unsigned int c = 1; c < n; c++) {
		smp_wait(c);
		if (frames_at_start[c] - handed[c] > worst)
			worst = frames_at_start[c] - handed[c];
	}
	kprintf("    # %lu frames sent between the hand-off and the latest start\n",
		(unsigned long)worst);
	KT_EXPECT(t, handed[1] >= before + 2);	/* the backlog was being sent */
	/* The frame in flight, and what other idle CPUs (not yet handed
	 * work) send meanwhile: a few, never the backlog (about 60). */
	KT_EXPECT(t, worst <= 4);
	export_flush();
	/* The other suites read the rings themselves. */
	export_idle_enable(false);
}
