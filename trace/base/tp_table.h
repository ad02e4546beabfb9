/* trace/base/tp_table.h: the tracepoint table (tp_table.c); tp_count,
 * tp_by_id, tp_find and tp_iterate are in <baretrace_tracepoint.h>. */
#ifndef TRACE_TP_TABLE_H
#define TRACE_TP_TABLE_H

/* For trace/base/tp_fp.S (asserted in tp_table.c). */
#define TP_EVENT_STATE	24	/* struct tp_event, state */
#define TP_STATE_CUR	132	/* struct tp_state, cur */
#define TP_PROBES_SHIFT	6	/* one probes[] array: 8 pointers */

#ifndef __ASSEMBLER__
#include <stdint.h>

#include <baretrace_tracepoint.h>

uint64_t tp_field_value(const struct tp_field *f, uint64_t v);
/* Calls the probes of array p (up to the first NULL): tp_iterate's loop,
 * for tp_iterate_fp, which has read the array already. */
void tp_call_probes(const struct tp_event *ev, const uint64_t *fields, const tp_probe_fn *p);
#endif

#endif /* TRACE_TP_TABLE_H */
