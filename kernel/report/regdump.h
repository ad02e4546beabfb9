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
 * Walks the frame records from fp; entry 0 is pc, each later one the
 * call that a return address found in a record belongs to (return
 * addresses a tracer replaced are translated back). With out == NULL
 * each entry is printed as it is found (a walk that faults has printed
 * what it found); otherwise up to BACKTRACE_MAX go to out[]. Walks only
 * the calling CPU's own stack or one that cannot change meanwhile.
 * Returns the number of entries.
 */
unsigned int regdump_walk(uintptr_t pc, uintptr_t fp, uintptr_t *out);
/* Prints entries collected by regdump_walk, numbered like the crash report's. */
void regdump_backtrace_print(const uintptr_t *pcs, unsigned int n);
/* Set once at init through crash_set_hooks (kernel/report/hooks.h). */
void regdump_set_translate(uint64_t (*translate)(uint64_t ret, unsigned int *hooked));

#endif /* KERNEL_REGDUMP_H */
