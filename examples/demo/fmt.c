/*
 * examples/demo/fmt.c: readings as text records.
 *
 * Fixed point is printed with integer math: newlib's printf can print
 * floats, but the readings are integers and a float round trip could
 * change the last digit, and with it every record's checksum.
 */
#include <stdio.h>

#include "demo.h"

/* "-12.345" from -12345 milli-degrees. Returns what snprintf returns. */
DEMO_FN int fmt_fixed(char *buf, size_t size, milli_c v)
{
	int64_t m = v;		/* -INT32_MIN must not overflow */
	const char *sign = "";

	if (m < 0) {
		sign = "-";
		m = -m;
	}
	return snprintf(buf, size, "%s%ld.%03ld", sign, (long)(m / 1000),
			(long)(m % 1000));
}

/* One fixed-width line per sample, e.g.
 *   "s=017 raw=  62.123 filt=  61.870 measuring"
 * Returns the length, or -1 if it did not fit in 'size'. */
DEMO_FN int fmt_record(char *buf, size_t size, const struct sample *s,
		       milli_c filtered, enum fsm_state state)
{
	char raw[16], filt[16];
	int n;

	fmt_fixed(raw, sizeof(raw), s->raw);
	fmt_fixed(filt, sizeof(filt), filtered);
	n = snprintf(buf, size, "s=%03u raw=%8s filt=%8s %s",
		     (unsigned int)s->seq, raw, filt, fsm_state_name(state));
	return n >= 0 && (size_t)n < size ? n : -1;
}
