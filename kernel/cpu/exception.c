/*
 * kernel/cpu/exception.c: what each exception means and where it goes.
 *
 * IRQs go to the interrupt layer; a synchronous exception is either an
 * expected fault (kernel/cpu/fault.h) or a crash; everything else is a crash,
 * reported by the handler registered with exception_set_crash_handler.
 * Built without patch sites: it runs on the way into every handler.
 */
#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include "barrier.h"
#include "esr.h"
#include "exception.h"
#include "fault.h"
#include "irq.h"
#include "kfmt.h"
#include "percpu.h"
#include "restart.h"

extern char exception_vectors[];
/* kernel/cpu/entry_overflow.S: calls exception_overflow(f, kind) on this
 * CPU's emergency stack. */
void exception_switch_to_emergency(struct exc_frame *f, unsigned long kind)
	__attribute__((noreturn));

/* Read on every unexpected exception, written once before the vectors
 * are in place (exception_set_crash_handler). */
static void (*crash_handler)(struct exc_frame *f, const char *why);

void exception_set_crash_handler(void (*fn)(struct exc_frame *f, const char *why))
{
	crash_handler = fn;
}

/* Written once, in thread context, before the registrant writes its
 * first BRK (the text write and its cache maintenance order the store
 * before any CPU can take that BRK); read on every BRK exception. */
static bool (*brk_handler)(struct exc_frame *f, unsigned int imm);

void exception_set_brk_handler(bool (*fn)(struct exc_frame *f, unsigned int imm))
{
	WRITE_ONCE(brk_handler, fn);
}

/* Set by a test that single-steps code (test/target/test_restart.c);
 * read on every software step exception, which nothing else enables. */
static bool (*step_handler)(struct exc_frame *f);

void exception_set_step_handler(bool (*fn)(struct exc_frame *f))
{
	WRITE_ONCE(step_handler, fn);
}

static bool step_taken(struct exc_frame *f)
{
	bool (*fn)(struct exc_frame *) = READ_ONCE(step_handler);

	return ESR_EC(f->esr) == ESR_EC_SSTEP_CUR && fn && fn(f);
}

static bool brk_taken(struct exc_frame *f)
{
	bool (*fn)(struct exc_frame *, unsigned int) = READ_ONCE(brk_handler);

	return ESR_EC(f->esr) == ESR_EC_BRK && fn && fn(f, (unsigned int)(f->esr & 0xffff));
}

/* The crash report, through the pointer the report layer registered. */
static void __attribute__((noreturn)) exception_crash(struct exc_frame *f, const char *why)
{
	void (*fn)(struct exc_frame *, const char *) = crash_handler;

	if (fn)
		fn(f, why);
	irq_disable();
	for (;;)
		wfi();
}

void exception_init_cpu(void)
{
	write_sysreg(vbar_el1, (uintptr_t)exception_vectors);
	/* TPIDR_EL0 and TPIDRRO_EL0 are the application's (docs/applications.md:
	 * "Registers and resources an application may use"; kernel/cpu/tls.c
	 * gives them their first values); the trace core's recursion guard
	 * is EL1 state. */
	this_cpu()->trace_callback_daif = 0;	/* trace/core/entry.S: not in a callback */
	/* Debug exceptions stay masked for good (none are used); so DAIF is
	 * never zero, which trace/core/entry.S relies on. */
	__asm__ volatile("msr daifset, #8" ::: "memory");
	isb();
	/* SErrors (asynchronous external aborts) are reported from now on:
	 * the vectors are in place. Exception entry masks them again while
	 * a handler runs. FIQs stay masked: no board here routes any. */
	__asm__ volatile("msr daifclr, #4" ::: "memory");
	isb();
	/* FP/SIMD off until a context's first FP/SIMD instruction asks for
	 * it (fp_first_use): boot/head.S had it on, for code that runs
	 * before the vectors could take the trap; the kernel itself never
	 * uses it. */
	write_sysreg(cpacr_el1, read_sysreg(cpacr_el1) & ~(uint64_t)CPACR_FPEN);
	isb();	/* later FP/SIMD instructions on this CPU trap */
}

