/*
 * kernel/cpu/restart.h: code that an asynchronous exception restarts
 * from its top instead of resuming in the middle.
 *
 * A sequence that must not be seen half done by an interrupt handler of
 * its own CPU (a recorder appending to this CPU's ring) need not mask
 * interrupts: it puts its code in section .text.restartable and, for
 * each range of it, an entry { start, end, restart } in section
 * .restart_table (RESTARTABLE below). An IRQ, FIQ or SError taken from
 * EL1 with ELR_EL1 in [start, end) resumes at 'restart' instead, so the
 * handler runs as if the sequence had not begun, and the sequence runs
 * again from its top afterwards. Such a sequence must make every store
 * that others read in its last instruction (end - 4), modify no register
 * its restart reads, and leave nothing that a second run from the top
 * would misread. The kernel knows only these sections (the linker script
 * gives their bounds), never who put code in them.
 *
 * Cost for an exception outside every range: one subtraction and one
 * compare against the whole section's span.
 */
#ifndef KERNEL_RESTART_H
#define KERNEL_RESTART_H

#ifdef __ASSEMBLER__
/* An entry of .restart_table: [start, end) restarts at restart. */
	.macro	RESTARTABLE start, end, restart
	.pushsection .restart_table, "a"
	.balign	8
	.quad	\start, \end, \restart
	.popsection
	.endm
#else
#include <stdbool.h>
#include <stdint.h>
#include "exception.h"

struct restart_range {
	uintptr_t start, end, restart;	/* [start, end) restarts at restart */
};

extern const char __restartable_start[], __restartable_end[];
extern const struct restart_range __restart_table_start[], __restart_table_end[];

/* Called by the exception entry for an asynchronous exception, before
 * its handler: when the interrupted PC is inside a restartable range,
 * the frame resumes at the range's restart address. True if it did. */
static inline bool exception_restart(struct exc_frame *f)
{
	uintptr_t pc = f->elr;

	if (__builtin_expect(pc - (uintptr_t)__restartable_start >=
			     (uintptr_t)(__restartable_end - __restartable_start), 1))
		return false;
	for (const struct restart_range *r = __restart_table_start; r < __restart_table_end; r++)
		if (pc >= r->start && pc < r->end) {
			f->elr = r->restart;
			return true;
		}
	return false;
}
#endif

#endif /* KERNEL_RESTART_H */
