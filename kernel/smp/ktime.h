/*
 * kernel/smp/ktime.h: the timer tick and the timer driver interface.
 * The application-facing calls are in <baretrace.h>.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"

/* CNTVCT for code that must not call out (the trace path): the ISB keeps
 * the read from moving before earlier instructions. */
static inline uint64_t counter_read(void)
{
	isb();
	return read_sysreg(cntvct_el0);
}

/* On the export path (metadata): no patch site, as smp_num_cpus in
 * kernel/smp/smp.h; this declaration gives the definition the attribute. */
__attribute__((patchable_function_entry(0, 0))) uint64_t time_counter_hz(void);

void time_init(void);		/* boot CPU, after irq_init */
void time_init_cpu(void);	/* every CPU: start its tick */

/* Timer driver (drivers/gtimer.c or a board's own). */
uint64_t timer_read_hz(void);
void timer_start(uint64_t interval_counts);	/* periodic, this CPU */
void timer_rearm(uint64_t interval_counts);	/* from the tick handler */
unsigned int timer_irq(void);

#endif /* KERNEL_TIME_H */
