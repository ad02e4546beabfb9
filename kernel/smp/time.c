/*
 * kernel/smp/time.c: time from the generic counter, the periodic tick and
 * its hooks.
 */
#include <stdint.h>

#include <baretrace_events.h>
#include "barrier.h"
#include "bootargs.h"
#include "irq.h"
#include "kprintf.h"
#include "percpu.h"
#include "ktime.h"

#define DAIF_IRQ_MASKED (1UL << 7)	/* DAIF.I as irq_save() returns it */

static uint64_t counter_hz;
static unsigned int tick_hz = 100;
static uint64_t tick_interval;

/* Hooks: appended under no lock by thread code on CPU 0 only before or
 * after ticks run; the count is published with a release store after
 * the slot is written, and the tick reads it with an acquire load. */
static tick_fn tick_hooks[TICK_HOOKS_MAX];
static unsigned int tick_hook_count;

static int param_tick_hz(const char *val)
{
	unsigned long v;

	if (bootargs_parse_ulong(val, &v) || v < 1 || v > 10000)
		return -1;
	tick_hz = (unsigned int)v;
	return 0;
}
KERNEL_PARAM("tick_hz", param_tick_hz, "timer tick rate in Hz (1-10000, default 100)");

uint64_t time_counter(void)
{
	isb();	/* CNTVCT is not ordered with earlier instructions otherwise */
	return read_sysreg(cntvct_el0);
}

uint64_t time_counter_hz(void)
{
	return counter_hz;
}

uint64_t time_ns(void)
{
	uint64_t c = time_counter();

	return (c / counter_hz) * 1000000000ULL +
	       (c % counter_hz) * 1000000000ULL / counter_hz;
}

/* Rounded up to whole counter ticks, so never shorter than asked. */
void time_delay_us(uint64_t us)
{
	uint64_t start = time_counter();
	uint64_t ticks = (us * counter_hz + 999999) / 1000000;

	while (time_counter() - start < ticks)
		cpu_relax();
}

void time_delay_ms(uint64_t ms)
{
	time_delay_us(ms * 1000);
}

uint64_t time_ticks(void)
{
	return READ_ONCE(this_cpu()->ticks);
}

/*
 * Idle in WFI rather than spin: a spinning CPU burns power on hardware,
 * and under QEMU -icount virtual time only advances by the instructions
 * executed, so a CPU spinning until the next tick has to execute one
 * instruction per nanosecond of it (shift=0) while the others sleep;
 * with every CPU in WFI, QEMU jumps straight to the next timer event.
 * WFI is only safe once the tick has been taken on this CPU with
 * interrupts enabled: before that (or with interrupts masked by the
 * caller) a timer that never interrupts would hang us, so spin instead,
 * bounded by max_us.
 */
int time_wait_tick(uint64_t seen, uint64_t max_us)
{
	struct percpu *pc = this_cpu();
	unsigned long flags = irq_save();

	if (!(flags & DAIF_IRQ_MASKED) && READ_ONCE(pc->ticks) != 0) {
		/* Masked check, then WFI: a tick that comes between the two
		 * stays pending and ends the WFI; unmasking takes it. Other
		 * interrupts end the WFI too, hence the loop. */
		while (READ_ONCE(pc->ticks) == seen) {
			wfi();
			irq_restore(flags);
			irq_save();
		}
		irq_restore(flags);
		return 0;
	}
	irq_restore(flags);

	uint64_t end = time_counter() + max_us * counter_hz / 1000000;

	while (READ_ONCE(pc->ticks) == seen) {
		if (time_counter() >= end)
			return -1;
		cpu_relax();
	}
	return 0;
}

unsigned int time_tick_hz(void)
{
	return tick_hz;
}

int time_tick_hook(tick_fn fn)
{
	unsigned int n = tick_hook_count;

	if (n == TICK_HOOKS_MAX || !fn)
		return -1;
	tick_hooks[n] = fn;
	smp_store_release(&tick_hook_count, n + 1);
	return 0;
}

static void tick_irq(unsigned int irq, void *arg)
{
	struct percpu *pc = this_cpu();
	unsigned int n = smp_load_acquire(&tick_hook_count);

	(void)irq;
	(void)arg;
	timer_rearm(tick_interval);
	pc->ticks++;
	trace_event(timer, tick, pc->cpu, pc->ticks);
	for (unsigned int i = 0; i < n; i++) {
		tick_hooks[i](pc->cpu, pc->ticks);
		irq_handler_next();
	}
	/*
	 * YIELD: a hint on hardware (and under multi-threaded TCG), but
	 * single-threaded QEMU ends this CPU's time slice on it. QEMU 7.2
	 * under -icount (make ICOUNT=1) gives each CPU in turn every
	 * instruction up to the next timer deadline: a CPU that computes
	 * and never waits uses them all, and the next CPU in turn finds
	 * none left, every round, so it takes no tick however long the
	 * run (CPU 1 took 8 ticks in 12 s under an mbed TLS self-test,
	 * and the lockup detector ended the run; issue 39). Leaving the
	 * slice once a tick lets the others run at least that often.
	 * QEMU 8.1 splits the slice between the CPUs itself ("ensure
	 * fairness with icount"); test/icount_busy.py checks it here.
	 */
	cpu_relax();
}

void time_init(void)
{
	counter_hz = timer_read_hz();
	tick_interval = counter_hz / tick_hz;
	kprintf("time: counter %lu Hz, tick %u Hz\n",
		(unsigned long)counter_hz, tick_hz);
}

void time_init_cpu(void)
{
	irq_register(timer_irq(), tick_irq, NULL);
	timer_start(tick_interval);
}
