/* kernel/report/power.c: power-off with a status that reaches the host. */
#include <stdint.h>

#include "barrier.h"
#include "fault.h"
#include "hang.h"
#include "kprintf.h"
#include "hooks.h"
#include "persist.h"
#include "power.h"
#include "uart.h"
#include "outcome.h"

#define SYS_EXIT			0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/* Registered by whoever records during the run (the trace core): its
 * data goes out before the final line, its end-of-stream frame (which
 * ends a host capture) after it. Set once at init. */
static void (*end_drain)(void), (*end_stream)(void);

void power_set_end_hooks(void (*drain)(void), void (*end)(void))
{
	end_drain = drain;
	end_stream = end;
}

void power_end_drain(void)
{
	lockup_stop();	/* the drain may mask interrupts for as long as it takes */
	if (end_drain)
		end_drain();
}

void power_end_stream(void)
{
	if (end_stream)
		end_stream();
}

void power_exit(int status)
{
	power_end(RUN_EXIT, status);
}

void power_end(enum run_outcome outcome, int status)
{
	int code = run_outcome_code(outcome, status);

	power_end_drain();
	/* The last line in every case: runners without semihosting read
	 * the status from here. An outcome other than main()'s return
	 * carries its word, which no status of main() has. */
	if (outcome == RUN_EXIT)
		kprintf("baretrace: exit status %d\n", status);
	else
		kprintf("baretrace: exit status %d (%s)\n", code, run_outcome_name(outcome));
	power_end_stream();
	uart_flush();	/* the last bit leaves before the machine stops */
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint64_t)(int64_t)code };

	semihost_call(SYS_EXIT, block);
	hw_power_off();
	kprintf("baretrace: power-off failed; halting\n");
	irq_disable();
	for (;;)
		wfi();
}

void power_reset(void)
{
	power_end_drain();
	kprintf("baretrace: reset\n");
	power_end_stream();
	uart_flush();
	persist_clean();	/* the next boot reads it from RAM */
	hw_reset();
	power_end(RUN_CRASH, 0);
}
