/* kernel/api/lock.c: include/baretrace/lock.h, the application's
 * spinlocks, on the kernel's ticket locks (kernel/lib/spinlock.h). */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "config.h"
#include "spinlock.h"

/* The opaque public type is the kernel's lock, word for word. */
_Static_assert(sizeof(bt_spinlock) == sizeof(struct spinlock), "bt_spinlock size");
_Static_assert(_Alignof(bt_spinlock) >= _Alignof(struct spinlock), "bt_spinlock alignment");
/* The public per-CPU arrays have a slot for every CPU the kernel runs. */
_Static_assert(BT_MAX_CPUS == NR_CPUS, "BT_MAX_CPUS matches NR_CPUS");

static struct spinlock *kernel_lock(bt_spinlock *l)
{
	return (struct spinlock *)(void *)l;
}

void bt_spin_lock(bt_spinlock *l)
{
	spin_lock(kernel_lock(l));
}

void bt_spin_unlock(bt_spinlock *l)
{
	spin_unlock(kernel_lock(l));
}

bool bt_spin_trylock(bt_spinlock *l)
{
	return spin_trylock(kernel_lock(l));
}

unsigned long bt_spin_lock_irqsave(bt_spinlock *l)
{
	return spin_lock_irqsave(kernel_lock(l));
}

void bt_spin_unlock_irqrestore(bt_spinlock *l, unsigned long flags)
{
	spin_unlock_irqrestore(kernel_lock(l), flags);
}

unsigned long bt_irq_save(void)
{
	return irq_save();
}

void bt_irq_restore(unsigned long flags)
{
	irq_restore(flags);
}

bool bt_irqs_masked(void)
{
	return (read_sysreg(daif) & (1UL << 7)) != 0;	/* DAIF.I */
}
