/* drivers/pl011_div.c: see pl011_div.h. Pure: the host unit test builds it. */
#include "pl011_div.h"

int pl011_divisors(uint32_t clk_hz, uint32_t baud, struct pl011_div *out)
{
	if (baud == 0)
		return PL011_DIV_ZERO;
	if (baud > PL011_BAUD_MAX)
		return PL011_DIV_TOO_FAST;
	/* The divisor in 64ths, rounded: 64 * clk / (16 * baud). */
	uint64_t div64 = (4ULL * clk_hz + baud / 2) / baud;

	if (div64 < 64 || div64 > 65535ULL * 64)
		return PL011_DIV_RANGE;
	uint64_t actual = (4ULL * clk_hz + div64 / 2) / div64;
	int64_t diff = (int64_t)actual - (int64_t)baud;
	/* In 0.01 %, rounded half away from zero. */
	int64_t err = (diff * 10000 + (diff < 0 ? -(int64_t)baud : (int64_t)baud) / 2) /
		      (int64_t)baud;

	out->ibrd = (uint32_t)(div64 >> 6);
	out->fbrd = (uint32_t)(div64 & 63);
	out->actual = (uint32_t)actual;
	out->error = (int32_t)err;
	if (err > PL011_BAUD_TOLERANCE || err < -PL011_BAUD_TOLERANCE)
		return PL011_DIV_INEXACT;
	return PL011_DIV_OK;
}

const char *pl011_div_strerror(int err)
{
	switch (err) {
	case PL011_DIV_OK:
		return "ok";
	case PL011_DIV_ZERO:
		return "0 baud";
	case PL011_DIV_TOO_FAST:
		return "above 3000000 baud";
	case PL011_DIV_RANGE:
		return "out of the divisor's range for this UART clock";
	case PL011_DIV_INEXACT:
		return "the nearest rate this UART clock gives is more than 2 % off";
	default:
		return "unknown error";
	}
}
