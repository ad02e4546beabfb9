/*
 * kernel/exception.c: what each exception means and where it goes.
 *
 * IRQs go to the interrupt layer; a synchronous exception is either an
 * expected fault (kernel/fault.h) or a crash; everything else is a crash.
 * Built without patch sites: it runs on the way into every handler.
 */
#include <stdint.h>

#include "barrier.h"
#include "exception.h"
#include "fault.h"
#include "irq.h"

extern char exception_vectors[];

void exception_init_cpu(void)
{
	write_sysreg(vbar_el1, (uintptr_t)exception_vectors);
	write_sysreg(tpidr_el0, 0);	/* trace/entry.S: not in a callback */
	/* Debug exceptions stay masked for good (none are used); so DAIF is
	 * never zero, which trace/entry.S relies on. */
	__asm__ volatile("msr daifset, #8" ::: "memory");
	isb();
}

void exception_dispatch(struct exc_frame *f, unsigned long kind)
{
	switch (kind) {
	case VEC_SPX_IRQ:
		irq_dispatch(f);
		return;
	case VEC_SPX_SYNC:
		if (fault_fixup(f))
			return;
		crash(f, "unexpected synchronous exception");
	case VEC_SPX_FIQ:
		crash(f, "unexpected FIQ");
	case VEC_SPX_SERROR:
		crash(f, "SError (asynchronous external abort)");
	default:
		crash(f, kind < 4 ? "exception taken while on SP_EL0"
				  : "exception from a lower exception level");
	}
}
