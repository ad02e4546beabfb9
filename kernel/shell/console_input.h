/*
 * kernel/shell/console_input.h: the console's input. Bytes arrive by the UART
 * receive interrupt into a ring (rx_ring.h); console_getc() waits for
 * them. The same interrupt takes the break key (kernel/report/hang.h). Output
 * is console.h.
 */
#ifndef KERNEL_CONSOLE_INPUT_H
#define KERNEL_CONSOLE_INPUT_H

#include <stdbool.h>

void console_init_irq(void);		/* once the interrupt layer is up */
int console_getc(void);			/* waits; thread context */
int console_trygetc(void);		/* -1 when nothing is waiting */
/* Waits for the next byte, or RX_LOST (rx_ring.h) where the receive
 * ring was full and input went missing: for the shell, which drops the
 * line that lost bytes. Thread context. */
int console_get_input(void);
/* A capture (baretrace capture) announced itself on this console since
 * boot (the capture's mark, docs/serial-line.md): binary trace frames
 * reach a program that keeps them, not a terminal. */
bool console_captured(void);
/* The command typed at the console that this CPU runs now (the shell
 * sets it around each command of a line shell_run read, NULL after), or
 * NULL: for code that must treat a person at a terminal differently
 * from C code calling shell_exec (trace frames). Thread context. */
void console_set_typed(const char *cmd);
const char *console_typed_command(void);

#endif /* KERNEL_CONSOLE_INPUT_H */
