/*
 * tools/baretrace/decode/units.c: what a record's numbers stand for,
 * for every layer above the decoder: counter ticks as nanoseconds,
 * seconds and microseconds (report --ns: seconds to the nanosecond), at
 * the trace's counter frequency; a record's site as its function's name;
 * the values of an arguments record.
 */
#include <stdio.h>

#include "../../../wire/wire.h"

#include "decode.h"
#include "symtab.h"
#include "units.h"

uint64_t bt_ticks_ns(uint64_t ticks, uint64_t freq)
{
	unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / (freq ? freq : 1);

	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

int bt_opt_ns;	/* report --ns: timestamps to the nanosecond */

void bt_fmt_seconds(char *buf, size_t n, uint64_t ticks, uint64_t freq)
{
	if (bt_opt_ns) {
		uint64_t ns = bt_ticks_ns(ticks, freq);

		snprintf(buf, n, "%llu.%09llu", (unsigned long long)(ns / 1000000000),
			 (unsigned long long)(ns % 1000000000));
		return;
	}
	unsigned __int128 us = (unsigned __int128)ticks * 1000000u / (freq ? freq : 1);

	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000));
}

void bt_fmt_usecs(char *buf, size_t n, uint64_t ticks, uint64_t freq)
{
	uint64_t ns = bt_ticks_ns(ticks, freq);

	snprintf(buf, n, "%llu.%03llu", (unsigned long long)(ns / 1000),
		 (unsigned long long)(ns % 1000));
}

uint64_t bt_freq(const struct bt_decoder *d)
{
	return d->meta.freq ? d->meta.freq : 1000000000;
}

const char *bt_func_name(struct bt_decoder *d, uint64_t site, char *buf, size_t n)
{
	return bt_site_name(&d->syms, site, buf, n);
}

unsigned bt_ext_args(const struct wire_ext *x, int64_t *v, unsigned max)
{
	struct wire_ext walk = *x;
	unsigned n = 0;
	uint64_t u;

	while (n < x->count && n < max && !wire_ext_value(&walk, &u))
		v[n++] = wire_unzigzag(u);
	return n;
}
