/*
 * kernel/report/hang.c: see hang.h. The break key's report and what it shares
 * with the lockup report: the report lock, every CPU's registers through
 * a bounded cross-CPU call, and the trace core's hooks. Built without
 * patch sites: a report must not fill the trace it is about to dump.
 */
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "config.h"
#include "console.h"
#include "exception.h"
#include "hang.h"
#include "hooks.h"
#include "kfmt.h"
#include "kprintf.h"
#include "percpu.h"
#include "power.h"
#include "regdump.h"
#include "smp.h"

/* Set once at init by the trace core (kernel/report/hooks.h). */
static void (*dump_hook)(const char *why);
static void (*last_hook)(unsigned int cpu, unsigned int n);

void hang_set_hooks(void (*dump)(const char *why),
		    void (*last)(unsigned int cpu, unsigned int n))
{
	dump_hook = dump;
	last_hook = last;
}

void hang_dump(const char *why)
{
	if (dump_hook)
		dump_hook(why);
}

void hang_last_records(unsigned int cpu, unsigned int n)
{
	if (last_hook)
		last_hook(cpu, n);
	else
		kprintf("CPU %u: nothing records what it ran (no trace core)\n", cpu);
}

/* CPU id + 1 of the CPU reporting, 0 = none. */
static int report_owner;

bool hang_report_begin(void)
{
	int none = 0;

	return __atomic_compare_exchange_n(&report_owner, &none, (int)cpu_id() + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void hang_report_end(void)
{
	lockup_touch();		/* this CPU had interrupts masked throughout */
	smp_store_release(&report_owner, 0);
}

bool hang_reporting(void)
{
	return READ_ONCE(report_owner) != 0;
}

/*
 * What each CPU recorded of itself. A slot is written only by its own
 * CPU, in regs_here, and read by the reporter only for CPUs that
 * answered the call it made while holding the report lock (the answer's
 * call_seq release orders the slot before the reporter's read). A CPU
 * that answers late writes its slot while nobody reads it.
 */
struct regs_slot {
	struct exc_frame f;		/* general registers only */
	uintptr_t pcs[BACKTRACE_MAX];
	unsigned int npcs;
	bool in_irq;			/* false: called outside an interrupt */
};
static struct regs_slot slots[NR_CPUS];

static void regs_here(void *arg)
{
	struct percpu *pc = this_cpu();
	struct regs_slot *s = &slots[pc->cpu];
	const struct exc_frame *f = pc->irq_frame;

	(void)arg;
	s->in_irq = f != NULL;
	if (!f)
		return;
	for (int i = 0; i < 31; i++)
		s->f.x[i] = f->x[i];
	s->f.sp = f->sp;
	s->f.elr = f->elr;
	s->f.spsr = f->spsr;
	/* This CPU's own stack, frozen under the interrupt: safe to walk. */
	s->npcs = regdump_walk(f, s->pcs);
}

uint64_t hang_gather_regs(void)
{
	unsigned int self = cpu_id();

	regs_here(NULL);
	return (1ULL << self) | smp_call_others_bounded(regs_here, NULL, HANG_CALL_US);
}

void hang_print_regs(unsigned int cpu)
{
	const struct regs_slot *s = &slots[cpu];

	if (!s->in_irq) {
		kprintf("CPU %u: registers not recorded (not called from an interrupt)\n", cpu);
		return;
	}
	/* SPSR.I (bit 7): whether the interrupted code had IRQs masked. */
	kprintf("CPU %u: interrupted at EL%lu, IRQs %s, SPSR %016lx\n", cpu,
		(unsigned long)(s->f.spsr >> 2 & 3),
		s->f.spsr & (1 << 7) ? "masked" : "on", (unsigned long)s->f.spsr);
	regdump_regs(&s->f);
	kprintf("backtrace:\n");
	regdump_backtrace_print(s->pcs, s->npcs);
}

/* Every CPU's registers and backtrace, as gathered ('got'). */
static void print_all(uint64_t got)
{
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		crash_yield();		/* another CPU crashed: its report only */
		kprintf("---- CPU %u ----\n", c);
		if (got & (1ULL << c))
			hang_print_regs(c);
		else
			kprintf("CPU %u: registers unavailable: it did not take the "
				"cross-CPU interrupt within %u ms (interrupts masked?)\n",
				c, HANG_CALL_US / 1000);
		lockup_touch();
	}
	crash_yield();
}

void hang_break(void)
{
	unsigned int self = cpu_id(), n = smp_num_cpus();

	if (!hang_report_begin())
		return;		/* one is running: this key press adds nothing */
	kprintf("\n==== baretrace break on CPU %u: registers of %u CPUs ====\n", self, n);
	print_all(hang_gather_regs());
	hang_dump("break");
	kprintf("==== end of break report: the run continues ====\n");
	hang_report_end();
}

void hang_stop_others(const char *who)
{
	char what[48];

	/* The end first: stopping a CPU that is already ending the run
	 * (main() returned during this report) left nobody to end it, as
	 * this CPU's power_end then found the end taken (issue 39). */
	if (!power_claim_end()) {
		kprintf("another CPU ends the run: the %s's report ends here\n", who);
		return;
	}
	uint64_t running = smp_stop_others();

	/* A CPU stopped holding the console lock must not block the rest. */
	console_panic_mode();
	ksnprintf(what, sizeof(what), "the %s's stop request", who);
	smp_name_silent(running, what, SMP_STOP_US);
}

void hang_end_run(enum run_outcome outcome, const char *who, const char *why, bool reset)
{
	unsigned int self = cpu_id(), n = smp_num_cpus();
	const char *word = run_outcome_name(outcome);

	kprintf("\n==== baretrace %s on CPU %u: %s; registers of %u CPUs ====\n", who, self,
		why, n);
	power_mark_outcome(outcome, 0);		/* here and now, before the dump */
	print_all(hang_gather_regs());
	hang_stop_others(who);
	hang_dump(who);
	kprintf("==== end of %s report: the run ends (%s) ====\n", who,
		reset ? "watchdog reset" : word ? word : "?");
	if (reset)
		power_watchdog_reset();
	power_end(outcome, 0);
}
