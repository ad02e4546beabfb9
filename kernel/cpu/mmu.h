/*
 * kernel/cpu/mmu.h: page tables and the writable alias of kernel text.
 *
 * One set of tables (39-bit VA, 4 KiB granule) is shared by all CPUs.
 * RAM and MMIO are identity-mapped; the image is mapped page by page with
 * W^X permissions; kernel text is mapped a second time, writable and
 * never executable, at TEXT_ALIAS_BASE. Only kernel/cpu/text_alias.c turns a
 * text address into an alias address.
 */
#ifndef KERNEL_MMU_H
#define KERNEL_MMU_H

#include <stddef.h>
#include <stdint.h>

/* Alias of [_text, _etext): VA = TEXT_ALIAS_BASE + (addr - _text). */
#define TEXT_ALIAS_BASE		0x4000000000UL	/* 256 GiB */
/* One page of code placed far from the image (far beyond a BL's
 * +-128 MiB): mapped read-only and executable here, written only
 * through far_text_place() (kernel/cpu/text_alias.c) via the page's own
 * writable, never-executable mapping in BSS. */
#define FAR_TEXT_BASE		0x6000000000UL	/* 384 GiB */
extern uint8_t far_text_page[];
/* The device window: 2 MiB of virtual addresses that mmu_map_device
 * hands out page by page (kernel/cpu/mmu_devmap.c). */
#define DEVMAP_BASE		0x5000000000UL	/* 320 GiB */
#define DEVMAP_SIZE		0x200000UL

struct mem_region {
	uint64_t base;
	uint64_t size;
};

/* Builds the tables and turns the MMU on for the boot CPU. Runs with the
 * MMU off; 'ram' is what the DTB's /memory says. */
void mmu_init(const struct mem_region *ram);
/* Secondary CPUs turn the MMU on in boot/head.S (secondary_mmu_on),
 * before they touch their stack, from these values (asm reads them in
 * this order). */
struct mmu_boot_regs {
	uint64_t mair;
	uint64_t tcr;
	uint64_t ttbr0;
	uint64_t sctlr_set;	/* ORed into SCTLR_EL1 */
};
extern struct mmu_boot_regs mmu_boot_regs;

/* What mmu_init mapped as RAM (read-only after it) and its root table. */
extern struct mem_region mmu_ram;
uint64_t *mmu_root_table(void);

/* Maps [pa, pa + size) Device-nGnRE, RW, XN at the next free pages of
 * the device window and stores the virtual address of pa in *va. 0, or
 * BT_EINVAL (size 0, wraps), BT_ERAM (overlaps mmu_ram or the image),
 * BT_ERANGE (beyond the CPU's physical address size), BT_ENOSPACE.
 * Thread context; every CPU sees the pages when it returns. */
int mmu_map_device(uint64_t pa, uint64_t size, uintptr_t *va);

/* Every CPU's stack slot (layout in config.h), from boot/head.S. */
extern uint8_t cpu_stack_area[] __attribute__((visibility("hidden")));

/* Cache maintenance by VA, to the point of unification / coherency. */
void dcache_clean_pou(uintptr_t start, uintptr_t end);
void dcache_clean_inval_poc(uintptr_t start, uintptr_t end);
void icache_inval_pou(uintptr_t start, uintptr_t end);

/* Hidden: the image is a static PIE, so these are addressed PC-relative
 * (ADRP/ADD) instead of through the GOT. */
extern char _text[], _etext[], _erodata[], _edata[], _end[]
	__attribute__((visibility("hidden")));

#endif /* KERNEL_MMU_H */
