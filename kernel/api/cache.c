/* kernel/api/cache.c: include/baretrace/cache.h, data cache maintenance
 * by VA range to the point of coherency for DMA buffers. */
#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>

#include "api_cache.h"
#include "barrier.h"

size_t bt_dcache_line(void)
{
	return (size_t)4 << ((read_sysreg(ctr_el0) >> 16) & 0xf);	/* DminLine */
}

#define DC(op, a)	__asm__ volatile("dc " op ", %0" ::"r"(a) : "memory")

int cache_range_lines(uintptr_t start, size_t len, size_t line,
		      struct cache_range *r)
{
	if (start + len < start)
		return -1;
	r->first = start & ~(uintptr_t)(line - 1);
	r->end = len ? start + len : start;	/* [first, end) holds the range */
	r->head_partial = len && (start & (line - 1));
	r->tail_partial = len && ((start + len) & (line - 1));
	return 0;
}

static int dcache_op(uintptr_t start, size_t len, int op)
{
	size_t line = bt_dcache_line();
	struct cache_range r;

	if (cache_range_lines(start, len, line, &r))
		return -1;
	for (uintptr_t a = r.first; a < r.end; a += line) {
		bool edge = (a == r.first && r.head_partial) ||
			    (a + line >= r.end && r.tail_partial);

		if (op == 'c')
			DC("cvac", a);
		else if (op == 'i' && !edge)
			DC("ivac", a);
		else
			DC("civac", a);	/* 'b', or a partial line of 'i' */
	}
	/* The maintenance is complete, for devices too, before any later
	 * access (a doorbell write, a read of the buffer). */
	dsb_sy();
	return 0;
}

int bt_dcache_clean(const void *buf, size_t len)
{
	return dcache_op((uintptr_t)buf, len, 'c');
}

int bt_dcache_inval(void *buf, size_t len)
{
	return dcache_op((uintptr_t)buf, len, 'i');
}

int bt_dcache_clean_inval(void *buf, size_t len)
{
	return dcache_op((uintptr_t)buf, len, 'b');
}
