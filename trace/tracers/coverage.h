/* trace/tracers/coverage.h: function coverage (coverage.c). */
#ifndef TRACE_COVERAGE_H
#define TRACE_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>

extern struct trace_ops tracer_coverage_ops;

/* Before registering tracer_coverage_ops (its filters set): the bitmap
 * of reached sites, cleared, and the chosen sites taken from the ops'
 * filters. The bits go to 'kept' (site_bitmap_words() words, zeroed:
 * the region kept across resets) or, if NULL, to the heap. Thread
 * context; 0 or -1 (no memory). */
int coverage_prepare(uint64_t *kept);
/* Registered or not; the tick reads it. Set by the control layer. */
void coverage_set_running(bool on);
/* Takes the sites reached since the last call off the coverage ops, in
 * one patch batch without a synchronisation round (trace_ops_retire).
 * Cheap when nothing new was reached. Any context; CPU 0's tick calls it.
 * 0, or the error of the batch (TRACE_EBUSY: tried again next time). */
int coverage_retire(void);
/* The reached sites (bit i: site i, docs/wire.md 2.11) and the chosen
 * ones, or NULL before the first start. Bits only ever go from 0 to 1
 * while coverage runs. */
const uint64_t *coverage_reached(void);
const uint64_t *coverage_chosen(void);
/* Back to never started (coverage_reached() NULL): nothing is sent or
 * printed until the next coverage_prepare. While the ops is not
 * registered; thread context. */
void coverage_forget(void);
/* Sites reached but not yet retired (waiting for the next batch). */
unsigned int coverage_pending(void);

#endif /* TRACE_COVERAGE_H */
