/*
 * kernel/cpu/mmu.c: page tables, MMU enable, cache maintenance.
 *
 * Runs before the MMU is on (boot CPU) and while it is being turned on
 * (every CPU), so it is built -mstrict-align and without patch sites.
 *
 * Map (identity unless noted):
 *   board MMIO windows          Device-nGnRE, RW, XN
 *   RAM outside the image       Normal WB, RW, XN
 *   [_text, _etext)             Normal WB, RO, executable
 *   [_etext, _erodata)          Normal WB, RO, XN
 *   [_erodata, _end)            Normal WB, RW, XN, except the guard
 *                               pages of cpu_stack_area (unmapped)
 *   TEXT_ALIAS_BASE + text      Normal WB, RW, XN (the patcher's window)
 *   FAR_TEXT_BASE               Normal WB, RO, executable: one BSS page
 *                               (far_text_page, itself RW, XN) seen as
 *                               code far from the image
 *   DEVMAP_BASE                 Device-nGnRE, RW, XN: empty at boot,
 *                               filled by mmu_map_device (mmu_devmap.c)
 * Nothing else is mapped, and RAM below NULL_GUARD never is (the Pi's RAM
 * starts at 0), so a NULL dereference faults on every board.
 */
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "config.h"
#include "mmu.h"
#include "pte.h"

#include "board.h"

#define PT_ENTRIES	512
#define PT_POOL		24		/* L1 + L2s + L3s for image and alias */
#define BLOCK_SIZE	(1UL << 21)	/* level-2 block */
#define NULL_GUARD	0x10000UL	/* RAM below 64 KiB stays unmapped */


/* TCR_EL1: 39-bit VA in TTBR0, 4 KiB granule, walks cacheable inner
 * shareable, TTBR1 walks disabled. IPS is filled from PARange. */
#define TCR_T0SZ	(64 - 39)
#define TCR_WALK	((1UL << 8) | (1UL << 10) | (3UL << 12))
#define TCR_EPD1	(1UL << 23)

#define SCTLR_M		(1UL << 0)
#define SCTLR_C		(1UL << 2)
#define SCTLR_SA	(1UL << 3)
#define SCTLR_I		(1UL << 12)

/* Written by the boot CPU before any other CPU starts; read-only after. */
static uint64_t pt_pool[PT_POOL][PT_ENTRIES] __attribute__((aligned(PAGE_SIZE)));
uint8_t far_text_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));
static unsigned int pt_used;
/* The RAM mmu_init mapped (the DTB's first /memory range); written once
 * by mmu_init, read-only after. */
struct mem_region mmu_ram;
/* What secondary_mmu_on (boot/head.S) loads, with its MMU still off:
 * written once by mmu_init and cleaned to the point of coherency. The
 * layout is fixed by that code: mair, tcr, ttbr0, SCTLR bits to set. */
struct mmu_boot_regs mmu_boot_regs;

static uint64_t *pt_alloc(void)
{
	if (pt_used == PT_POOL)
		for (;;)	/* no console yet: a bigger PT_POOL is the fix */
			wfe();
	return pt_pool[pt_used++];
}

static uint64_t *pt_next(uint64_t *entry)
{
	if (!(*entry & PTE_VALID))
		*entry = (uintptr_t)pt_alloc() | PTE_TABLE | PTE_VALID;
	return (uint64_t *)(*entry & PTE_ADDR_MASK);
}

/* Maps [va, va+size) to pa with 2 MiB blocks where both are aligned and
 * 4 KiB pages elsewhere. Ranges must not overlap earlier ones at block
 * granularity with different attributes (the callers below ensure it). */
static void map_range(uint64_t va, uint64_t pa, uint64_t size, uint64_t prot)
{
	uint64_t *root = pt_pool[0];
	uint64_t end = va + size;

	while (va < end) {
		uint64_t *l2 = pt_next(&root[(va >> 30) & 511]);
		uint64_t *l2e = &l2[(va >> 21) & 511];

		if (!(va & (BLOCK_SIZE - 1)) && !(pa & (BLOCK_SIZE - 1)) &&
		    end - va >= BLOCK_SIZE && !(*l2e & PTE_VALID)) {
			*l2e = pa | prot | PTE_VALID;
			va += BLOCK_SIZE;
			pa += BLOCK_SIZE;
			continue;
		}
		uint64_t *l3 = pt_next(l2e);
		l3[(va >> 12) & 511] = pa | prot | PTE_TABLE | PTE_VALID;
		va += PAGE_SIZE;
		pa += PAGE_SIZE;
	}
}

static uint64_t page_down(uint64_t x) { return x & ~(uint64_t)(PAGE_SIZE - 1); }
static uint64_t page_up(uint64_t x) { return page_down(x + PAGE_SIZE - 1); }

/* Maps [lo, hi) read-write, leaving out each CPU's two guard pages in
 * cpu_stack_area: a stack that overflows faults there. */
