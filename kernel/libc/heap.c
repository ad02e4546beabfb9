/* kernel/libc/heap.c: see heap.h. */
#include <stdint.h>

#include "heap.h"
#include "kprintf.h"
#include "persist.h"
#include "spinlock.h"

/* heap_lock guards heap_cur (newlib also holds its malloc lock). */
static struct spinlock heap_lock = SPINLOCK_INIT;
static uintptr_t heap_start, heap_cur, heap_end;
/* Set once by heap_init on the boot CPU, read-only after. */
static struct mem_region ram_now;

struct mem_region ram_region(void)
{
	return ram_now;
}

void heap_init(const struct mem_region *ram, const void *fdt, size_t fdt_size)
{
	uintptr_t lo = ((uintptr_t)_end + 0xfff) & ~0xfffUL;
	uintptr_t hi = (uintptr_t)(ram->base + ram->size);
	uintptr_t f0 = (uintptr_t)fdt, f1 = f0 + fdt_size;

	persist_reserve(lo, &hi, fdt ? f0 : 0, fdt ? f1 : 0, ram->size);
	ram_now = *ram;
	if (fdt && f1 > lo && f0 < hi) {
		/* The DTB splits [lo, hi): keep the bigger side. */
		uintptr_t below = f0 > lo ? f0 - lo : 0;
		uintptr_t above = hi > f1 ? hi - f1 : 0;

		if (below >= above)
			hi = f0;
		else
			lo = (f1 + 0xfff) & ~0xfffUL;
	}
	heap_start = heap_cur = lo;
	heap_end = hi > lo ? hi : lo;
	kprintf("heap: %lx..%lx (%lu MiB)\n", (unsigned long)heap_start,
		(unsigned long)heap_end, (unsigned long)((heap_end - heap_start) >> 20));
}

void *heap_sbrk(ptrdiff_t incr)
{
	unsigned long flags = spin_lock_irqsave(&heap_lock);
	uintptr_t old = heap_cur;
	void *ret = NULL;

	if ((incr >= 0 && (uintptr_t)incr <= heap_end - old) ||
	    (incr < 0 && (uintptr_t)-incr <= old - heap_start)) {
		heap_cur = old + (uintptr_t)incr;
		ret = (void *)old;
	}
	spin_unlock_irqrestore(&heap_lock, flags);
	return ret;
}
