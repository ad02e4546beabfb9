/*
 * kernel/report/lockup.c: the lockup detector. Every CPU's timer tick notes
 * when it ran; a CPU that sees another one go without a tick for
 * lockup_ms (kernel parameter) reports it: the tick count, its last
 * traced functions read from its ring, its registers when it still
 * answers an interrupt (one spinning with interrupts masked does not,
 * and QEMU virt's GICv2 gives the kernel at EL1 non-secure no FIQ or
 * NMI to force it), then the trace dump. Then, by default, the run
 * ends as a hang (RUN_HANG: a CI run must see it); with
 * lockup_action=continue it goes on, and each stall is reported once.
 * Built without patch sites: it runs in every tick.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>
#include "barrier.h"
#include "bootargs.h"
#include "config.h"
#include "exception.h"
#include "hang.h"
#include "hooks.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "power.h"

#define LOCKUP_LAST	16	/* records of the stuck CPU shown */

static unsigned long lockup_ms = 2000;
static bool lockup_continue;	/* lockup_action=continue */
static bool stopped;		/* end of the run: set once, never cleared */

/* Counter value at each CPU's last tick, 0 before its first: written
 * only by that CPU (its tick, or lockup_touch); read by any. */
static uint64_t beat[NR_CPUS];
/* The beat of each CPU's stall already reported: written only by the
 * CPU holding the report lock (hang_report_begin). */
static uint64_t reported[NR_CPUS];

static int param_lockup(const char *val)
{
	unsigned long v;

	if (bootargs_parse_ulong(val, &v) || v > 3600000)
		return -1;
	lockup_ms = v;
	return 0;
}
KERNEL_PARAM("lockup_ms", param_lockup,
	     "report a CPU that takes no timer tick for this long (default 2000, 0 = off)");

static int param_lockup_action(const char *val)
{
	static const char *const names[] = { "end", "continue" };

	for (int i = 0; i < 2; i++) {
		const char *a = names[i], *b = val;

		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (!*a && !*b) {
			lockup_continue = i == 1;
			return 0;
		}
	}
	return -1;
}
KERNEL_PARAM("lockup_action", param_lockup_action,
	     "after a lockup report: end (default: the run ends as a hang, status 124) "
	     "or continue");

void lockup_touch(void)
{
	WRITE_ONCE(beat[cpu_id()], counter_read());
}

void lockup_stop(void)
{
	WRITE_ONCE(stopped, true);
}

static void print_time(const char *label, uint64_t t)
{
	uint64_t hz = time_counter_hz();

	kprintf("%s%lu.%06lu s", label, (unsigned long)(t / hz),
		(unsigned long)(t % hz * 1000000 / hz));
}

static void report(unsigned int cpu, uint64_t last, uint64_t now)
{
	uint64_t hz = time_counter_hz();

	kprintf("\n==== baretrace lockup: CPU %u took no timer tick for %lu ms "
		"(noticed by CPU %u) ====\n", cpu,
		(unsigned long)((now - last) * 1000 / hz), cpu_id());
	if (!lockup_continue)	/* where it was noticed, before the dump */
		power_mark_outcome(RUN_HANG, 0);
	kprintf("CPU %u: %lu ticks taken, the last at", cpu,
		(unsigned long)READ_ONCE(cpu_data(cpu)->ticks));
	print_time(" ", last);
	kprintf("; interrupts masked since, or stuck in a handler\n");
	/* An SGI is the only way in: it waits while the CPU masks IRQs. */
	if (hang_gather_regs() & (1ULL << cpu)) {
		kprintf("CPU %u answered a cross-CPU interrupt just now:\n", cpu);
		hang_print_regs(cpu);
	} else {
		kprintf("CPU %u: registers unavailable: it did not take a cross-CPU "
			"interrupt (SGI) within %u ms, and there is no FIQ or NMI "
			"to reach a CPU with IRQs masked\n", cpu, HANG_CALL_US / 1000);
	}
	lockup_touch();
	crash_yield();		/* another CPU crashed: its report only */
	kprintf("CPU %u: its last %u traced records, oldest first:\n", cpu, LOCKUP_LAST);
	hang_last_records(cpu, LOCKUP_LAST);
	lockup_touch();
	crash_yield();
	hang_dump("lockup");
	if (lockup_continue) {
		kprintf("==== end of lockup report: the run continues ====\n");
		return;
	}
	kprintf("==== end of lockup report: the run ends (hang; lockup_action=continue "
		"goes on) ====\n");
	hang_stop_others("lockup");
	power_end(RUN_HANG, 0);
}

static void lockup_tick(unsigned int self, uint64_t ticks)
{
	uint64_t now = counter_read(), hz = time_counter_hz();
	uint64_t prev = READ_ONCE(beat[self]);
	/* At least three tick periods: a slow tick is not a lockup. */
	uint64_t limit = lockup_ms * hz / 1000, min = 3 * hz / time_tick_hz();

	(void)ticks;
	WRITE_ONCE(beat[self], now);
	if (!lockup_ms || READ_ONCE(stopped) || hang_reporting())
		return;
	if (limit < min)
		limit = min;
	/* A CPU that itself went long without a tick (the host stopped
	 * the whole machine, or it was busy on purpose) does not judge
	 * the others this time: their gaps may be the same pause. */
	if (!prev || now - prev > limit / 2)
		return;
	/* The CPU silent longest is reported: the first to stall, which
	 * may have stopped others (one waiting on it with interrupts
	 * masked goes silent later). Lowest number on a tie. */
	unsigned int stuck = NR_CPUS;
	uint64_t stuck_beat = 0;

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		uint64_t b = READ_ONCE(beat[c]);

		/* b may be newer than 'now' (that CPU ticked meanwhile). */
		if (c == self || !b || (int64_t)(now - b) <= (int64_t)limit ||
		    READ_ONCE(reported[c]) == b || !READ_ONCE(cpu_data(c)->online))
			continue;
		if (stuck == NR_CPUS || b < stuck_beat) {
			stuck = c;
			stuck_beat = b;
		}
	}
	if (stuck == NR_CPUS || !hang_report_begin())
		return;
	/* Still stuck, and not reported by another CPU meanwhile? */
	if (READ_ONCE(beat[stuck]) == stuck_beat && reported[stuck] != stuck_beat) {
		reported[stuck] = stuck_beat;
		report(stuck, stuck_beat, now);
	}
	hang_report_end();
}

static void lockup_init(void)
{
	time_tick_hook(lockup_tick);
}
KERNEL_INIT(lockup_init, KINIT_LATE);
