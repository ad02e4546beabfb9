/*
 * test/target/test_restart.c: an interrupt at every instruction of a
 * restartable recorder (kernel/cpu/restart.h, trace/tracers/
 * rec_function.S) leaves the ring consistent and holding exactly the
 * records it should: the interrupted call's record once, after the
 * records the interrupt's handler wrote.
 *
 * The interrupts are exact, not timed: the call is single-stepped
 * (MDSCR_EL1.SS and KDE, PSTATE.D clear; QEMU TCG implements the
 * software step), and at the k-th instruction of the range (k = 1, 2,
 * ... until the call ends before it) the step handler acts as an IRQ's
 * entry would: it runs the kernel's restart check (exception_restart,
 * the one the IRQ entry runs) and then a handler that makes a traced
 * call of its own. IRQs are masked for the call (no real one lands), FIQ
 * is not, so the steps where the recorder itself masked interrupts (FIQ
 * masked with IRQ) are the ones no interrupt could reach, and are not
 * interrupted. The counter read in the range is set by the step
 * handler to the last record's time plus a chosen delta, so the same
 * path is taken however long the steps before it took: each recorder
 * runs every scenario (cache hit or miss; delta of one header byte or
 * with a varint), and every instruction of its range must be reached
 * by one of them. A new restartable recorder is one more line in
 * 'recorders' below.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "exception.h"
#include "ktest.h"
#include "kprintf.h"
#include "ktime.h"
#include "output/export.h"
#include "percpu.h"
#include "restart.h"
#include "ring/ring.h"
#include "target.h"
#include "tracecheck.h"

extern char trace_rec_function[];

#define MDSCR_SS	(1UL << 0)
#define MDSCR_KDE	(1UL << 13)
#define SPSR_SS		(1UL << 21)
#define SPSR_F		(1UL << 6)
#define RANGE_MAX	256	/* instructions of a range the test follows */

/* A restartable recorder: the tracer that routes sites to it, its
 * entry (its range's restart address), the call it records and the
 * call the interrupt's handler makes. */
struct recorder {
	const char *tracer;
	const char *entry_name;
	uintptr_t entry;
	int (*call)(int);	/* a TARGET function the tracer records */
	int (*other_caller)(int);	/* the same from another call site */
	int (*interrupt)(int);	/* what the handler calls, another slot */
};

static int __attribute__((noinline)) call_alpha(int x) { return tt_alpha(x) + 1; }
static int __attribute__((noinline)) call_alpha_too(int x) { return tt_alpha(x) + 2; }

static const struct recorder recorders[] = {
	{ "function", "trace_rec_function", (uintptr_t)trace_rec_function, call_alpha, call_alpha_too, tt_beta },
};

/* Scenarios: whether the call finds its caller in the cache, and the
 * delta its counter read gives. */
static const struct scenario {
	bool hit;
	uint64_t delta;
} scenarios[] = {
	{ true, 5 }, { true, 1000 }, { false, 5 }, { false, 1000 },
};

/* The step handler's state: written by the thread before stepping
 * starts, read and written by the handler (the same CPU) meanwhile. */
static struct {
	const struct recorder *rec;
	uintptr_t start, end;	/* the range */
	uint64_t delta;
	unsigned int k, idx;	/* interrupt at the k-th unmasked step in range */
	bool in, done;
	uintptr_t interrupted_at, resumed_at;
	int handler_calls;
	bool visited[RANGE_MAX], visited_unmasked[RANGE_MAX], interrupted[RANGE_MAX];
} st;

static void step_stop(struct exc_frame *f)
{
	write_sysreg(mdscr_el1, read_sysreg(mdscr_el1) & ~MDSCR_SS);
	f->spsr &= ~SPSR_SS;
	st.done = true;
}

/* MRS Xt, CNTVCT_EL0 */
static int counter_read_reg(uint32_t insn)
{
	return (insn & ~0x1fU) == 0xd53be040U ? (int)(insn & 0x1f) : -1;
}

