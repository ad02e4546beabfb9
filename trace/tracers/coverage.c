/*
 * trace/tracers/coverage.c: function coverage. Every chosen site (the
 * ops' filters; default every site) records its first hit in a bitmap
 * and then leaves the coverage ops: CPU 0's tick gathers the sites
 * reached since its last look and takes them off in one patch batch
 * (trace_ops_retire), with no synchronisation round, so no CPU is ever
 * stopped for a hit. A covered site then costs what a disabled site
 * costs (MOV X9, LR and a NOP), or what the other ops on it cost: the
 * coverage ops only leaves its own want, the others' stay.
 *
 * Between a site's first hit and the batch, later hits of it go through
 * the trampoline to cov_hit, which sees the bit set and returns.
 */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "core/core.h"
#include "coverage.h"

/*
 * reached: bit i set = site i was reached since coverage started. Any
 * CPU sets bits, from any context, while others set bits of the same
 * word: so one atomic OR, not a plain store. A plain store of the word
 * would be a read-modify-write that can drop a bit another CPU set in
 * between (64 sites share a word), and a lost bit is a function reported
 * as never reached. A plain store that only goes 0 -> 1 would need a
 * byte per site (bt_site_count bytes instead of bits, and packing before
 * every frame); the OR costs one exclusive pair (or one LDSET) once per
 * site, which is the point of the tracer: each site pays it on its first
 * hit, or on the few hits a CPU makes before the batch, since a plain
 * load of the word sees the bit first. Cleared only by coverage_prepare,
 * while the ops is not registered.
 *
 * Where the bits live: in the region kept across resets when there is
 * one (trace/output/prev_coverage.c hands it over, so the next boot can
 * send them), else in the heap.
 *
 * chosen: the sites the ops wanted when it started; written by
 * coverage_prepare only.
 */
static uint64_t *reached, *chosen;
static uint64_t *own;	/* reached's memory when the region has none to give */
/* Set (release) by a hit that set a new bit, taken (exchange, acquire)
 * by coverage_retire: a bit set after the exchange sets it again. */
static bool fresh;
static bool running;	/* written by the control layer, read by the tick */

static void cov_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		    struct trace_regs *regs)
{
	unsigned int site = trace_site_fast(ip);
	uint64_t bit = 1ULL << (site % 64), *word = &reached[site / 64];

	(void)parent, (void)ops, (void)regs;
	if (__atomic_load_n(word, __ATOMIC_RELAXED) & bit)
		return;		/* reached already; its batch is on the way */
	__atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
	/* Orders the bit before the flag: the tick that takes the flag
	 * sees the bit. */
	__atomic_store_n(&fresh, true, __ATOMIC_RELEASE);
}

struct trace_ops tracer_coverage_ops = {
	.func = cov_hit, .flags = TRACE_OPS_NO_FPSIMD
};

int coverage_prepare(uint64_t *kept)
{
	unsigned int words = site_bitmap_words() + 1;
	uint64_t *want = trace_ops_want(&tracer_coverage_ops);

	if (!want)
		return -1;
	if (kept) {
		reached = kept;	/* zeroed by its provider */
	} else {
		if (!own && !(own = calloc(words, sizeof(*own)))) {
			free(want);
			return -1;
		}
		memset(own, 0, words * sizeof(*own));
		reached = own;
	}
	free(chosen);
	chosen = want;	/* the same filters the ops registers with */
	__atomic_store_n(&fresh, false, __ATOMIC_RELAXED);
	return 0;
}

void coverage_set_running(bool on)
{
	WRITE_ONCE(running, on);
}

int coverage_retire(void)
{
	/* A plain load first: most ticks find nothing new, and pay no
	 * exclusive pair for it. */
	if (!READ_ONCE(running) || !__atomic_load_n(&fresh, __ATOMIC_RELAXED) ||
	    !__atomic_exchange_n(&fresh, false, __ATOMIC_ACQUIRE))
		return 0;
	int err = trace_ops_retire(&tracer_coverage_ops, reached);

	if (err == TRACE_EBUSY)	/* the lock was taken: the next tick tries */
		__atomic_store_n(&fresh, true, __ATOMIC_RELAXED);
	return err;
}

void coverage_forget(void)
{
	reached = NULL;
	free(chosen);
	chosen = NULL;
	__atomic_store_n(&fresh, false, __ATOMIC_RELAXED);
}

const uint64_t *coverage_reached(void)
{
	return reached;
}

const uint64_t *coverage_chosen(void)
{
	return chosen;
}

unsigned int coverage_pending(void)
{
	const uint64_t *want = READ_ONCE(tracer_coverage_ops.want);
	unsigned int n = 0;

	for (unsigned int w = 0; want && reached && w < site_bitmap_words(); w++)
		for (uint64_t v = want[w] & __atomic_load_n(&reached[w], __ATOMIC_RELAXED);
		     v; v &= v - 1)
			n++;	/* no popcount: libgcc's may use FP/SIMD */
	return n;
}
