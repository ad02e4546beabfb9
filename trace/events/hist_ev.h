/*
 * trace/events/hist_ev.h: histograms of a tracepoint field kept on the
 * target (hist_ev.c): for each spec SYSTEM:EVENT:FIELD[:keys=KEY] and
 * each CPU, how many hits had FIELD's value in each power-of-two range
 * (the buckets of tracers/hist.h), per value of the KEY field when there
 * is one. At most HIST_EV_KEYS keys per CPU and spec; the hits of a key
 * that found no room are counted in 'other'.
 */
#ifndef TRACE_HIST_EV_H
#define TRACE_HIST_EV_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_tracepoint.h>

#include "tracers/hist.h"

#define HIST_EV_MAX	4	/* specs at a time */
#define HIST_EV_KEYS	64	/* keys per CPU and spec (a power of two) */
#define HIST_EV_NOKEY	0xff

struct hist_ev_row {
	uint64_t used;			/* 1 once 'key' is this row's */
	uint64_t key;			/* the key field's value (0 without) */
	uint64_t sum;			/* the values counted */
	uint64_t bucket[HIST_BUCKETS];	/* hits per log2 range of the value */
};

struct hist_ev_table {			/* one CPU's, one spec's */
	uint32_t seen;			/* the epoch its counts are of */
	uint32_t nkeys;			/* rows used */
	uint64_t other;			/* hits whose key found no row */
	struct hist_ev_row rows[HIST_EV_KEYS];
};

struct hist_ev_spec {
	const struct tp_event *ev;
	uint8_t field;			/* the value's index in ev->fields */
	uint8_t key;			/* the key's, or HIST_EV_NOKEY */
	uint64_t vmask, kmask;		/* the fields' widths (unsigned only) */
};

/* Parses "SYS:EV:FIELD[:keys=KEY][,SPEC...]" (1 to HIST_EV_MAX specs),
 * allocates, attaches the probe and starts from zero; or says why not
 * on the console ("hist: ...") and returns TRACE_EINVAL, TRACE_ENOMEM
 * or the attach error, nothing changed. TRACE_EBUSY if already on.
 * Thread context. */
int hist_ev_start(const char *specs);
/* Detaches (the counts are kept: printing and sending still work). */
int hist_ev_stop(void);
bool hist_ev_on(void);
/* While off: back to never started (nothing sent or printed at the end
 * of the run). 0, or TRACE_EBUSY while on. */
int hist_ev_forget(void);
/* Every count to zero, without stopping anyone (as hist_clear). */
void hist_ev_clear(void);
/* The specs of the last start (0 if none ever started). */
unsigned int hist_ev_specs(const struct hist_ev_spec **specs);
/* CPU cpu's table of spec k, or NULL when empty (not yet zeroed by its
 * CPU since a clear, or never hit). Read while it changes: a row may be
 * a hit behind. */
const struct hist_ev_table *hist_ev_table_of(unsigned int k, unsigned int cpu);

/* trace/output/hist_ev_out.c: frame type 10 kind 1 (docs/wire.md
 * 2.12), one dump per CPU and spec; and bars on the console. */
void hist_ev_send(void);
void hist_ev_print(void);

#endif /* TRACE_HIST_EV_H */
