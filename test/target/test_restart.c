/*
 * test/target/test_restart.c: an interrupt at every instruction of a
 * restartable recorder (kernel/cpu/restart.h, trace/tracers/
 * rec_function.S) leaves the ring consistent and holding exactly the
 * records it should: the interrupted call's record once, after the
 * records the interrupt's handler wrote.
 *
 * The interrupts are exact, not timed (step_range.h): the call is
 * single-stepped and interrupted at the k-th instruction of the range
 * that runs with interrupts unmasked, for k = 1, 2, ... until the call
 * leaves the range first; the interrupt runs the kernel's restart check
 * and a traced call of its own. Each recorder runs every scenario
 * (cache hit or miss; a delta that fits the header or one that needs a
 * varint: the range's counter read is set by the step handler), and
 * every instruction of its range must be reached by one of them. A new
 * restartable recorder is one more line in 'recorders' below.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "kprintf.h"
#include "ktest.h"
#include "output/export.h"
#include "percpu.h"
#include "restart.h"
#include "ring/ring.h"
#include "step_range.h"
#include "target.h"
#include "tracecheck.h"

extern char trace_rec_function[];

/* A restartable recorder: the tracer that routes sites to it, its
 * entry (its ranges' restart address), the call it records and the
 * call the interrupt's handler makes. */
struct recorder {
	const char *tracer;
	const char *entry_name;
	uintptr_t entry;
	const char *filter;	/* the two functions below, call's first */
	int (*call)(int);	/* a TARGET function the tracer records */
	int (*other_caller)(int);	/* the same from another call site */
	int (*interrupt)(int);	/* what the handler calls, another slot */
	unsigned int records;	/* what one call of either records */
	bool caller_cache;	/* kind 0 on a hit, kind 1 on a miss */
};

static int __attribute__((noinline)) call_alpha(int x) { return tt_alpha(x) + 1; }
static int __attribute__((noinline)) call_alpha_too(int x) { return tt_alpha(x) + 2; }

static const struct recorder recorders[] = {
	{ "function", "trace_rec_function", (uintptr_t)trace_rec_function, "tt_alpha tt_beta", call_alpha, call_alpha_too, tt_beta, 1, true },
};

/* Scenarios: whether the call finds its caller in the cache, and the
 * delta its counter read gives. */
static const struct scenario {
	bool hit;
	uint64_t delta;
} scenarios[] = {
	{ true, 5 }, { true, 1000 }, { false, 5 }, { false, 1000 },
};

struct outcome {
	unsigned int n, events;
	struct rec recs[8];
};

/* One run: a fresh block, a first call that leaves the cache as the
 * scenario wants, then the stepped call with an interrupt at the k-th
 * step (none when k is past the last). */
static void run_once(const struct recorder *rc, const struct scenario *sc, unsigned int k,
		     struct outcome *o)
{
	ring_close_block();
	(sc->hit ? rc->call : rc->other_caller)(1);	/* opens a block: kind 1 */
	step_st.k = k;
	step_st.delta = sc->delta;
	step_range_call(rc->call);
	o->events = ring_of(smp_cpu_id())->cur_events;
	o->n = check_collect(smp_cpu_id(), o->recs, 8);
}

/* o is ref with the interrupt's records (those of site isite) added,
 * all after the first call's and before the interrupted call's: so the
 * interrupted call's records are there once, as when it ran alone; and
 * o is consistent (the block's count is what decodes) and in time
 * order. */
static bool alone_plus_interrupt(const struct outcome *ref, const struct outcome *o,
				 uint64_t isite, unsigned int per_call)
{
	unsigned int j = 0, extra = 0;

	if (o->events != o->n || o->n > sizeof(o->recs) / sizeof(o->recs[0]))
		return false;
	for (unsigned int i = 0; i < o->n; i++) {
		const struct rec *a = &o->recs[i], *b = &ref->recs[j];

		if (i && a->ts < o->recs[i - 1].ts)
			return false;
		if (a->site == isite) {
			if (j != per_call)	/* not between the two calls' */
				return false;
			extra++;
			continue;
		}
		if (j >= ref->n || a->kind != b->kind || a->site != b->site ||
		    a->caller != b->caller || a->depth != b->depth)
			return false;
		j++;
	}
	return j == ref->n && extra == per_call;
}

