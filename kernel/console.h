/*
 * kernel/console.h: the serial console shared by every CPU.
 *
 * console_write() emits a buffer as one unit under console_lock with
 * interrupts masked, turning '\n' into "\r\n"; lines from different CPUs
 * never mix. Input arrives by the UART receive interrupt into a ring
 * (rx_ring.h); console_getc() waits for it.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

void console_init(void);
void console_init_irq(void);		/* once the interrupt layer is up */
void console_write(const char *s, size_t n);
/* Bytes as they are, in one piece (binary trace frames). Text written
 * with console_write never contains 0x02, 0x03 or 0x10, the frame
 * delimiters (docs/wire.md): they become '?'. */
void console_write_raw(const void *p, size_t n);
int console_getc(void);			/* waits; thread context */
int console_trygetc(void);		/* -1 when nothing is waiting */
/* Waits for the next byte, or RX_LOST (rx_ring.h) where the receive
 * ring was full and input went missing: for the shell, which drops the
 * line that lost bytes. Thread context. */
int console_get_input(void);
/* From now on write without taking the lock: the crash path, where the
 * holder may be the CPU that crashed. */
void console_panic_mode(void);

#endif /* KERNEL_CONSOLE_H */
