/*
 * include/baretrace/lock.h: spinlocks and interrupt-safe sections for
 * applications (part of baretrace.h; include that).
 *
 * bt_spinlock is a fair (first come, first served) ticket lock shared by
 * every CPU. Taking it is an acquire, dropping it a release: whatever one
 * CPU wrote while holding the lock is seen by the next CPU that takes it,
 * with no other barrier. The type is opaque: initialise it with
 * BT_SPINLOCK_INIT (or zero it, the same thing) and touch it only through
 * these calls.
 *
 * Rules:
 *  - Spinlocks are not recursive: taking a lock this CPU already holds
 *    spins forever (with interrupts masked, the lockup detector then
 *    reports the CPU after lockup_ms; with them on, nothing does).
 *  - Data that an interrupt handler (irq_register, time_tick_hook,
 *    smp_call) also takes the lock for must be locked with the irqsave
 *    pair in thread context; otherwise the handler can interrupt the
 *    holder on its own CPU and spin on the lock for ever.
 *  - Hold a lock briefly; nothing here sleeps. printf and malloc inside a
 *    held spinlock are allowed in thread context but hold it far longer.
 *  - Only once main() runs (the MMU is on: exclusives need Normal memory),
 *    and locks must live in RAM (globals, stack, heap), not device memory.
 *
 * All functions: "any context" (thread, interrupt, tick or smp_call
 * callback), any CPU.
 */
#ifndef BARETRACE_LOCK_H
#define BARETRACE_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bt_spinlock {
	uint32_t opaque;	/* the kernel's ticket pair; do not touch */
} bt_spinlock;

#define BT_SPINLOCK_INIT { 0 }

void bt_spin_lock(bt_spinlock *lock);
void bt_spin_unlock(bt_spinlock *lock);
/* Takes the lock only if nobody holds it or waits for it: true if taken. */
bool bt_spin_trylock(bt_spinlock *lock);

/* Masks interrupts on this CPU (DAIF.I), then takes the lock. Returns the
 * previous interrupt state for bt_spin_unlock_irqrestore, which drops the
 * lock and then puts that state back (so pairs nest correctly). */
unsigned long bt_spin_lock_irqsave(bt_spinlock *lock);
void bt_spin_unlock_irqrestore(bt_spinlock *lock, unsigned long flags);

/* An interrupt-safe section on this CPU alone, without a lock: no
 * interrupt handler runs on this CPU between the two calls (other CPUs
 * run on). Returns the previous state; restore exactly what you saved,
 * innermost first. Keep the section short: the tick, the console's input
 * and cross-CPU calls to this CPU wait until it ends. */
unsigned long bt_irq_save(void);
void bt_irq_restore(unsigned long flags);
/* True if interrupts are masked on this CPU. */
bool bt_irqs_masked(void);

#ifdef __cplusplus
}
#endif

#endif /* BARETRACE_LOCK_H */