static bool on_step(struct exc_frame *f)
{
	uintptr_t pc = f->elr;

	if (st.done) {
		step_stop(f);
		return true;
	}
	bool in = pc >= st.start && pc < st.end;

	/* The instruction just stepped read the counter: it reads the
	 * last record's time plus the scenario's delta instead. */
	if (pc - 4 >= st.start && pc - 4 < st.end) {
		int reg = counter_read_reg(*(const uint32_t *)(pc - 4));

		if (reg >= 0) {
			uint64_t now = counter_read();
			struct ring_cpu *r = this_cpu()->ring;

			f->x[reg] = now - ring_ts_delta(r->ts_events, now) + st.delta;
		}
	}
	if (!in) {
		if (st.in)
			step_stop(f);	/* left the range: the call goes on unstepped */
		else
			f->spsr |= SPSR_SS;
		return true;
	}
	st.in = true;
	unsigned int i = (unsigned int)((pc - st.start) / 4);
	bool masked = f->spsr & SPSR_F;	/* the recorder masked IRQ and FIQ */

	st.visited[i] = true;
	if (!masked) {
		st.visited_unmasked[i] = true;
		if (++st.idx == st.k) {
			/* What an IRQ's entry does, then its handler. */
			if (exception_restart(f))
				st.resumed_at = f->elr;
			st.interrupted_at = pc;
			st.interrupted[i] = true;
			st.rec->interrupt(7);
			st.handler_calls++;
			step_stop(f);
			return true;
		}
	}
	f->spsr |= SPSR_SS;
	return true;
}

/* The call, single-stepped from here until it leaves the range (or is
 * interrupted). IRQs masked: only the handler above interrupts it. */
static void __attribute__((noinline)) stepped_call(int (*fn)(int))
{
	unsigned long flags = irq_save();
	uint64_t mdscr = read_sysreg(mdscr_el1);

	__asm__ volatile("msr oslar_el1, xzr" ::: "memory");	/* OS lock off: debug on */
	write_sysreg(mdscr_el1, mdscr | MDSCR_KDE | MDSCR_SS);
	isb();
	/* FIQ unmasked (nothing raises one here), so the steps where the
	 * recorder masked it are told apart; then D clear: PSTATE.SS is 0,
	 * so stepping starts active-pending and the first step exception
	 * comes before the next instruction. */
	__asm__ volatile("msr daifclr, #1" ::: "memory");
	__asm__ volatile("msr daifclr, #8" ::: "memory");
	fn(3);
	__asm__ volatile("msr daifset, #9" ::: "memory");	/* D and F */
	write_sysreg(mdscr_el1, mdscr);
	isb();
	irq_restore(flags);
}

static bool range_of(uintptr_t entry, uintptr_t *start, uintptr_t *end)
{
	for (const struct restart_range *r = __restart_table_start; r < __restart_table_end; r++)
		if (r->restart == entry) {
			*start = r->start;
			*end = r->end;
			return true;
		}
	return false;
}

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
	st.k = k;
	st.idx = 0;
	st.in = st.done = false;
	st.delta = sc->delta;
	st.interrupted_at = st.resumed_at = 0;
	stepped_call(rc->call);
	o->events = ring_of(smp_cpu_id())->cur_events;
	o->n = check_collect(smp_cpu_id(), o->recs, 8);
}

