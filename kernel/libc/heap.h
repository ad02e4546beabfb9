/* kernel/libc/heap.h: the region _sbrk hands to malloc. */
#ifndef KERNEL_HEAP_H
#define KERNEL_HEAP_H

#include <stddef.h>

#include "mmu.h"

/* Picks the largest stretch of RAM above the image that does not hold
 * the DTB, below the region kept across resets (persist.h). */
void heap_init(const struct mem_region *ram, const void *fdt, size_t fdt_size);
void *heap_sbrk(ptrdiff_t incr);	/* NULL when exhausted */
/* RAM as heap_init was given it: the DTB's /memory (first range) or the
 * board's default. */
struct mem_region ram_region(void);

#endif /* KERNEL_HEAP_H */
