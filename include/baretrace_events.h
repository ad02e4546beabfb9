/*
 * include/baretrace_events.h: the kernel's and drivers' own tracepoints
 * (defined in trace/base/events.c; fields listed there and by 'events').
 */
#ifndef BARETRACE_EVENTS_H
#define BARETRACE_EVENTS_H

#include <baretrace_tracepoint.h>

TP_DECLARE(irq, entry);		/* irq */
TP_DECLARE(irq, exit);		/* irq, handled */
TP_DECLARE(timer, tick);	/* cpu, count */
TP_DECLARE(ipi, send);		/* target cpu, sgi */
TP_DECLARE(ipi, receive);	/* sgi */
TP_DECLARE(smp, call);		/* target cpu, fn */
TP_DECLARE(uart, receive);	/* byte */
TP_DECLARE(trace, patch);	/* words or sites, kind (0 sites, 1 words) */

#endif /* BARETRACE_EVENTS_H */
