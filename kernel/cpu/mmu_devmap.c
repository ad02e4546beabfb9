/*
 * kernel/cpu/mmu_devmap.c: mapping device registers at run time, into the
 * device window (mmu.h DEVMAP_BASE), for the application API
 * (include/baretrace/device.h).
 *
 * The window is one L1 slot of the shared root table, one L2 table and
 * one L3 table of 512 pages, all invalid at boot. Pages are handed out in
 * order and never taken back. Every entry written here goes from invalid
 * to valid, so no break-before-make and no TLB invalidation is needed (a
 * TLB never holds a translation that faulted); a DSB ISHST makes the
 * entries visible to every CPU's table walker (walks are inner shareable,
 * write-back: mmu.c TCR_WALK) and an ISB makes this CPU's next access use
 * them. Another CPU that touches the address only after learning it from
 * this one (a store it reads after the DSB) also walks the new entries.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "config.h"
#include "mmu.h"
#include "pte.h"
#include "spinlock.h"

/* devmap_lock guards everything below. */
static struct spinlock devmap_lock = SPINLOCK_INIT;
static uint64_t devmap_l2[512] __attribute__((aligned(PAGE_SIZE)));
static uint64_t devmap_l3[512] __attribute__((aligned(PAGE_SIZE)));
static unsigned int devmap_pages_used;

_Static_assert(DEVMAP_SIZE == 512UL * PAGE_SIZE, "one L3 table of pages");
_Static_assert((DEVMAP_BASE & ((1UL << 30) - 1)) == 0, "L1-aligned window");

/* Physical address bits (ID_AA64MMFR0_EL1.PARange), capped at the 48 the
 * tables use (mmu.c). */
static unsigned int pa_bits(void)
{
	static const uint8_t bits[] = { 32, 36, 40, 42, 44, 48 };
	unsigned int r = read_sysreg(id_aa64mmfr0_el1) & 0xf;

	return r < sizeof(bits) ? bits[r] : 48;
}

static bool overlaps(uint64_t lo, uint64_t hi, uint64_t rlo, uint64_t rhi)
{
	return lo < rhi && rlo < hi;
}

int mmu_map_device(uint64_t pa, uint64_t size, uintptr_t *va)
{
	uint64_t lo = pa & ~(uint64_t)(PAGE_SIZE - 1);

	if (!size || pa + size < pa || pa + size + PAGE_SIZE - 1 < pa + size)
		return BT_EINVAL;
	uint64_t hi = (pa + size + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);

	if (hi - 1 >= (1UL << pa_bits()))
		return BT_ERANGE;
	if (overlaps(lo, hi, mmu_ram.base, mmu_ram.base + mmu_ram.size) ||
	    overlaps(lo, hi, (uintptr_t)_text, (uintptr_t)_end))
		return BT_ERAM;

	unsigned long flags = spin_lock_irqsave(&devmap_lock);
	unsigned int npages = (unsigned int)((hi - lo) / PAGE_SIZE);
	int ret = BT_ENOSPACE;

	if ((hi - lo) / PAGE_SIZE <= 512 - devmap_pages_used) {
		uint64_t *root = mmu_root_table();
		uint64_t *l1e = &root[(DEVMAP_BASE >> 30) & 511];

		if (!(*l1e & PTE_VALID)) {
			devmap_l2[0] = (uintptr_t)devmap_l3 | PTE_TABLE | PTE_VALID;
			dsb_ishst();	/* the L2 entry before the L1 entry */
			*l1e = (uintptr_t)devmap_l2 | PTE_TABLE | PTE_VALID;
		}
		for (unsigned int i = 0; i < npages; i++)
			devmap_l3[devmap_pages_used + i] = (lo + (uint64_t)i * PAGE_SIZE) |
				PROT_DEVICE | PTE_TABLE | PTE_VALID;
		dsb_ishst();	/* entries visible to every walker ... */
		isb();		/* ... and used by this CPU from here on */
		*va = DEVMAP_BASE + (uint64_t)devmap_pages_used * PAGE_SIZE + (pa - lo);
		devmap_pages_used += npages;
		ret = 0;
	}
	spin_unlock_irqrestore(&devmap_lock, flags);
	return ret;
}
