/*
 * trace/ring/ring_ts.h: the word a ring keeps its last record's time
 * and its open block's count of events in (struct ring_cpu.ts_events).
 *
 * One word, so that a recorder in assembly commits a record with one
 * STP of it and wr (trace/core/recorder.h REC_COMMIT): the one store
 * outside its block a restartable recorder may make (kernel/cpu/
 * restart.h, trace/tracers/rec_function.S). The count takes the low 16
 * bits (a block holds fewer events than it has bytes), the time the
 * counter's low 48 bits above it: deltas are taken modulo 2^48, exact
 * while two records of a CPU are less than 2^48 ticks apart (52 days at
 * 62.5 MHz, 78 hours at 1 GHz).
 */
#ifndef TRACE_RING_TS_H
#define TRACE_RING_TS_H

#include <stdint.h>

#define RING_TS_SHIFT		16
#define RING_TS_MASK		((1ULL << (64 - RING_TS_SHIFT)) - 1)

/* The ticks from the time in ts_events to 'now', modulo 2^48. */
static inline uint64_t ring_ts_delta(uint64_t ts_events, uint64_t now)
{
	return (now - (ts_events >> RING_TS_SHIFT)) & RING_TS_MASK;
}

/* The word for time 'now' and 'count' events. */
static inline uint64_t ring_ts_make(uint64_t now, unsigned int count)
{
	return now << RING_TS_SHIFT | count;
}

#endif /* TRACE_RING_TS_H */
