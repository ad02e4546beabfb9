/*
 * tools/baretrace/decode/units.h: what a record's numbers stand for
 * (units.c): ticks as time, an arguments record's values.
 */
#ifndef TOOLS_BARETRACE_DECODE_UNITS_H
#define TOOLS_BARETRACE_DECODE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "../../../wire/wire.h"

uint64_t bt_ticks_ns(uint64_t ticks, uint64_t freq);
/* "12.345678" seconds from a counter value. */
extern int bt_opt_ns;	/* report --ns */
void bt_fmt_seconds(char *buf, size_t n, uint64_t ticks, uint64_t freq);
/* "12.345" microseconds from ticks. */
void bt_fmt_usecs(char *buf, size_t n, uint64_t ticks, uint64_t freq);
/* The first 'max' arguments of a parsed subtype-1 record; returns how many. */
unsigned bt_ext_args(const struct wire_ext *x, int64_t *v, unsigned max);

#endif /* TOOLS_BARETRACE_DECODE_UNITS_H */
