/*
 * kernel/report/hooks.h: where other layers act without the kernel naming them.
 * The trace core registers on these (trace/control/kernel_hooks.c); the kernel
 * calls whatever is registered and works the same when nothing is.
 *
 *  - Init calls, at two points of boot (kernel/main.c): KERNEL_INIT puts
 *    a function in the .kinits table, like KERNEL_PARAM.
 *  - The end of a run (power-off, reset, crash, panic): a drain that runs
 *    before the final console line and an end that runs after it; and
 *    how the run ended, marked once where it happened (a record in the
 *    trace of the CPU that got there) and carried by the end.
 *  - Crash reports: a dump of what led there, and a translation of return
 *    addresses that a tracer replaced (for backtraces).
 *  - Hang reports (break key, lockup detector): a dump that leaves the
 *    run going, and the newest records of one CPU.
 * Each setter is called once, at init, before the hook can run.
 */
#ifndef KERNEL_HOOKS_H
#define KERNEL_HOOKS_H

#include <stdbool.h>
#include <stdint.h>

enum kernel_init_point {
	KINIT_EARLY = 1,	/* heap and PMU ready; before interrupts and SMP */
	KINIT_LATE = 2,		/* every CPU online; just before main() */
};

struct kernel_init {
	void (*fn)(void);
	unsigned int point;	/* enum kernel_init_point */
};

#define KERNEL_INIT(f, pt)						\
	static const struct kernel_init kinit_##f			\
	__attribute__((used, section(".kinits"), aligned(8))) = { f, pt }

/* kernel/main.c: runs every init call registered for 'point'. */
void kernel_run_inits(unsigned int point);

/* kernel/report/power.c */
void power_set_end_hooks(void (*drain)(void), void (*end)(void));
/* Runs them (each at most once per run is the registrant's business). */
void power_end_drain(void);
void power_end_stream(void);
/* kernel/report/power.c: 'mark' notes how the run ended (enum run_outcome,
 * and main()'s status for RUN_EXIT) on the calling CPU, at the moment it
 * happened: power_mark_outcome() calls it once per run, before any dump
 * or drain, with interrupts masked or in an exception handler. */
void power_set_outcome_hook(void (*mark)(unsigned int outcome, int status));

/* kernel/report/crash.c: dump runs after the report; translate maps a return
 * address found in a frame record to the real one (counting in *hooked
 * those it changed), or returns it unchanged. */
void crash_set_hooks(void (*dump)(void),
		     uint64_t (*translate)(uint64_t ret, unsigned int *hooked));

/* kernel/report/regdump.c: 'head' tells backtraces about code that a patch
 * site called before the traced function built its frame record (a
 * recorder, a trampoline), and about the graph tracer's return
 * trampoline: when f's pc is in such code, or at a site itself, it
 * returns true with *func = the traced function (0 when there is none
 * to add), *ret = the return address the frame records do not hold yet
 * (0 when the record at *fp does) and *fp = where the records go on
 * (f->x[29] when called, changed only when that code made a record of
 * its own); false elsewhere. It runs in crash reports: it reads
 * registers and the interrupted stack, and never faults. */
struct exc_frame;
void regdump_set_unwind_head(bool (*head)(const struct exc_frame *f, uintptr_t *func,
					  uintptr_t *ret, uintptr_t *fp));

/* kernel/report/hang.c: after a break-key or lockup report, 'dump' shows what
 * every CPU recorded (as text, and as frames for a host capture) without
 * stopping anything; 'why' names the report ("break", "lockup"). 'last'
 * prints the newest n records of CPU 'cpu', read while it may still be
 * writing. Both run in interrupt context, interrupts masked. */
void hang_set_hooks(void (*dump)(const char *why),
		    void (*last)(unsigned int cpu, unsigned int n));

#endif /* KERNEL_HOOKS_H */
