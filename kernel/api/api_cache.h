/* kernel/api/api_cache.h: the range arithmetic of kernel/api/cache.c,
 * for its tests. */
#ifndef KERNEL_API_CACHE_H
#define KERNEL_API_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cache_range {
	uintptr_t first;	/* the first line's address */
	uintptr_t end;		/* one past the range's last byte */
	bool head_partial;	/* the first line holds bytes before start */
	bool tail_partial;	/* the last line holds bytes after the end */
};

/* -1 if [start, start + len) wraps around; else fills *r, 0. */
int cache_range_lines(uintptr_t start, size_t len, size_t line,
		      struct cache_range *r);

#endif /* KERNEL_API_CACHE_H */
