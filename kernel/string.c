/*
 * kernel/string.c: memset without FP/SIMD registers.
 *
 * newlib's aarch64 memset uses SIMD registers. Interrupt handlers do not
 * save FP/SIMD state (kernel/entry.S), so a memset called from one (or
 * emitted by the compiler for a struct there) would corrupt the
 * interrupted application's vector registers. This definition, linked
 * before libc, replaces newlib's for the whole image. newlib's other
 * aarch64 string routines use general registers only.
 * Built -fno-builtin and -fno-tree-loop-distribute-patterns so the loop
 * is not turned back into a call to memset.
 */
#include <stddef.h>
#include <stdint.h>

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	uint64_t v = (uint8_t)c * 0x0101010101010101ULL;

	while (n && ((uintptr_t)d & 7)) {
		*d++ = (uint8_t)c;
		n--;
	}
	for (; n >= 8; n -= 8, d += 8)
		*(uint64_t *)d = v;
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}
