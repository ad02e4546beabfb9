/*
 * test/target/step_range.c: a call single-stepped through a restartable
 * range and interrupted at its k-th unmasked instruction (step_range.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "exception.h"
#include "ktime.h"
#include "percpu.h"
#include "restart.h"
#include "ring/ring.h"
#include "step_range.h"

#define MDSCR_SS	(1UL << 0)
#define MDSCR_KDE	(1UL << 13)
#define SPSR_SS		(1UL << 21)
#define SPSR_F		(1UL << 6)

struct step_range step_st;

static void step_stop(struct exc_frame *f)
{
	write_sysreg(mdscr_el1, read_sysreg(mdscr_el1) & ~MDSCR_SS);
	f->spsr &= ~SPSR_SS;
	step_st.done = true;
}

/* MRS Xt, CNTVCT_EL0 */
static int counter_read_reg(uint32_t insn)
{
	return (insn & ~0x1fU) == 0xd53be040U ? (int)(insn & 0x1f) : -1;
}

static bool on_step(struct exc_frame *f)
{
	uintptr_t pc = f->elr;

	if (step_st.done) {
		step_stop(f);
		return true;
	}
	bool in = step_range_in(pc);

	/* The instruction just stepped read the counter: it reads the
	 * last record's time plus the scenario's delta instead. */
	if (step_range_in(pc - 4)) {
		int reg = counter_read_reg(*(const uint32_t *)(pc - 4));

		if (reg >= 0) {
			uint64_t now = counter_read();
			struct ring_cpu *r = this_cpu()->ring;

			f->x[reg] = now - ring_ts_delta(r->ts_events, now) + step_st.delta;
		}
	}
	if (!in) {
		if (step_st.in)
			step_stop(f);	/* left the range: the call goes on unstepped */
		else
			f->spsr |= SPSR_SS;
		return true;
	}
	step_st.in = true;
	unsigned int i = (unsigned int)((pc - step_st.start) / 4);
	bool masked = f->spsr & SPSR_F;	/* the recorder masked IRQ and FIQ */

	step_st.visited[i] = true;
	if (!masked) {
		step_st.visited_unmasked[i] = true;
		if (++step_st.idx == step_st.k) {
			/* What an IRQ's entry does, then its handler. */
			if (exception_restart(f))
				step_st.resumed_at = f->elr;
			step_st.interrupted_at = pc;
			step_st.interrupted[i] = true;
			step_st.interrupt(7);
			step_st.handler_calls++;
			step_stop(f);
			return true;
		}
	}
	f->spsr |= SPSR_SS;
	return true;
}

/* IRQs masked: only the handler above interrupts the call. */
void __attribute__((noinline)) step_range_call(int (*fn)(int))
{
	unsigned long flags;
	uint64_t mdscr;

	step_st.idx = 0;
	step_st.in = step_st.done = false;
	step_st.interrupted_at = step_st.resumed_at = 0;
	flags = irq_save();
	mdscr = read_sysreg(mdscr_el1);

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

bool step_range_of(uintptr_t restart)
{
	step_st.n = 0;
	step_st.start = UINTPTR_MAX;
	step_st.end = 0;
	for (const struct restart_range *r = __restart_table_start; r < __restart_table_end; r++) {
		if (r->restart != restart)
			continue;
		if (step_st.n == STEP_RANGES)
			return false;
		step_st.from[step_st.n] = r->start;
		step_st.to[step_st.n++] = r->end;
		step_st.start = r->start < step_st.start ? r->start : step_st.start;
		step_st.end = r->end > step_st.end ? r->end : step_st.end;
	}
	return step_st.n && (step_st.end - step_st.start) / 4 <= STEP_RANGE_MAX;
}

bool step_range_in(uintptr_t pc)
{
	for (unsigned int i = 0; i < step_st.n; i++)
		if (pc >= step_st.from[i] && pc < step_st.to[i])
			return true;
	return false;
}

void step_range_handler(bool on)
{
	exception_set_step_handler(on ? on_step : NULL);
}