KTEST(restart_an_interrupt_at_every_instruction_of_a_recorder_restarts_it)
{
	for (unsigned int ri = 0; ri < sizeof(recorders) / sizeof(recorders[0]); ri++) {
		const struct recorder *rc = &recorders[ri];
		int site = site_of("tt_alpha"), isite = site_of("tt_beta");
		unsigned int runs = 0, restarts = 0, bad = 0;

		memset(&st, 0, sizeof(st));
		st.rec = rc;
		KT_EXPECT(t, range_of(rc->entry, &st.start, &st.end));
		KT_EXPECT(t, st.start < st.end && (st.end - st.start) / 4 <= RANGE_MAX);
		KT_EXPECT(t, st.start >= (uintptr_t)__restartable_start &&
			  st.end <= (uintptr_t)__restartable_end);
		KT_EXPECT(t, (site & 255) != (isite & 255));	/* two caller slots */
		if (t->failures)
			return;
		check_reset();
		export_hold();
		trace_set_tracer(rc->tracer);
		trace_set_filter("tt_alpha tt_beta");
		KT_EQ(t, trace_start(), 0);
		KT_EQ(t, site_bl_target("tt_alpha"), rc->entry);
		exception_set_step_handler(on_step);
		for (unsigned int s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
			const struct scenario *sc = &scenarios[s];
			static struct outcome ref, o;

			/* Not interrupted: the records the call makes alone. */
			run_once(rc, sc, 0, &ref);
			KT_EQ(t, ref.n, 2);
			KT_EQ(t, ref.events, 2);
			KT_EQ(t, ref.recs[1].kind, sc->hit ? WIRE_REC_FUNC : WIRE_REC_FUNC_CALLER);
			KT_EXPECT(t, (ref.recs[1].caller == ref.recs[0].caller) == sc->hit);
			for (unsigned int k = 1; k <= 4 * RANGE_MAX; k++) {
				run_once(rc, sc, k, &o);
				if (!st.interrupted_at) {
					KT_EQ(t, o.n, 2);	/* past the last step: as ref */
					break;
				}
				runs++;
				restarts += st.resumed_at == rc->entry;
				/* Consistent (the block's count is what decodes), and
				 * exactly: the first call, the handler's, the
				 * interrupted one, once, as it is alone. */
				bool ok = o.n == 3 && o.events == 3 &&
					  o.recs[1].site == (uint64_t)isite &&
					  o.recs[2].site == (uint64_t)site &&
					  o.recs[2].kind == ref.recs[1].kind &&
					  o.recs[2].caller == ref.recs[1].caller &&
					  o.recs[0].ts <= o.recs[1].ts && o.recs[1].ts <= o.recs[2].ts;
				if (!ok && bad++ < 4)
					kprintf("# %s, %s, delta %lu: interrupt at +0x%lx: %u records "
						"(block count %u), sites %lu %lu, kind %u caller 0x%lx "
						"(alone: kind %u caller 0x%lx)\n", rc->entry_name,
						sc->hit ? "hit" : "miss", (unsigned long)sc->delta,
						(unsigned long)(st.interrupted_at - st.start), o.n,
						o.events, (unsigned long)o.recs[1].site,
						(unsigned long)o.recs[2].site, o.recs[2].kind,
						(unsigned long)o.recs[2].caller, ref.recs[1].kind,
						(unsigned long)ref.recs[1].caller);
			}
		}
		exception_set_step_handler(NULL);
		trace_stop();
		trace_set_tracer("nop");
		export_release();
		KT_EQ(t, bad, 0);
		KT_EQ(t, restarts, runs);	/* every one restarted the recorder */
		KT_EQ(t, st.handler_calls, (int)runs);
		/* Every instruction of the range ran in some scenario, and
		 * every one that ran with interrupts unmasked was interrupted. */
		unsigned int n = (unsigned int)((st.end - st.start) / 4), missed = 0, unhit = 0;

		for (unsigned int i = 0; i < n; i++) {
			missed += !st.visited[i];
			unhit += st.visited_unmasked[i] && !st.interrupted[i];
		}
		KT_EQ(t, missed, 0);
		KT_EQ(t, unhit, 0);
		KT_EXPECT(t, runs >= n);
		kprintf("# %s: %u instructions, %u interrupted runs\n", rc->entry_name, n, runs);
	}
}
