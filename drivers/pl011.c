/*
 * drivers/pl011.c: Arm PrimeCell PL011 UART (DDI 0183), polled transmit,
 * interrupt-driven receive. Base, clock and baud come from board.h.
 */
#include <stddef.h>
#include <stdint.h>

#include "fdt_dev.h"
#include "pl011_div.h"
#include "uart.h"

#include "board.h"

#define UART_DR		0x00
#define UART_FR		0x18
#define UART_IBRD	0x24
#define UART_FBRD	0x28
#define UART_LCR_H	0x2c
#define UART_CR		0x30
#define UART_IMSC	0x38
#define UART_ICR	0x44

#define DR_BE		(1 << 10)	/* the entry is a BREAK, not a byte */

#define FR_BUSY		(1 << 3)
#define FR_RXFE		(1 << 4)
#define FR_TXFF		(1 << 5)
#define FR_TXFE		(1 << 7)
#define LCR_H_FEN	(1 << 4)
#define LCR_H_WLEN8	(3 << 5)
#define CR_UARTEN	(1 << 0)
#define CR_TXE		(1 << 8)
#define CR_RXE		(1 << 9)
#define IMSC_RXIM	(1 << 4)
#define IMSC_RTIM	(1 << 6)

/* board.h's base until fdt_devices_init takes the DTB's console (boot
 * CPU, before any other CPU runs); read-only after. */
static uintptr_t uart_base = BOARD_UART_BASE;
const struct fdt_base uart_fdt_base = { "uart0", { "arm,pl011" }, 0, &uart_base };

static inline volatile uint32_t *reg(unsigned int off)
{
	return (volatile uint32_t *)(uart_base + off);
}

/* Default board hook: the UART is wired to its pins for good. */
void __attribute__((weak)) board_uart_pins(void)
{
}

void uart_init(void)
{
	/* 64ths of the divisor: IBRD.FBRD = clk / (16 * baud). */
	uint32_t div64 = (uint32_t)((4ULL * BOARD_UART_CLK_HZ + BOARD_UART_BAUD / 2) /
				    BOARD_UART_BAUD);

	*reg(UART_CR) = 0;
	while (*reg(UART_FR) & FR_BUSY)
		;
	board_uart_pins();
	*reg(UART_IBRD) = div64 >> 6;
	*reg(UART_FBRD) = div64 & 63;
	/* PL011 TRM 3.3.7: LCR_H must be written after IBRD/FBRD to latch them. */
	*reg(UART_LCR_H) = LCR_H_WLEN8 | LCR_H_FEN;
	*reg(UART_IMSC) = 0;
	*reg(UART_ICR) = 0x7ff;
	*reg(UART_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

void uart_putc(char c)
{
	while (*reg(UART_FR) & FR_TXFF)
		;
	*reg(UART_DR) = (uint8_t)c;
}

/*
 * A burst: once TXFE says the transmit FIFO is empty, it takes
 * PL011_TX_FIFO bytes without another look at the flags (the shift
 * register is still sending the byte that just left the FIFO, so the
 * line does not go idle while we refill). One flag read per burst, not
 * per byte. 16 is the PL011's FIFO depth up to r1p4 and the BCM283x's;
 * the r1p5's 32 would take two bursts.
 */
#define PL011_TX_FIFO	16

void uart_write(const void *buf, size_t n)
{
	const uint8_t *p = buf;
	volatile uint32_t *dr = reg(UART_DR);

	while (n >= PL011_TX_FIFO) {
		while (!(*reg(UART_FR) & FR_TXFE))
			;
#pragma GCC unroll 16
		for (unsigned int i = 0; i < PL011_TX_FIFO; i++)
			*dr = p[i];
		p += PL011_TX_FIFO;
		n -= PL011_TX_FIFO;
	}
	if (n) {
		while (!(*reg(UART_FR) & FR_TXFE))
			;
		while (n--)
			*dr = *p++;
	}
}

/* PL011 TRM 3.3.3: TXFE says the FIFO is empty, BUSY that the shift
 * register still sends; both must hold before the last stop bit left. */
void uart_flush(void)
{
	while ((*reg(UART_FR) & (FR_TXFE | FR_BUSY)) != FR_TXFE)
		;
}

void uart_set_divisors(uint32_t ibrd, uint32_t fbrd)
{
	uint32_t cr = *reg(UART_CR);

	uart_flush();	/* the last byte leaves at the old rate */
	*reg(UART_CR) = 0;
	*reg(UART_IBRD) = ibrd;
	*reg(UART_FBRD) = fbrd;
	/* PL011 TRM 3.3.7: the LCR_H write latches IBRD/FBRD (FEN stays
	 * set, so the receive FIFO is not flushed). */
	*reg(UART_LCR_H) = LCR_H_WLEN8 | LCR_H_FEN;
	*reg(UART_CR) = cr;
}

int uart_getc(void)
{
	if (*reg(UART_FR) & FR_RXFE)
		return -1;
	/* PL011 TRM 3.3.1: a BREAK (the line held low for longer than a
	 * character) enters the FIFO as one 0 byte with BE set. */
	uint32_t dr = *reg(UART_DR);

	return dr & DR_BE ? UART_RX_BREAK : (int)(dr & 0xff);
}

void uart_rx_irq_enable(void)
{
	*reg(UART_IMSC) = IMSC_RXIM | IMSC_RTIM;
}
