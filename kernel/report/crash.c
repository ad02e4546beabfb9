/*
 * kernel/report/crash.c: the crash report and panic.
 *
 * One CPU reports (crash_lock); a second CPU crashing meanwhile stops
 * where it is. The console switches to lock-free writes first, since the
 * crashing CPU may hold the console lock. Built without patch sites.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "bootargs.h"
#include "console.h"
#include "esr.h"
#include "exception.h"
#include "kprintf.h"
#include "percpu.h"
#include "power.h"
#include "regdump.h"
#include "smp.h"
#include "hooks.h"

enum panic_action { PANIC_HALT, PANIC_POWEROFF, PANIC_RESET };
static enum panic_action panic_action = PANIC_HALT;
static int crash_owner;	/* CPU id + 1 of the reporting CPU, 0 = none */

static int param_panic(const char *v)
{
	const char *names[] = { "halt", "poweroff", "reset" };

	for (int i = 0; i < 3; i++) {
		const char *a = names[i], *b = v;

		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (!*a && !*b) {
			panic_action = (enum panic_action)i;
			return 0;
		}
	}
	return -1;
}
KERNEL_PARAM("panic", param_panic,
	     "after a crash or panic: halt (default, for a debugger), poweroff "
	     "(status 139 crash, 134 panic), reset");

/* Set once at init by the trace core (kernel/report/hooks.h). */
static void (*crash_dump)(void);

void crash_set_hooks(void (*dump)(void),
		     uint64_t (*translate)(uint64_t ret, unsigned int *hooked))
{
	crash_dump = dump;
	regdump_set_translate(translate);
}

bool crash_elsewhere(void)
{
	int owner = __atomic_load_n(&crash_owner, __ATOMIC_ACQUIRE);

	return owner && owner != (int)cpu_id() + 1;
}

void crash_yield(void)
{
	if (!crash_elsewhere())
		return;
	irq_disable();
	/* What smp_stop_others waits for: this CPU has stopped. */
	WRITE_ONCE(this_cpu()->online, false);
	for (;;)
		wfi();
}

static void report(struct exc_frame *f, const char *why, const char *word)
{
	uint64_t esr = f->esr;

	kprintf("\n==== baretrace %s on CPU %u: %s ====\n", word, cpu_id(), why);
	if (esr)	/* panic() passes 0: there was no exception */
		kprintf("exception: %s (EC 0x%02lx)", esr_class_name(esr),
			(unsigned long)ESR_EC(esr));
	if (esr_is_abort(esr))
		kprintf(", %s at level %lu on %s", esr_fault_name(esr),
			(unsigned long)(esr & 3),
			ESR_EC(esr) == ESR_EC_IABT ? "instruction fetch" :
			(esr & ESR_WNR) ? "write" : "read");
	kprintf("\nESR %016lx  FAR %016lx  SPSR %016lx\n", (unsigned long)esr,
		(unsigned long)f->far, (unsigned long)f->spsr);
	regdump_regs(f);
	kprintf("backtrace:\n");
	regdump_walk(f, NULL);
	kprintf("==== end of %s report ====\n", word);
}

/* crash() and panic(): outcome RUN_CRASH or RUN_PANIC, whose word heads
 * the report. */
static void __attribute__((noreturn)) crash_end(struct exc_frame *f, const char *why,
						enum run_outcome outcome)
{
	int me = (int)cpu_id() + 1, none = 0;

	irq_disable();
	if (!__atomic_compare_exchange_n(&crash_owner, &none, me, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		if (none != me)
			for (;;)	/* another CPU is reporting */
				wfi();
		/* A fault while reporting: say so and stop without the rest. */
		kprintf("\n==== crash while reporting a crash: %s at %lx ====\n", why,
			(unsigned long)f->elr);
		if (panic_action == PANIC_POWEROFF)
			hw_power_off();
		for (;;)
			wfi();
	}
	/* Stop the others before printing, so none of their output lands
	 * inside the report (a CPU stopped holding the console lock is why
	 * panic mode writes without it). */
	uint64_t running = smp_stop_others();

	console_panic_mode();
	/* The moment it happened, on this CPU, before any dump or drain. */
	power_mark_outcome(outcome, 0);
	report(f, why, run_outcome_name(outcome));
	/* After the report (its first line is what a reader looks for),
	 * before the dump and the drain, which go on without those CPUs:
	 * the end of the run reads their rings from here. */
	smp_name_silent(running, "the crash's stop request", SMP_STOP_US);
	if (crash_dump)		/* what led here, readable without a host */
		crash_dump();
	switch (panic_action) {
	case PANIC_POWEROFF:
		power_end(outcome, 0);
	case PANIC_RESET:
		power_reset();
	case PANIC_HALT:
		break;
	}
	/* A host capture still gets every event and the end of the stream. */
	power_end_drain();
	power_end_stream();
	kprintf("baretrace: halted (boot with panic=poweroff to exit instead)\n");
	for (;;)
		wfi();
}

void panic(const char *fmt, ...)
{
	struct exc_frame f = { 0 };
	char msg[128];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* A frame for the report: the caller's registers as far as C can
	 * see them; ESR 0 reads as "unknown reason". */
	f.elr = (uintptr_t)__builtin_return_address(0);
	f.x[29] = *(const uint64_t *)__builtin_frame_address(0); /* caller's fp */
	f.x[30] = f.elr;
	f.sp = (uintptr_t)__builtin_frame_address(0);
	crash_end(&f, msg, RUN_PANIC);
}

void crash(struct exc_frame *f, const char *why)
{
	crash_end(f, why, RUN_CRASH);
}
