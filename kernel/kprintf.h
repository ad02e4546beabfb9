/*
 * kernel/kprintf.h: the kernel's own formatter.
 *
 * Kernel code prints with kprintf, never newlib's printf: it takes no
 * locks but the console's, allocates nothing, works in any context and
 * on the crash path. One call produces one console write, so lines from
 * different CPUs never mix. Conversions: %d %i %u %x %X %p %s %c %%, with
 * flags '-' '0', a width (or '*' from the arguments), and the length
 * modifiers l, ll and z.
 */
#ifndef KERNEL_KPRINTF_H
#define KERNEL_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* KERNEL_KPRINTF_H */
