/*
 * kernel/cpu/pte.h: translation table entry bits and memory attributes
 * (ARM DDI 0487, D8.3 VMSAv8-64 descriptor formats; 4 KiB granule), for
 * the tables mmu.c builds at boot and the device window mmu_devmap.c
 * fills at run time.
 */
#ifndef KERNEL_PTE_H
#define KERNEL_PTE_H

#define PTE_VALID	(1UL << 0)
#define PTE_TABLE	(1UL << 1)	/* table (L1/L2) or page (L3) */
#define PTE_ATTR(i)	((uint64_t)(i) << 2)
#define PTE_RO		(1UL << 7)	/* AP[2]: read-only at EL1 */
#define PTE_ISH		(3UL << 8)
#define PTE_AF		(1UL << 10)
#define PTE_PXN		(1UL << 53)
#define PTE_UXN		(1UL << 54)
#define PTE_ADDR_MASK	0x0000fffffffff000UL

/* MAIR_EL1 slots. */
#define ATTR_DEVICE	0		/* Device-nGnRE */
#define ATTR_NORMAL	1		/* Normal, inner/outer WB RA WA */
#define MAIR_VALUE	((0x04UL << (8 * ATTR_DEVICE)) | (0xffUL << (8 * ATTR_NORMAL)))

#define PROT_DEVICE	(PTE_ATTR(ATTR_DEVICE) | PTE_AF | PTE_PXN | PTE_UXN)
#define PROT_RW		(PTE_ATTR(ATTR_NORMAL) | PTE_ISH | PTE_AF | PTE_PXN | PTE_UXN)
#define PROT_RO		(PROT_RW | PTE_RO)
#define PROT_RX		(PTE_ATTR(ATTR_NORMAL) | PTE_ISH | PTE_AF | PTE_RO | PTE_UXN)

#endif /* KERNEL_PTE_H */
