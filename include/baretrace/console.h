/*
 * include/baretrace/console.h: reading the console (part of baretrace.h;
 * include that). Output is printf (newlib) as before.
 *
 * Bytes typed on the console are received by the kernel's UART interrupt
 * on CPU 0 into a 1024-entry ring; these calls take them from it, in
 * order. The application is the only reader while main() runs: the
 * kernel's shell reads the ring only after main() returned, and only with
 * the kernel parameter 'shell'. newlib's read(0, ...) / getchar() take
 * from the same ring (blocking), so use one or the other at a time.
 *
 * Some bytes never reach the application, because the receive interrupt
 * acts on them: the break key (a BREAK, or Ctrl-\ twice within a second:
 * the first Ctrl-\ is delivered, the second is not) prints the break
 * report, and the host tool's end request (DLE CAN then 'i' or 'h',
 * docs/serial-line.md) ends the run. A DLE not followed by CAN within a
 * second is delivered with the bytes after it. Bytes that arrive while the
 * ring is full are dropped (the readers here skip the gap).
 *
 * One reader at a time: the ring has a single consumer. Call these from
 * one CPU's thread context (any CPU, but not two at once, and never from
 * an interrupt handler).
 */
#ifndef BARETRACE_CONSOLE_H
#define BARETRACE_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The next byte (0-255), or -1 at once if none is waiting. */
int bt_console_trygetc(void);
/* The next byte, waiting at most timeout_us microseconds of the generic
 * counter (the CPU idles in WFI meanwhile; a byte wakes it); -1 if none
 * came in time. timeout_us 0 is bt_console_trygetc. */
int bt_console_getc_timeout(uint64_t timeout_us);
/* Reads up to len bytes: waits (as above, at most timeout_us in all) for
 * the first, then takes what else is already waiting, without waiting
 * more. Returns the number read; 0 if nothing came in time. */
size_t bt_console_read(void *buf, size_t len, uint64_t timeout_us);

#ifdef __cplusplus
}
#endif

#endif /* BARETRACE_CONSOLE_H */
