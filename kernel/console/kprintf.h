/*
 * kernel/console/kprintf.h: printing to the console (console.c), with
 * the kernel's own formatter (kernel/lib/kfmt.h, included here).
 *
 * Kernel code prints with kprintf, never newlib's printf: it takes no
 * locks but the console's, allocates nothing, works in any context and
 * on the crash path. One call is written as one unit under the console
 * lock, so lines from different CPUs never mix; a line of any length
 * comes out whole (longer than 255 bytes it is formatted in pieces, the
 * lock held throughout). Conversions: kfmt.h.
 */
#ifndef KERNEL_KPRINTF_H
#define KERNEL_KPRINTF_H

#include "kfmt.h"

void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* KERNEL_KPRINTF_H */
