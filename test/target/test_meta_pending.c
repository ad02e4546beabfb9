/*
 * test/target/test_meta_pending.c: a metadata set asked for while another
 * CPU holds the exporter's lock still goes out (issue 39, found with item
 * 8). A probe planted while an idle CPU sent the previous boot's kept
 * blocks had export_meta_now wait 1 s for the lock and then give up: the
 * probe's schema never reached the host, whose report showed its hits as
 * "probe #1025". Now the request stays pending and the lock's holder
 * sends the set before its next block or when it lets the lock go.
 * Deterministic: CPU 1 holds the lock for the whole request (longer than
 * the old 1 s wait) and lets it go only when told.
 */
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "control/control.h"
#include "ktest.h"
#include "kprintf.h"
#include "ktime.h"
#include "output/export.h"

static volatile bool held, go;

static uint64_t meta_frames(void)
{
	struct export_stats s;

	export_get_stats(&s);
	return s.meta_frames;
}

/* CPU 1: the busy exporter. */
static void hold_lock(void *arg)
{
	(void)arg;
	export_hold();
	WRITE_ONCE(held, true);
	while (!READ_ONCE(go))
		cpu_relax();
	export_release();
}

KTEST(meta_asked_for_while_the_lock_is_busy_goes_out)
{
	if (smp_num_cpus() < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_export_ready(), 0);
	WRITE_ONCE(held, false);
	WRITE_ONCE(go, false);
	smp_start(1, hold_lock, NULL);
	for (uint64_t end = time_ns() + 2000000000ULL; !READ_ONCE(held) && time_ns() < end;)
		cpu_relax();
	KT_EXPECT(t, READ_ONCE(held));
	uint64_t before = meta_frames();

	export_meta_now();	/* the lock is CPU 1's until 'go' */
	/* Past the old 1 s wait on every host: CPU 1 still holds it. */
	for (uint64_t end = time_ns() + 1100000000ULL; time_ns() < end;)
		cpu_relax();
	uint64_t during = meta_frames();

	WRITE_ONCE(go, true);
	smp_wait(1);
	uint64_t after = meta_frames();

	kprintf("    # metadata frames: %lu before, %lu while held, %lu after\n",
		(unsigned long)before, (unsigned long)during, (unsigned long)after);
	KT_EQ(t, during, before);	/* nobody else could send it */
	KT_EXPECT(t, after > before);	/* the holder sent it at the release */
}
