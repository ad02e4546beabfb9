/*
 * include/baretrace/cache.h: data cache maintenance for DMA buffers (part
 * of baretrace.h; include that). Thread or interrupt context, any CPU.
 *
 * RAM is mapped Normal write-back cacheable and the boards' DMA masters
 * do not snoop the CPUs' caches, so around a transfer:
 *   CPU wrote, device reads:  bt_dcache_clean(buf, len) before starting it
 *   device writes, CPU reads: bt_dcache_inval(buf, len) before starting it
 *                             AND again after it ends (the CPU may have
 *                             speculatively refilled lines meanwhile)
 *   both directions:          bt_dcache_clean_inval(buf, len)
 * Each works on every cache line that holds a byte of [buf, buf+len), to
 * the point of coherency (DC CVAC / DC IVAC / DC CIVAC), with the line
 * size read from CTR_EL0.DminLine (the smallest D-cache line of the
 * system), and ends with DSB SY, so the maintenance is complete for every
 * observer, devices included, when it returns. Cleaning a range the CPU
 * may be writing at the same time is the caller's race.
 *
 * Partial lines: where buf or buf+len is not on a line boundary, the
 * first and last lines also hold bytes outside the range. bt_dcache_inval
 * cleans and invalidates those two lines (DC CIVAC) instead of discarding
 * them, so a neighbour's newer bytes in them are never lost. The price:
 * if the CPU writes those neighbour bytes while the device writes the
 * buffer, one side's bytes in the shared line are lost anyway. Give DMA
 * buffers their own lines: align start and length to bt_dcache_line()
 * (aligned_alloc(64, ...) or __attribute__((aligned(64))) suffices on
 * every board here; check bt_dcache_line() if in doubt).
 *
 * Return 0, or -1 (and nothing done) for a range that wraps around the
 * address space. len 0 does nothing and returns 0.
 */
#ifndef BARETRACE_CACHE_H
#define BARETRACE_CACHE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

int bt_dcache_clean(const void *buf, size_t len);
int bt_dcache_inval(void *buf, size_t len);
int bt_dcache_clean_inval(void *buf, size_t len);
/* The line size the calls above step by, in bytes (4 << CTR_EL0.DminLine). */
size_t bt_dcache_line(void);

#ifdef __cplusplus
}
#endif

#endif /* BARETRACE_CACHE_H */
