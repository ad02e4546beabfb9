/*
 * drivers/pl011_baud.c: the uart_baud=N kernel parameter. The setter
 * checks N against the board's UART clock (BOARD_UART_CLK_HZ) and keeps
 * it; the early init call switches the PL011 after the boot banner and
 * the bootargs line went out at the build's rate (BOARD_UART_BAUD), so a
 * terminal left at that rate reads where to go, and everything from the
 * CPUs' start-up on (trace metadata and symbols included) is at N.
 * On QEMU the divisors change nothing (its PL011 ignores them); the
 * value is still checked and applied the same way.
 */
#include <stdint.h>

#include "bootargs.h"
#include "hooks.h"
#include "kprintf.h"
#include "pl011_div.h"

#include "board.h"

static struct pl011_div wanted;	/* ibrd 0: keep the build's rate */
static uint32_t wanted_baud;

static int param_uart_baud(const char *v)
{
	unsigned long baud;
	struct pl011_div d = { 0 };
	int err;

	if (bootargs_parse_ulong(v, &baud) || baud > 0xffffffffUL) {
		kprintf("uart_baud: '%s' is not a number of baud\n", v);
		return -1;
	}
	err = pl011_divisors(BOARD_UART_CLK_HZ, (uint32_t)baud, &d);
	if (err == PL011_DIV_INEXACT) {
		int32_t e = d.error < 0 ? -d.error : d.error;

		kprintf("uart_baud: %lu: %s (%u baud, %c%d.%02d %%); keeping %u\n", baud,
			pl011_div_strerror(err), d.actual, d.error < 0 ? '-' : '+',
			(int)(e / 100), (int)(e % 100), BOARD_UART_BAUD);
		return -1;
	}
	if (err) {
		kprintf("uart_baud: %lu: %s (UART clock %u Hz); keeping %u\n", baud,
			pl011_div_strerror(err), BOARD_UART_CLK_HZ, BOARD_UART_BAUD);
		return -1;
	}
	wanted = d;
	wanted_baud = (uint32_t)baud;
	return 0;
}
KERNEL_PARAM("uart_baud", param_uart_baud, "console UART rate (up to 3000000; default 115200)");

static void uart_baud_apply(void)
{
	if (!wanted.ibrd)
		return;
	kprintf("uart: switching to %u baud (IBRD %u, FBRD %u: %u baud)\n", wanted_baud,
		wanted.ibrd, wanted.fbrd, wanted.actual);
	/* Early init: one CPU, interrupts off; nothing else writes. */
	uart_set_divisors(wanted.ibrd, wanted.fbrd);
	kprintf("uart: now at %u baud\n", wanted_baud);
}
KERNEL_INIT(uart_baud_apply, KINIT_EARLY);
