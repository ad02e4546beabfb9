/* sources: drivers/pl011_div.c */
/*
 * test/host/test_pl011_div.c: PL011 divisors for uart_baud= against
 * values worked out by hand from the PL011 TRM formula (divisor =
 * UARTCLK / (16 * baud), FBRD = round(fraction * 64)) for the Pi's
 * 48 MHz UART clock and QEMU virt's 24 MHz, and the refusals.
 */
#include <stdint.h>

#include "../../drivers/pl011_div.h"
#include "tap.h"

static void test_pi_rates(void)
{
	struct pl011_div d;

	/* 48e6 / (16 * 115200) = 26.0417: IBRD 26, FBRD round(0.0417 * 64) = 3;
	 * 4 * 48e6 / 1667 = 115177 baud, -0.02 %. */
	tap_eq_int(pl011_divisors(48000000, 115200, &d), 0, "48 MHz, 115200: accepted");
	tap_ok(d.ibrd == 26 && d.fbrd == 3 && d.actual == 115177 && d.error == -2,
	       "48 MHz, 115200: IBRD 26, FBRD 3, 115177 baud, -0.02 %%");
	/* 48e6 / (16 * 921600) = 3.2552: IBRD 3, FBRD round(16.33) = 16;
	 * 4 * 48e6 / 208 = 923077 baud, +0.16 %. */
	tap_eq_int(pl011_divisors(48000000, 921600, &d), 0, "48 MHz, 921600: accepted");
	tap_ok(d.ibrd == 3 && d.fbrd == 16 && d.actual == 923077 && d.error == 16,
	       "48 MHz, 921600: IBRD 3, FBRD 16, 923077 baud, +0.16 %%");
	/* 48e6 / (16 * 3e6) = 1 exactly. */
	tap_eq_int(pl011_divisors(48000000, 3000000, &d), 0, "48 MHz, 3000000: accepted");
	tap_ok(d.ibrd == 1 && d.fbrd == 0 && d.actual == 3000000 && d.error == 0,
	       "48 MHz, 3000000: IBRD 1, FBRD 0, exact");
	/* 48e6 / (16 * 1e6) = 3: IBRD 3, FBRD 0. */
	tap_eq_int(pl011_divisors(48000000, 1000000, &d), 0, "48 MHz, 1000000: accepted");
	tap_ok(d.ibrd == 3 && d.fbrd == 0 && d.error == 0, "48 MHz, 1000000: IBRD 3, FBRD 0");
	/* 48e6 / (16 * 9600) = 312.5: IBRD 312, FBRD 32. */
	tap_eq_int(pl011_divisors(48000000, 9600, &d), 0, "48 MHz, 9600: accepted");
	tap_ok(d.ibrd == 312 && d.fbrd == 32 && d.actual == 9600, "48 MHz, 9600: IBRD 312, FBRD 32");
}

static void test_refusals(void)
{
	struct pl011_div d;

	tap_eq_int(pl011_divisors(48000000, 0, &d), PL011_DIV_ZERO, "0 baud: refused");
	tap_eq_int(pl011_divisors(48000000, 3000001, &d), PL011_DIV_TOO_FAST,
		   "3000001 baud: refused, above 3000000");
	tap_eq_int(pl011_divisors(48000000, 4000000, &d), PL011_DIV_TOO_FAST,
		   "4000000 baud: refused, above 3000000");
	/* 24 MHz: 3e6 needs a divisor of 0.5, below 1. */
	tap_eq_int(pl011_divisors(24000000, 3000000, &d), PL011_DIV_RANGE,
		   "24 MHz, 3000000: refused, divisor below 1");
	/* 48 MHz, 10 baud: divisor 300000, above 65535. */
	tap_eq_int(pl011_divisors(48000000, 10, &d), PL011_DIV_RANGE,
		   "48 MHz, 10 baud: refused, divisor above 65535");
	/* 48e6 / (16 * 2.5e6) = 1.2: FBRD round(12.8) = 13, 4 * 48e6 / 77 =
	 * 2493506 baud, -0.26 %. */
	tap_eq_int(pl011_divisors(48000000, 2500000, &d), 0, "48 MHz, 2500000: accepted");
	tap_ok(d.ibrd == 1 && d.fbrd == 13 && d.actual == 2493506 && d.error == -26,
	       "48 MHz, 2500000: IBRD 1, FBRD 13, 2493506 baud, -0.26 %%");
}

/*
 * Every seventh rate from 46 to 3,000,000 baud
 * with the Pi's clock: accepted, the divisors give back the rate they
 * claim (recomputed here from the TRM formula), and it is within 0.8 %:
 * the divisor has 1/64 steps and is at least 1, so rounding moves it by
 * at most 1/128, 0.78 %. That is why the 2 % check never refuses a rate
 * the divisor's range holds.
 */
static void test_sweep(void)
{
	struct pl011_div d;
	unsigned int bad = 0, worst = 0;

	for (uint32_t baud = 46; baud <= 3000000; baud += 7) {
		int err = pl011_divisors(48000000, baud, &d);
		uint32_t div64 = d.ibrd * 64 + d.fbrd;
		double real = 4.0 * 48000000 / div64;
		double off = (real - baud) / baud * 100;

		if (err || d.ibrd < 1 || d.ibrd > 65535 || d.fbrd > 63 ||
		    (d.actual > real + 0.5 || d.actual < real - 0.5) || off > 0.79 || off < -0.79)
			bad++;
		unsigned int e = (unsigned int)(d.error < 0 ? -d.error : d.error);

		if (e > worst)
			worst = e;
	}
	tap_diag("worst error %u.%02u %%", worst / 100, worst % 100);
	tap_eq_int(bad, 0, "48 MHz sweep, 46..3000000 baud: divisors in range, rate as "
		   "claimed, within 0.8 %");
	/* Below 46 the divisor passes 65535 (48e6 / 16 / 65535 = 45.8). */
	tap_eq_int(pl011_divisors(48000000, 45, &d), PL011_DIV_RANGE,
		   "48 MHz, 45 baud: refused, divisor above 65535");
}

int main(void)
{
	test_pi_rates();
	test_refusals();
	test_sweep();
	return tap_done();
}
