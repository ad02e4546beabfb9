/*
 * drivers/pl011_div.h: PL011 baud-rate divisors (PL011 TRM 3.3.6): the
 * UART runs at UARTCLK / (16 * (IBRD + FBRD / 64)); IBRD is 1..65535,
 * FBRD 0..63 (0 when IBRD is 65535). pl011_divisors() is pure (the host
 * unit test builds it); pl011.c and pl011_baud.c use it.
 */
#ifndef DRIVERS_PL011_DIV_H
#define DRIVERS_PL011_DIV_H

#include <stdint.h>

#define PL011_BAUD_MAX		3000000U	/* what we offer; a 48 MHz clock's 1:1 */
#define PL011_BAUD_TOLERANCE	200		/* in 0.01 %: 2 % */

struct pl011_div {
	uint32_t ibrd, fbrd;
	uint32_t actual;	/* the rate those divisors give, rounded */
	int32_t error;		/* actual against asked, in 0.01 % */
};

enum pl011_div_err {
	PL011_DIV_OK = 0,
	PL011_DIV_ZERO = -1,		/* 0 baud */
	PL011_DIV_TOO_FAST = -2,	/* above PL011_BAUD_MAX */
	PL011_DIV_RANGE = -3,		/* IBRD would be 0 or above 65535 */
	PL011_DIV_INEXACT = -4,		/* nearest rate is off by more than 2 % */
};

/* Divisors for 'baud' from a 'clk_hz' UART clock; 0 or a pl011_div_err.
 * *out is filled whenever a divisor exists (so a caller can say how far
 * off an inexact rate is). */
int pl011_divisors(uint32_t clk_hz, uint32_t baud, struct pl011_div *out);
const char *pl011_div_strerror(int err);

/* drivers/pl011.c: waits until the transmitter is idle, then switches to
 * these divisors (8N1, FIFOs on, interrupt masks kept). Callers make
 * sure no other CPU writes to the UART meanwhile. */
void uart_set_divisors(uint32_t ibrd, uint32_t fbrd);

#endif /* DRIVERS_PL011_DIV_H */
