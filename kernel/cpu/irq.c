/*
 * kernel/cpu/irq.c: the table of interrupt handlers and the dispatch loop.
 *
 * The table is written at registration (thread context, before the
 * interrupt is unmasked) and only read by dispatch afterwards; the
 * controller's unmask orders the write before the first delivery.
 * Built without patch sites: it runs on every interrupt.
 */
#include <stddef.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "exception.h"
#include "irq.h"
#include "percpu.h"

struct irq_slot {
	irq_fn fn;
	void *arg;
};

static struct irq_slot irq_table[IRQ_MAX];

void irq_init(void)
{
	irqchip_init();
}

void irq_init_cpu(void)
{
	irqchip_init_cpu();
}

int irq_register(unsigned int irq, irq_fn fn, void *arg)
{
	if (irq >= IRQ_MAX || !fn)
		return -1;
	irq_table[irq].arg = arg;
	irq_table[irq].fn = fn;
	dsb_ish();	/* the slot is visible before the interrupt can fire */
	irqchip_enable(irq);
	return 0;
}

int irq_in_interrupt(void)
{
	return this_cpu()->irq_depth != 0;
}

/*
 * kernel/cpu/entry.S starts an exception's handlers from the reset FPCR
 * (round to nearest, no traps, no flush to zero), so that a handler
 * computes the same whatever it interrupted; the next handler in the
 * same exception would start from whatever the one before left (a
 * tick's hook that set round towards zero made the next interrupt's
 * handler round that way: seen under -accel tcg,thread=multi, where a
 * tick's handler ran past the next tick and the loop below took both).
 * With FP/SIMD off nothing has changed FPCR (and reading it would trap).
 */
void irq_handler_next(void)
{
	if (read_sysreg(cpacr_el1) & CPACR_FPEN)
		__asm__ volatile("msr fpcr, xzr" ::: "memory");
}

void irq_dispatch(struct exc_frame *f)
{
	struct percpu *pc = this_cpu();
	struct exc_frame *outer = pc->irq_frame;
	unsigned int token;

	pc->irq_frame = f;
	pc->irq_depth++;
	while ((token = irqchip_ack()) != IRQ_SPURIOUS) {
		unsigned int irq = IRQ_ID(token);

		bool handled = irq < IRQ_MAX && irq_table[irq].fn;

		pc->irqs++;
		trace_event(irq, entry, irq);
		if (handled)
			irq_table[irq].fn(irq, irq_table[irq].arg);
		trace_event(irq, exit, irq, handled);
		irqchip_eoi(token);
		irq_handler_next();
	}
	pc->irq_depth--;
	pc->irq_frame = outer;
}
