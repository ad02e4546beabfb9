/*
 * kernel/kprintf.h: the kernel's own formatter.
 *
 * Kernel code prints with kprintf, never newlib's printf: it takes no
 * locks but the console's, allocates nothing, works in any context and
 * on the crash path. One call is written as one unit under the console
 * lock, so lines from different CPUs never mix; a line of any length
 * comes out whole (longer than 255 bytes it is formatted in pieces, the
 * lock held throughout). Conversions: %d %i %u %x %X %p %s %c %%, with
 * flags '-' '0', a width (or '*' from the arguments), and the length
 * modifiers l, ll and z.
 */
#ifndef KERNEL_KPRINTF_H
#define KERNEL_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* Formats into buf as a window: each time it fills, emit(buf, n) gets
 * it and it refills; what is left goes at the end. Output of any length
 * through a small buffer. Returns the whole length. */
int kvformat_chunks(char *buf, size_t size, void (*emit)(const char *s, size_t n),
		    const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* KERNEL_KPRINTF_H */
