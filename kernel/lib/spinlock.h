/*
 * kernel/lib/spinlock.h: ticket spinlocks.
 *
 * Fair (FIFO) ticket locks built on the compiler's atomics, which use
 * LDXR/STXR on ARMv8.0. Waiters spin on a plain load of 'owner'; the
 * release store of the holder orders every write in the critical
 * section before the next owner's acquire load sees its ticket.
 *
 * Only usable once the MMU is on: exclusives need Normal memory.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"

struct spinlock {
	uint16_t owner;		/* ticket now served; written by the holder */
	uint16_t next;		/* next ticket to hand out; atomic increment */
};

#define SPINLOCK_INIT { 0, 0 }

static inline void spin_lock(struct spinlock *l)
{
	uint16_t me = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->owner, __ATOMIC_ACQUIRE) != me)
		cpu_relax();
}

static inline bool spin_trylock(struct spinlock *l)
{
	uint16_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint16_t expect = owner;

	return __atomic_compare_exchange_n(&l->next, &expect,
					   (uint16_t)(owner + 1), false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->owner, (uint16_t)(l->owner + 1), __ATOMIC_RELEASE);
}

static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
	unsigned long flags = irq_save();

	spin_lock(l);
	return flags;
}

static inline void spin_unlock_irqrestore(struct spinlock *l,
					  unsigned long flags)
{
	spin_unlock(l);
	irq_restore(flags);
}

#endif /* KERNEL_SPINLOCK_H */
