/* trace/base/tp_table.h: the tracepoint table (tp_table.c); tp_count,
 * tp_by_id, tp_find and tp_iterate are in <baretrace_tracepoint.h>. */
#ifndef TRACE_TP_TABLE_H
#define TRACE_TP_TABLE_H

#include <stdint.h>

#include <baretrace_tracepoint.h>

uint64_t tp_field_value(const struct tp_field *f, uint64_t v);

#endif /* TRACE_TP_TABLE_H */
