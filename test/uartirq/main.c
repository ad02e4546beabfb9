/*
 * test/uartirq/main.c: does a byte typed on the console raise the UART's
 * receive interrupt? (make APP=test/uartirq; test/run.py's rpi3 stage.)
 *
 * On the Pi 3 that interrupt passes the VideoCore controller and the
 * local one (board/rpi-common/bcm2836_intc.c), a path no KTAP test can
 * exercise without input from the host. The handler takes the console's
 * place, counts interrupts and bytes, and main() reports them once three
 * bytes came or three seconds passed. The host sends only after
 * "uartirq: ready", so no byte reaches the console's handler instead.
 */
#include <stdio.h>

#include <baretrace.h>

#include "irq.h"
#include "uart.h"

#include "board.h"

static volatile int interrupts, bytes;

static void uart_rx(unsigned int irq, void *arg)
{
	(void)irq;
	(void)arg;
	interrupts++;
	while (uart_getc() >= 0)
		bytes++;
}

int main(void)
{
	irq_register(BOARD_UART_IRQ, uart_rx, NULL);
	printf("uartirq: ready\n");
	for (int i = 0; i < 300 && bytes < 3; i++)
		time_delay_us(10000);
	printf("uartirq: %d interrupts, %d bytes\n", interrupts, bytes);
	return bytes == 3 && interrupts > 0 ? 0 : 1;
}
