/* kernel/report/persist.c: see persist.h. */
#include <stdint.h>

#include "kprintf.h"
#include "persist.h"

#define PERSIST_ALIGN	(2UL << 20)

/* Set once by heap_init on the boot CPU, read-only after. */
static struct mem_region region;

void persist_reserve(uintptr_t lo, uintptr_t *hi, uintptr_t fdt0, uintptr_t fdt1)
{
	uintptr_t top = *hi >= lo + PERSIST_BELOW_TOP + PERSIST_MIN_RAM ?
			(*hi - PERSIST_BELOW_TOP) & ~(PERSIST_ALIGN - 1) : 0;
	uintptr_t base = top - PERSIST_BYTES;

	if (!top || base < lo)
		return;
	if (fdt1 > base && fdt0 < top)
		return;		/* the DTB sits there: nothing is kept */
	region = (struct mem_region){ base, PERSIST_BYTES };
	*hi = base;	/* what lies above stays unused, for a loader */
	kprintf("persist: %lx..%lx kept across resets\n", (unsigned long)base,
		(unsigned long)top);
}

struct mem_region persist_region(void)
{
	return region;
}

void persist_clean(void)
{
	if (region.size)
		dcache_clean_inval_poc((uintptr_t)region.base,
				       (uintptr_t)(region.base + region.size));
}