KTEST(restart_an_interrupt_at_every_instruction_of_a_recorder_restarts_it)
{
	for (unsigned int ri = 0; ri < sizeof(recorders) / sizeof(recorders[0]); ri++) {
		const struct recorder *rc = &recorders[ri];
		char name[32];
		unsigned int len = (unsigned int)strcspn(rc->filter, " ");
		int site, isite = site_of(rc->filter + len + 1);

		memcpy(name, rc->filter, len);
		name[len] = 0;
		site = site_of(name);
		unsigned int runs = 0, restarts = 0, bad = 0;

		memset(&step_st, 0, sizeof(step_st));
		step_st.interrupt = rc->interrupt;
		KT_EXPECT(t, step_range_of(rc->entry));
		KT_EXPECT(t, step_st.start >= (uintptr_t)__restartable_start &&
			  step_st.end <= (uintptr_t)__restartable_end);
		KT_EXPECT(t, site >= 0 && isite >= 0 && len < sizeof(name));
		KT_EXPECT(t, (site & 255) != (isite & 255));	/* two caller slots */
		if (t->failures)
			return;
		check_reset();
		export_hold();
		trace_set_tracer(rc->tracer);
		trace_set_filter(rc->filter);
		KT_EQ(t, trace_start(), 0);
		KT_EQ(t, site_bl_target(name), rc->entry);
		step_range_handler(true);
		for (unsigned int s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
			const struct scenario *sc = &scenarios[s];
			static struct outcome ref, o;

			/* Not interrupted: the records the call makes alone. */
			run_once(rc, sc, 0, &ref);
			KT_EQ(t, ref.n, 2 * rc->records);
			KT_EQ(t, ref.events, ref.n);
			if (rc->caller_cache) {
				KT_EQ(t, ref.recs[1].kind, sc->hit ? WIRE_REC_FUNC : WIRE_REC_FUNC_CALLER);
				KT_EXPECT(t, (ref.recs[1].caller == ref.recs[0].caller) == sc->hit);
			}
			for (unsigned int k = 1; k <= 4 * STEP_RANGE_MAX; k++) {
				run_once(rc, sc, k, &o);
				if (!step_st.interrupted_at) {
					KT_EQ(t, o.n, ref.n);	/* past the last step: as ref */
					break;
				}
				runs++;
				restarts += step_st.resumed_at == rc->entry;
				/* Consistent (the block's count is what decodes), and
				 * exactly: the first call, the handler's, the
				 * interrupted one, once, as it is alone. */
				bool ok = alone_plus_interrupt(&ref, &o, (uint64_t)isite, rc->records);
				if (!ok && bad++ < 4) {
					kprintf("# %s, %s, delta %lu: interrupt at +0x%lx: %u records "
						"(block count %u; %u alone), site/kind:", rc->entry_name,
						sc->hit ? "hit" : "miss", (unsigned long)sc->delta,
						(unsigned long)(step_st.interrupted_at - step_st.start), o.n,
						o.events, ref.n);
					for (unsigned int i = 0; i < o.n && i < 8; i++)
						kprintf(" %lu/%u", (unsigned long)o.recs[i].site, o.recs[i].kind);
					kprintf("\n");
				}
			}
		}
		step_range_handler(false);
		trace_stop();
		trace_set_tracer("nop");
		export_release();
		KT_EQ(t, bad, 0);
		KT_EQ(t, restarts, runs);	/* every one restarted the recorder */
		KT_EQ(t, step_st.handler_calls, runs);
		/* Every instruction of the range ran in some scenario, and
		 * every one that ran with interrupts unmasked was interrupted. */
		unsigned int n = 0, missed = 0, unhit = 0;

		for (unsigned int i = 0; i < (step_st.end - step_st.start) / 4; i++) {
			if (!step_range_in(step_st.start + 4 * i))
				continue;
			n++;
			missed += !step_st.visited[i];
			unhit += step_st.visited_unmasked[i] && !step_st.interrupted[i];
		}
		KT_EQ(t, missed, 0);
		KT_EQ(t, unhit, 0);
		KT_EXPECT(t, runs >= n);
		kprintf("# %s: %u instructions, %u interrupted runs\n", rc->entry_name, n, runs);
	}
}