static void map_rw_but_guards(uint64_t lo, uint64_t hi)
{
	uint64_t area = (uintptr_t)cpu_stack_area;

	for (unsigned int c = 0; c < NR_CPUS; c++) {
		uint64_t slot = area + (uint64_t)c * STACK_SLOT_SIZE;
		uint64_t stack = slot + STACK_SLOT_STACK;
		uint64_t emergency = slot + STACK_SLOT_EMERGENCY;

		map_range(lo, lo, slot - lo, PROT_RW);	/* up to the guard */
		map_range(stack, stack, STACK_SIZE, PROT_RW);
		map_range(emergency, emergency, EMERGENCY_STACK_SIZE, PROT_RW);
		lo = emergency + EMERGENCY_STACK_SIZE;
	}
	map_range(lo, lo, hi - lo, PROT_RW);
}

static void map_ram_around_image(const struct mem_region *ram)
{
	uint64_t lo = ram->base < NULL_GUARD ? NULL_GUARD : ram->base;
	uint64_t hi = ram->base + ram->size;
	uint64_t img_lo = (uintptr_t)_text, img_hi = page_up((uintptr_t)_end);

	/* Image pages first, so RAM blocks never swallow them. */
	map_range(img_lo, img_lo, (uintptr_t)_etext - img_lo, PROT_RX);
	map_range((uintptr_t)_etext, (uintptr_t)_etext,
		  (uintptr_t)_erodata - (uintptr_t)_etext, PROT_RO);
	map_rw_but_guards((uintptr_t)_erodata, img_hi);

	/* RAM below and above the image; the 2 MiB blocks that hold image
	 * pages are already tables, so map_range falls back to pages. */
	if (img_lo > lo)
		map_range(lo, lo, img_lo - lo, PROT_RW);
	if (hi > img_hi)
		map_range(img_hi, img_hi, hi - img_hi, PROT_RW);
}

static void mmu_enable_boot_cpu(void);

void mmu_init(const struct mem_region *ram)
{
	static const struct mem_region mmio[] = BOARD_MMIO_WINDOWS;

	mmu_ram = *ram;
	pt_alloc();	/* root */
	for (unsigned int i = 0; i < sizeof(mmio) / sizeof(mmio[0]); i++)
		map_range(mmio[i].base, mmio[i].base, mmio[i].size, PROT_DEVICE);
	map_ram_around_image(ram);
	map_range(TEXT_ALIAS_BASE, (uintptr_t)_text,
		  (uintptr_t)_etext - (uintptr_t)_text, PROT_RW);
	map_range(FAR_TEXT_BASE, (uintptr_t)far_text_page, PAGE_SIZE, PROT_RX);

	uint64_t parange = read_sysreg(id_aa64mmfr0_el1) & 0xf;

	if (parange > 5)
		parange = 5;	/* 48-bit is plenty for any board here */
	mmu_boot_regs.mair = MAIR_VALUE;
	mmu_boot_regs.tcr = TCR_T0SZ | TCR_WALK | TCR_EPD1 | (parange << 32);
	mmu_boot_regs.ttbr0 = (uintptr_t)pt_pool[0];
	mmu_boot_regs.sctlr_set = SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_SA;

	/* The tables and the registers were written with the MMU off
	 * (straight to memory); drop any stale cache lines before walks, or
	 * this CPU with caches on, may allocate them. */
	dsb_sy();
	dcache_clean_inval_poc((uintptr_t)pt_pool, (uintptr_t)pt_pool[PT_POOL]);
	dcache_clean_inval_poc((uintptr_t)&mmu_boot_regs,
			       (uintptr_t)(&mmu_boot_regs + 1));
	mmu_enable_boot_cpu();
}

/* The boot CPU's twin of secondary_mmu_on (boot/head.S), in C: this CPU
 * already runs C on its stack with the MMU off (the boot protocol enters
 * with the D-cache off and the loader's lines cleaned), so what it wrote
 * so far is in memory, where the cached view finds it. */
static void mmu_enable_boot_cpu(void)
{
	write_sysreg(mair_el1, mmu_boot_regs.mair);
	write_sysreg(tcr_el1, mmu_boot_regs.tcr);
	write_sysreg(ttbr0_el1, mmu_boot_regs.ttbr0);
	isb();
	__asm__ volatile("tlbi vmalle1\n\tic iallu" ::: "memory");
	dsb_ish();
	isb();
	write_sysreg(sctlr_el1, read_sysreg(sctlr_el1) | mmu_boot_regs.sctlr_set);
	isb();
}

uint64_t *mmu_root_table(void)
{
	return pt_pool[0];
}

static uint64_t cache_line(bool icache)
{
	uint64_t ctr = read_sysreg(ctr_el0);

	return 4UL << (icache ? (ctr & 0xf) : ((ctr >> 16) & 0xf));
}

#define CACHE_OP_RANGE(name, insn, icache)				\
void name(uintptr_t start, uintptr_t end)				\
{									\
	uint64_t line = cache_line(icache);				\
	for (uintptr_t a = start & ~(line - 1); a < end; a += line)	\
		__asm__ volatile(insn " %0" ::"r"(a) : "memory");	\
	dsb_ish();							\
}

CACHE_OP_RANGE(dcache_clean_pou, "dc cvau,", false)
CACHE_OP_RANGE(dcache_clean_inval_poc, "dc civac,", false)
CACHE_OP_RANGE(icache_inval_pou, "ic ivau,", true)
