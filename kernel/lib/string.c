/*
 * kernel/lib/string.c: memset without FP/SIMD registers.
 *
 * newlib's aarch64 memset uses SIMD registers. Exception entry saves
 * them when live (kernel/cpu/entry.S), but the trace core's own callbacks run with
 * no FP/SIMD save (their ops carry TRACE_OPS_NO_FPSIMD), and a memset
 * there (or one the compiler emits for a struct) would corrupt the
 * traced application's vector registers. So this definition, linked
 * before libc, still replaces newlib's for the whole image; test/run.py
 * checks that the kernel and trace core call no other library routine
 * that names an FP/SIMD register (strchr only, parsing in thread
 * context).
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
