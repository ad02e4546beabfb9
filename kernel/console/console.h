/*
 * kernel/console/console.h: the serial console shared by every CPU.
 *
 * console_write() emits a buffer as one unit under console_lock with
 * interrupts masked, turning '\n' into "\r\n"; lines from different CPUs
 * never mix. Input is console_input.h.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

void console_init(void);
void console_write(const char *s, size_t n);
/* Bytes as they are, in one piece (binary trace frames). Text written
 * with console_write never contains 0x02, 0x03 or 0x10, the frame
 * delimiters (docs/wire.md): they become '?'. */
void console_write_raw(const void *p, size_t n);
/* From now on write without taking the lock: the crash path, where the
 * holder may be the CPU that crashed. */
void console_panic_mode(void);

#endif /* KERNEL_CONSOLE_H */
