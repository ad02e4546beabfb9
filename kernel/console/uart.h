/*
 * kernel/console/uart.h: what the console needs from a UART driver. Exactly one
 * driver providing these is built per board (board.mk BOARD_DRIVERS).
 */
#ifndef KERNEL_UART_H
#define KERNEL_UART_H

#include <stddef.h>

void uart_init(void);
void uart_putc(char c);			/* waits for FIFO room */
void uart_write(const void *p, size_t n);	/* bytes as they are, in FIFO bursts */
void uart_flush(void);			/* returns once the last bit is sent */
/* A byte, UART_RX_BREAK, or -1 when the FIFO is empty. */
#define UART_RX_BREAK	0x200	/* not a byte: a BREAK condition arrived */
int uart_getc(void);
void uart_rx_irq_enable(void);
/* Board hook, called by uart_init before the UART is enabled: route its
 * pins (board/rpi-common). The driver's weak default does nothing. */
void board_uart_pins(void);

#endif /* KERNEL_UART_H */
