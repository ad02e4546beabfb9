/*
 * kernel/bootinfo/fdt.h: a small reader for flattened device trees (DTB, the
 * devicetree specification v0.4 chapter 5).
 *
 * Pure and bounds-checked: every offset is validated against the sizes in
 * the header, so a damaged DTB gives errors, never a wild read. Also
 * built into the host unit tests and a fuzz target. Node handles are
 * offsets of FDT_BEGIN_NODE tokens in the structure block.
 */
#ifndef KERNEL_FDT_H
#define KERNEL_FDT_H

#include <stddef.h>
#include <stdint.h>

#define FDT_MAGIC	0xd00dfeedU
#define FDT_ERR		(-1)

/* Checks the header against 'size' bytes of buffer; 0 if usable. */
int fdt_check(const void *fdt, size_t size);
uint32_t fdt_totalsize(const void *fdt);
/* The node at an absolute path ("/", "/chosen", "/cpus/cpu@0"). A
 * component without '@' also matches a node name with a unit address. */
int fdt_path(const void *fdt, const char *path);
int fdt_first_child(const void *fdt, int node);
int fdt_next_sibling(const void *fdt, int node);
const char *fdt_name(const void *fdt, int node);
/* A property's value and length, or NULL if absent. */
const void *fdt_prop(const void *fdt, int node, const char *name, int *len);
/* True if a string-list property (like "compatible") contains 's'. */
int fdt_prop_has_string(const void *fdt, int node, const char *name,
			const char *s);

/* Big-endian cells, read bytewise (safe with the MMU off). */
uint32_t fdt_be32(const void *p);
uint64_t fdt_cells(const void *p, int ncells);	/* 1 or 2 cells */

#endif /* KERNEL_FDT_H */
