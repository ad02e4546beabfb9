/*
 * kernel/cpu/fault.h: accesses that are allowed to fault.
 *
 * Each probe arms this CPU's percpu->fault_recover before the access; if
 * a synchronous exception arrives while it is armed, the handler resumes
 * at the recovery point instead of crashing. Used by tests that prove W^X
 * and by the semihosting probe. Built without patch sites.
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct exc_frame;

/* Each returns 0 if the access completed, -1 if it faulted. */
int fault_probe_read32(const void *addr, uint32_t *val);
int fault_probe_write32(void *addr, uint32_t val);
/* One access of 1, 2, 4 or 8 bytes, zero-extended into *val. */
int fault_probe_read(const void *addr, unsigned int size, uint64_t *val);
/* Branches to addr as to a void(void) function. */
int fault_probe_exec(const void *addr);
/* Semihosting call (fault_probe.S, a probe like the ones above): returns
 * -1 if no debugger or QEMU answers (the HLT traps as undefined and is
 * recovered). */
long semihost_call(unsigned long op, void *arg);
/* ESR of this CPU's last recovered fault. */
uint64_t fault_last_esr(void);

/* Called by the exception handler: true if the fault was expected and
 * the frame now resumes at the recovery point. */
bool fault_fixup(struct exc_frame *f);

/* The CPU whose guard page holds addr (config.h: one below each stack,
 * one below each emergency stack, then *emergency is set), or -1 when
 * addr is in no guard page. */
int stack_guard_owner(uintptr_t addr, bool *emergency);

#endif /* KERNEL_FAULT_H */
