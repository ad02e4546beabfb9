/* kernel/power.c: power-off with a status that reaches the host. */
#include <stdint.h>

#include "barrier.h"
#include "kprintf.h"
#include "power.h"
#include "uart.h"

#define SYS_EXIT			0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/* trace/control.c: the trace data goes out before the final line, the
 * end-of-stream frame (which ends a host capture) after it. */
void trace_stop_and_drain(void);
void trace_end_stream(void);

void power_exit(int status)
{
	trace_stop_and_drain();
	/* The last line in every case: runners without semihosting read
	 * the status from here. */
	kprintf("baretrace: exit status %d\n", status);
	trace_end_stream();
	uart_flush();	/* the last bit leaves before the machine stops */
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)status };

	semihost_call(SYS_EXIT, block);
	hw_power_off();
	kprintf("baretrace: power-off failed; halting\n");
	irq_disable();
	for (;;)
		wfi();
}

void power_reset(void)
{
	trace_stop_and_drain();
	kprintf("baretrace: reset\n");
	trace_end_stream();
	uart_flush();
	hw_reset();
	power_exit(EXIT_STATUS_CRASH);
}
