/*
 * test/target/test_ring_ts.c: the ring keeps its last record's time in
 * 48 bits beside the block's count (trace/ring/ring_ts.h); the deltas it
 * writes are still exact across a long gap, and a time given before the
 * last record's (a caller that broke ring_reserve_at's rule) is written
 * as that time, without moving it.
 */
#include <stdint.h>

#include "barrier.h"
#include "ktest.h"
#include "ktime.h"
#include "output/export.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracecheck.h"
#include "wire.h"

/* A kind 1 record of site 5 with a caller at _text + 4, at 'now'. */
static void put_at(uint64_t now)
{
	uint8_t *p = ring_reserve_at(WIRE_REC_FUNC_CALLER, 2, now);

	if (p) {
		p[0] = 5;	/* the site */
		p[1] = 1;	/* the caller, in 4-byte units from _text */
		ring_commit();
	}
}

KTEST(ring_ts_deltas_stay_exact_past_2_to_the_47_ticks_and_never_go_back)
{
	static struct rec recs[8];
	/* Longer than any 32-bit delta and than half of 2^48: a gap a
	 * test of the delta's sign bit would have taken for a step back. */
	const uint64_t gap = (1ULL << 47) + 12345;

	check_reset();
	export_hold();
	unsigned long flags = irq_save();
	uint64_t t0 = counter_read();

	put_at(t0);
	put_at(t0 + gap);
	put_at(t0 + gap - 7);	/* before the last: written at its time */
	put_at(t0 + gap + 3);	/* 3 after the last, not 10 */
	unsigned int events = ring_of(smp_cpu_id())->cur_events;

	irq_restore(flags);
	unsigned int n = check_collect(smp_cpu_id(), recs, 8);

	export_release();
	KT_EQ(t, events, 4);
	KT_EQ(t, n, 4);
	KT_EQ(t, recs[0].ts, t0);
	KT_EQ(t, recs[1].ts - recs[0].ts, gap);
	KT_EQ(t, recs[2].ts, recs[1].ts);
	KT_EQ(t, recs[3].ts - recs[2].ts, 3);
	for (unsigned int i = 0; i < n; i++)
		KT_EQ(t, recs[i].site, 5);
}
