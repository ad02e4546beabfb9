/*
 * trace/tracers/hist.c: duration histograms (hist.h). An ops of its own,
 * like the profiler and coverage, so it runs beside the recording
 * tracer, the profiler and coverage on the same functions: its entry
 * hooks the return through fgraph.c, and the return adds the call's
 * duration (counter ticks, the same clock and the same points the graph
 * tracer and the profiler time a call between) to this CPU's histogram
 * of the function. Nothing goes to the ring buffer: the histograms are
 * sent whole, on demand and at the end of the run (hist_out.c).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/recorder.h"
#include "fgraph.h"
#include "hist.h"
#include "ktime.h"
#include "percpu.h"

/*
 * The fields named here are hist_fast's, below.
 *
 * rows[cpu][slot]: written only by CPU cpu, from the return hook, with
 * interrupts masked (fgraph_exit masks; the fast exit in assembly runs
 * masked too and does what hist_exit does when seen[] is current), so a
 * plain add is enough.
 * Readers (console, sender) on any CPU read them while they change: a
 * row may be a hit behind. Allocated once, at the first hist_prepare,
 * never freed: a return hooked before an off/on still finds memory.
 *
 * slot_of[site]: 0 = no histogram, k = slot k - 1. Written by
 * hist_prepare while the ops is not registered; read by the return
 * hook. A call hooked under an earlier choice of functions that returns
 * after a new one reads a byte of the old or the new table: either way a
 * slot below HIST_FUNCS_MAX or none, so at worst that one call counts
 * under the function now in its slot, or not at all.
 * slot_site[], nslots: the inverse, written by hist_prepare only.
 *
 * Clearing without stopping anyone: 'epoch' goes up by one (release) at
 * each clear; seen[cpu] is the epoch whose counts CPU cpu's rows hold,
 * written only by that CPU. A CPU whose seen[] is behind zeroes its own
 * rows at its next hit, then publishes seen[] (release). A reader takes a
 * CPU's rows only when its seen[] (acquire) equals 'epoch': the zeroing
 * is then visible to it. A call open across a clear counts after it; a
 * reader that checked seen[] just before a clear may read a row while its
 * CPU zeroes it (a mix of before and after), as it may read one a hit
 * behind: the next read is right.
 */
struct hist_fast {
	uint32_t epoch;
	uint32_t pad;
	uint8_t *slot_of;
	struct hist_row *rows[NR_CPUS];
	uint32_t seen[NR_CPUS];
};

/* One object, so that the exit in assembly (trace/tracers/rec_graph.S)
 * reaches every field from one address; core/recorder.h has the
 * offsets, checked here. */
struct hist_fast hist_fast = { .epoch = 1 };	/* rows fresh from calloc: epoch 0, stale */

_Static_assert(__builtin_offsetof(struct hist_fast, epoch) == REC_HIST_EPOCH, "recorder.h");
_Static_assert(__builtin_offsetof(struct hist_fast, slot_of) == REC_HIST_SLOT_OF, "recorder.h");
_Static_assert(__builtin_offsetof(struct hist_fast, rows) == REC_HIST_ROWS, "recorder.h");
_Static_assert(__builtin_offsetof(struct hist_fast, seen) == REC_HIST_SEEN, "recorder.h");
_Static_assert(sizeof(struct hist_row) == REC_HIST_ROW_SIZE &&
	       __builtin_offsetof(struct hist_row, sum) == REC_HIST_SUM &&
	       HIST_BUCKETS == 64, "recorder.h");
_Static_assert(__builtin_offsetof(struct percpu, cpu) == REC_PERCPU_CPU, "recorder.h");
_Static_assert(FGRAPH_HIST == REC_OWNER_HIST, "recorder.h");

static unsigned int slot_site[HIST_FUNCS_MAX], nslots;

static void hist_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		       struct trace_regs *regs)
{
	(void)parent;
	(void)ops;
	fgraph_push(this_cpu()->fgraph, regs, trace_site_fast(ip), FGRAPH_HIST, counter_read());
}

/* A call left by a longjmp ('returned' false) has no duration: it is
 * not counted. */
