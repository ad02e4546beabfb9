/* kernel/report/power.c: power-off with a status that reaches the host. */
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "fault.h"
#include "hang.h"
#include "kprintf.h"
#include "hooks.h"
#include "percpu.h"
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
static void (*outcome_hook)(unsigned int outcome, int status);
/* The outcome marked, RUN_OUTCOMES + 1 while none: set once, by the
 * first CPU to get there (compare-and-swap), never cleared. */
static unsigned int marked = RUN_OUTCOMES + 1;

void power_set_end_hooks(void (*drain)(void), void (*end)(void))
{
	end_drain = drain;
	end_stream = end;
}

void power_set_outcome_hook(void (*mark)(unsigned int outcome, int status))
{
	outcome_hook = mark;
}

/* Not traced: it runs inside crash reports, and its record is the event. */
__attribute__((patchable_function_entry(0, 0)))
void power_mark_outcome(enum run_outcome outcome, int status)
{
	unsigned int none = RUN_OUTCOMES + 1;

	if (!__atomic_compare_exchange_n(&marked, &none, (unsigned int)outcome, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	if (outcome_hook)
		outcome_hook(outcome, status);
}

enum run_outcome power_marked_outcome(void)
{
	unsigned int o = __atomic_load_n(&marked, __ATOMIC_ACQUIRE);

	return o < RUN_OUTCOMES ? (enum run_outcome)o : RUN_OUTCOMES;
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

/* CPU id + 1 of the CPU ending the run, 0 before: the first one to get
 * to power_end (or a reset) ends it; set once, never cleared. */
static int ender;

bool power_ending(void)
{
	return __atomic_load_n(&ender, __ATOMIC_ACQUIRE) != 0;
}

bool power_claim_end(void)
{
	int none = 0, me = (int)cpu_id() + 1;

	return __atomic_compare_exchange_n(&ender, &none, me, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE) || none == me;
}

/* This CPU ends the run; if another already does, this one stops where
 * it is (as a CPU does when another crashes: kernel/report/crash.c). */
static void claim_end(void)
{
	if (power_claim_end())
		return;
	irq_disable();
	WRITE_ONCE(this_cpu()->online, false);	/* what the end waits for */
	for (;;)
		wfi();
}

void power_exit(int status)
{
	power_end(RUN_EXIT, status);
}

void power_end(enum run_outcome outcome, int status)
{
	claim_end();
	power_mark_outcome(outcome, status);
	/* main() returning does not undo a report that began before it
	 * (a lockup noticed on another CPU): that report marked the run's
	 * outcome, the outcome record and the end-of-stream frame say it,
	 * and so does the final line. (A crash or panic meanwhile keeps
	 * its own word.) */
	if (outcome == RUN_EXIT && power_marked_outcome() != outcome) {
		outcome = power_marked_outcome();
		status = 0;
	}
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

void power_watchdog_reset(void)
{
	claim_end();
	power_mark_outcome(RUN_WATCHDOG, 0);
	power_end_drain();
	kprintf("baretrace: exit status %d (%s)\n", run_outcome_code(RUN_WATCHDOG, 0),
		run_outcome_name(RUN_WATCHDOG));
	power_end_stream();
	uart_flush();
	persist_note_outcome(RUN_WATCHDOG);
	persist_clean();
	hw_reset();
	power_end(RUN_WATCHDOG, 0);	/* no reset here: say so, and stop */
}

void power_reset(void)
{
	claim_end();
	power_end_drain();
	kprintf("baretrace: reset\n");
	power_end_stream();
	uart_flush();
	persist_clean();	/* the next boot reads it from RAM */
	hw_reset();
	power_end(RUN_CRASH, 0);
}
