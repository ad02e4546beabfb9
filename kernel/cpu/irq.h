/*
 * kernel/cpu/irq.h: interrupt registration and dispatch, and the interrupt
 * controller interface each board's irqchip driver provides.
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <stdint.h>

#include <baretrace.h>

#define IRQ_MAX		256	/* interrupt IDs handled: SGIs, PPIs, SPIs */
#define IRQ_SPURIOUS	1023

/* Software-generated interrupts used between CPUs. */
#define SGI_CALL	0	/* run the pending smp_call on this CPU */
#define SGI_WAKE	1	/* work was handed over; leave WFI */
#define SGI_STOP	2	/* crash on another CPU: stop here */

struct exc_frame;

void irq_init(void);			/* boot CPU: controller and table */
void irq_init_cpu(void);		/* every CPU: its interface */
void irq_dispatch(struct exc_frame *f);	/* from the IRQ vector */
int irq_in_interrupt(void);
/* Between two handlers of one exception (the dispatch loop, the tick's
 * hooks): the next starts from the reset FPCR, as the first did. */
void irq_handler_next(void);

/* The interrupt controller (drivers/gicv2.c or a board's own). */
void irqchip_init(void);
void irqchip_init_cpu(void);
void irqchip_enable(unsigned int irq);
/* ack returns a token (IRQ_SPURIOUS if nothing is pending) whose low 10
 * bits are the interrupt ID; eoi takes the same token back. */
#define IRQ_ID(token)	((token) & 0x3ff)
unsigned int irqchip_ack(void);
void irqchip_eoi(unsigned int token);
void irqchip_send_sgi(unsigned int sgi, unsigned int cpu);
void irqchip_send_sgi_others(unsigned int sgi);

#endif /* KERNEL_IRQ_H */
