/*
 * trace/tracers/hist.h: duration histograms kept on the target (hist.c):
 * for each chosen function and each CPU, how many calls took a time in
 * each power-of-two range of counter ticks.
 *
 * Bucket b counts the calls of duration d ticks with
 *   b = 0:      d == 0
 *   1 <= b:     2^(b-1) <= d < 2^b   (the last bucket also holds longer)
 * so a call of 1536 ticks is in bucket 11 (1024 .. 2047).
 */
#ifndef TRACE_HIST_H
#define TRACE_HIST_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>

#define HIST_FUNCS_MAX	32	/* functions with a histogram at a time */
#define HIST_BUCKETS	64

struct hist_row {
	uint64_t bucket[HIST_BUCKETS];	/* calls per duration range */
	uint64_t sum;			/* their durations, ticks */
};

extern struct trace_ops tracer_hist_ops;

static inline unsigned int hist_bucket(uint64_t ticks)
{
	unsigned int b = ticks ? 64 - (unsigned int)__builtin_clzll(ticks) : 0;

	return b < HIST_BUCKETS ? b : HIST_BUCKETS - 1;
}

/* Before registering tracer_hist_ops (its filters set): gives each site
 * the ops wants a histogram, all counts zero. Thread context, the ops
 * not registered. Returns the number of functions (1 ..
 * HIST_FUNCS_MAX), or TRACE_EINVAL when the filters choose none or more
 * than HIST_FUNCS_MAX (*chosen says how many), or TRACE_ENOMEM; on an
 * error nothing changed. */
int hist_prepare(unsigned int *chosen);
/* Sets every count to zero, whether the ops runs or not: each CPU zeroes
 * its own rows at its next hit, and readers take a CPU that has not yet
 * done so as empty. Thread context. */
void hist_clear(void);
/* Back to never started: nothing is shown or sent until the next
 * hist_prepare. While the ops is not registered; thread context. */
void hist_forget(void);
/* Whether hist_prepare ever succeeded (there is something to show). */
bool hist_started(void);
/* The functions with a histogram: their sites, in the order of slots. */
unsigned int hist_functions(const unsigned int **sites);
/* CPU cpu's row of slot k, or NULL when that CPU's rows are empty (not
 * allocated, or cleared and not yet zeroed by it). A row read while the
 * ops runs may be a hit behind, and its sum a hit ahead of its counts. */
const struct hist_row *hist_row_of(unsigned int cpu, unsigned int slot);

/* trace/output/hist_out.c: one dump per CPU online to the host (frame
 * type 10, docs/wire.md 2.12), and the funclatency-style bars of each
 * function, all CPUs summed, on the console. */
void hist_send(void);
void hist_print(void);
/* The next sequence number of a type-10 frame (every kind). */
uint64_t hist_frame_seq(void);
/* Bars from the first used bucket of sum[] to its last. */
void hist_print_bars(const uint64_t *sum, const char *unit);
struct wire_out;
void hist_put_row(struct wire_out *o, uint64_t id, uint64_t sum, const uint64_t *bucket);

#endif /* TRACE_HIST_H */