/*
 * The first FP/SIMD instruction of a context with FP/SIMD off (EL1
 * trapped by CPACR_EL1.FPEN: ESR EC 0x07, ELR at that instruction). The
 * context had no FP/SIMD state of its own: it gets a clean one (q0-q31,
 * FPCR and FPSR zero: round to nearest, no flush to zero, no flags),
 * which kernel/cpu/entry.S restores on the way out with FP/SIMD on, so
 * the instruction runs again and no longer traps. FP/SIMD stays on for
 * that context until the exception it runs in (if any) returns, which
 * puts back the CPACR_EL1 it found.
 */
static bool fp_first_use(struct exc_frame *f)
{
	if (ESR_EC(f->esr) != ESR_EC_FP_TRAP)
		return false;
	memset(f->q, 0, sizeof(f->q));
	f->fpcr = 0;
	f->fpsr = 0;
	f->cpacr |= CPACR_FPEN;
	/* On now, not only at the ERET: entry.S loads q0-q31 before it. */
	write_sysreg(cpacr_el1, f->cpacr);
	isb();
	return true;
}

static const char *const kind_names[] = {
	[VEC_SPX_SYNC] = "synchronous exception", [VEC_SPX_IRQ] = "IRQ",
	[VEC_SPX_FIQ] = "FIQ", [VEC_SPX_SERROR] = "SError",
};

/* Runs on this CPU's emergency stack: entered from kernel/cpu/entry.S when an
 * exception arrived with SP outside the CPU's stack (no room for a frame),
 * or from exception_dispatch when a fault hit a guard page. */
void exception_overflow(struct exc_frame *f, unsigned long kind)
{
	struct percpu *pc = this_cpu();
	char why[160];
	bool emergency = false;
	int owner = ESR_EC(f->esr) == ESR_EC_DABT ? stack_guard_owner(f->far, &emergency) : -1;

	if (owner >= 0)
		ksnprintf(why, sizeof(why), "%sstack overflow on CPU %d (%s at %lx, in the "
			  "guard page below it)", emergency ? "emergency " : "", owner,
			  kind < 8 && kind_names[kind] ? kind_names[kind] : "exception",
			  (unsigned long)f->far);
	else
		ksnprintf(why, sizeof(why), "stack overflow on CPU %u (%s with SP %lx, "
			  "outside its stack %lx-%lx)", pc->cpu,
			  kind < 8 && kind_names[kind] ? kind_names[kind] : "exception",
			  (unsigned long)f->sp,
			  (unsigned long)(pc->stack_limit - EXC_ENTRY_RESERVE),
			  (unsigned long)pc->stack_top);
	exception_crash(f, why);
}

static bool hit_stack_guard(const struct exc_frame *f)
{
	bool emergency;

	return ESR_EC(f->esr) == ESR_EC_DABT && stack_guard_owner(f->far, &emergency) >= 0;
}

void exception_dispatch(struct exc_frame *f, unsigned long kind)
{
	switch (kind) {
	case VEC_SPX_IRQ:
		/* Asynchronous: it may land inside a restartable sequence,
		 * which then starts again (restart.h), before any handler
		 * runs. FIQ and SError below crash, never return, and
		 * report the PC they hit; a handler that lets them return
		 * calls exception_restart first. */
		exception_restart(f);
		irq_dispatch(f);
		return;
	case VEC_SPX_SYNC:
		/* fp_first_use first: a function fault_probe_exec runs may use FP;
		 * a probe's BRK before fault_fixup: a probed function may run
		 * under fault_probe_exec */
		if (fp_first_use(f) || brk_taken(f) || fault_fixup(f) || step_taken(f))
			return;
		/* The stack may have only EXC_ENTRY_RESERVE bytes left,
		 * too few for the report: it runs on the emergency stack. */
		if (hit_stack_guard(f))
			exception_switch_to_emergency(f, kind);
		exception_crash(f, "unexpected synchronous exception");
	case VEC_SPX_FIQ:
		exception_crash(f, "unexpected FIQ");
	case VEC_SPX_SERROR: {
		char why[128], syn[80];

		esr_serror_describe(f->esr, syn, sizeof(syn));
		ksnprintf(why, sizeof(why), "SError (asynchronous external abort): %s", syn);
		exception_crash(f, why);
	}
	default:
		exception_crash(f, kind < 4 ? "exception taken while on SP_EL0"
				  : "exception from a lower exception level");
	}
}