void hist_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now, bool returned)
{
	unsigned int cpu = this_cpu()->cpu;
	struct hist_row *r = hist_fast.rows[cpu];
	const uint8_t *map = READ_ONCE(hist_fast.slot_of);
	unsigned int slot = map ? map[f->site] : 0;
	uint32_t e = __atomic_load_n(&hist_fast.epoch, __ATOMIC_ACQUIRE);
	uint64_t d = now - f->ts;

	(void)st;
	if (!r || !slot || !returned)
		return;
	if (__builtin_expect(hist_fast.seen[cpu] != e, 0)) {
		/* Only the rows in use: nslots is written before the epoch
		 * it goes with (hist_prepare, then hist_clear's release),
		 * and read after it (the acquire above); rows past it are
		 * neither read nor written until a later epoch zeroes them. */
		for (unsigned int k = 0; k < READ_ONCE(nslots); k++)
			r[k] = (struct hist_row){ .sum = 0 };
		/* Orders the zeroes before seen[]: a reader that sees the
		 * new epoch sees them. */
		__atomic_store_n(&hist_fast.seen[cpu], e, __ATOMIC_RELEASE);
	}
	r += slot - 1;
	r->bucket[hist_bucket(d)]++;
	r->sum += d;
}

extern char trace_rec_hist[];

/* Alone on a site, the site calls trace_rec_hist (the same frame, pushed
 * in assembly; fgraph_return's fast path adds the call to its row as
 * hist_exit does, and leaves a row still to be zeroed to hist_exit). */
struct trace_ops tracer_hist_ops = {
	.func = hist_entry, .direct_call = (uintptr_t)trace_rec_hist,
	.flags = TRACE_OPS_NO_FPSIMD | TRACE_OPS_ENTRY
};

int hist_prepare(unsigned int *chosen)
{
	uint64_t *want = trace_ops_want(&tracer_hist_ops);
	unsigned int n = 0;

	if (!want)
		return TRACE_ENOMEM;
	for (unsigned int i = 0; i < trace_site_count(); i++)
		n += site_bit(want, i);
	*chosen = n;
	if (!n || n > HIST_FUNCS_MAX) {
		free(want);
		return TRACE_EINVAL;
	}
	if (!hist_fast.slot_of && !(hist_fast.slot_of = calloc(trace_site_count() + 1, 1))) {
		free(want);
		return TRACE_ENOMEM;
	}
	for (unsigned int c = 0; c < smp_num_cpus(); c++)
		if (!hist_fast.rows[c] && !(hist_fast.rows[c] = calloc(HIST_FUNCS_MAX, sizeof(struct hist_row)))) {
			free(want);
			return TRACE_ENOMEM;	/* hist_fast.rows[] kept for the next try */
		}
	memset(hist_fast.slot_of, 0, trace_site_count() + 1);
	nslots = 0;
	for (unsigned int i = 0; i < trace_site_count(); i++)
		if (site_bit(want, i)) {
			slot_site[nslots++] = i;
			hist_fast.slot_of[i] = (uint8_t)nslots;
		}
	free(want);
	hist_clear();
	return (int)n;
}

void hist_clear(void)
{
	__atomic_fetch_add(&hist_fast.epoch, 1, __ATOMIC_RELEASE);
}

void hist_forget(void)
{
	if (hist_fast.slot_of)
		memset(hist_fast.slot_of, 0, trace_site_count() + 1);
	nslots = 0;
	hist_clear();
}

bool hist_started(void)
{
	return nslots != 0;
}

unsigned int hist_functions(const unsigned int **sites)
{
	*sites = slot_site;
	return nslots;
}

const struct hist_row *hist_row_of(unsigned int cpu, unsigned int slot)
{
	if (cpu >= NR_CPUS || slot >= nslots || !hist_fast.rows[cpu] ||
	    __atomic_load_n(&hist_fast.seen[cpu], __ATOMIC_ACQUIRE) != __atomic_load_n(&hist_fast.epoch, __ATOMIC_ACQUIRE))
		return NULL;
	return &hist_fast.rows[cpu][slot];
}
