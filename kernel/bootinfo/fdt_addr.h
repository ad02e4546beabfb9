/*
 * kernel/bootinfo/fdt_addr.h: finding device nodes in a DTB and reading their
 * registers as CPU physical addresses (devicetree specification v0.4:
 * 2.3.5/2.3.6 #address-cells and #size-cells, 2.3.8 ranges, 3.3 /aliases,
 * 3.6 /chosen stdout-path).
 *
 * Pure, like fdt.c, and built into the host tests (test_fdt_addr.c runs
 * it on Debian's real Raspberry Pi DTBs). Node handles as in fdt.h.
 */
#ifndef KERNEL_FDT_ADDR_H
#define KERNEL_FDT_ADDR_H

#include <stdint.h>

/* The node containing 'node', or -1 for the root (or a bad handle). */
int fdt_parent(const void *fdt, int node);
/* Entry 'index' of the node's reg, seen from the CPU: the child address
 * translated through every ancestor bus's ranges. 0 on success; -1 if
 * the entry is missing or a bus does not map it (no ranges property, or
 * no range covering it). */
int fdt_reg_cpu(const void *fdt, int node, int index, uint64_t *addr,
		uint64_t *size);
/* The first node, depth first, whose compatible list holds 'compat' and
 * whose status is absent or "okay"; -1 if none. */
int fdt_find_compatible(const void *fdt, const char *compat);
/* The node an /aliases property names (a path), or -1. */
int fdt_alias(const void *fdt, const char *alias);
/* The node /chosen stdout-path names (an alias or a path, options after
 * ':' ignored), or -1. */
int fdt_stdout(const void *fdt);

#endif /* KERNEL_FDT_ADDR_H */
