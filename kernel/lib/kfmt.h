/*
 * kernel/lib/kfmt.h: the kernel's own formatter (kernel/lib/kfmt.c), into a
 * buffer: no console, no locks, no allocation, so exception and crash
 * code below the console can format text too. kprintf (kprintf.h)
 * prints with it. Conversions: %d %i %u %x %X %p %s %c %%, with flags
 * '-' '0', a width (or '*' from the arguments), and the length
 * modifiers l, ll and z.
 */
#ifndef KERNEL_KFMT_H
#define KERNEL_KFMT_H

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

#endif /* KERNEL_KFMT_H */
