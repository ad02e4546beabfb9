/*
 * kernel/report/regdump.h: registers and backtraces as text, shared by the
 * crash report (kernel/report/crash.c) and the break key and lockup reports
 * (kernel/report/hang.c, kernel/report/lockup.c). Built without patch sites.
 */
#ifndef KERNEL_REGDUMP_H
#define KERNEL_REGDUMP_H

#include <stdint.h>

#include "exception.h"

#define BACKTRACE_MAX	32

/* "LABEL<address>  symbol+off/size" (or "?"), one line. */
void regdump_sym(const char *label, uintptr_t addr);
/* ELR, LR, x0-x30 and SP of a saved frame, as the crash report prints them. */
void regdump_regs(const struct exc_frame *f);
/*
 * The backtrace of the code f was saved from: entry 0 is its pc, each
 * later one a call. Calls the frame records from x29 do not hold yet (pc
 * at a function's first instruction, or in a recorder or trampoline that
 * a patch site called before the traced function built its record, or in
 * the graph tracer's return trampoline: see regdump_set_unwind_head in
 * hooks.h) come first, then those the records hold
 * (return addresses a tracer replaced are translated back). With out ==
 * NULL each entry is printed as it is found (a walk that faults has
 * printed what it found); otherwise up to BACKTRACE_MAX go to out[].
 * Walks only the calling CPU's own stack or one that cannot change
 * meanwhile. Returns the number of entries.
 */
unsigned int regdump_walk(const struct exc_frame *f, uintptr_t *out);
/* Prints entries collected by regdump_walk, numbered like the crash report's. */
void regdump_backtrace_print(const uintptr_t *pcs, unsigned int n);
/* Set once at init through crash_set_hooks (kernel/report/hooks.h). */
void regdump_set_translate(uint64_t (*translate)(uint64_t ret, unsigned int *hooked));

#endif /* KERNEL_REGDUMP_H */
