/* trace/events/tracepoint.h: what the tracepoint files of the trace core share. */
#ifndef TRACE_TRACEPOINT_H
#define TRACE_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_tracepoint.h>

#include "base/tp_table.h"
#include "wire.h"

/* trace/events/tracepoint.c */
uintptr_t tp_first_site(const struct tp_event *ev, bool call);
extern volatile uint64_t tp_stale_hits;	/* calls through a retired probe array */
/* Whether addr is a word some tracepoint patches (its NOP <-> B, or its
 * static call's BL): an instruction probe must keep off it. */
bool tp_site_word(uintptr_t addr);
/* trace/events/tp_record.c: the recorder probe and the schemas (key 7). */
void tp_record(const struct tp_event *ev, const uint64_t *fields);
/* Schemas from id 'from' on while they fit in o; the next id to write. */
unsigned int tp_meta(struct wire_out *o, unsigned int from);
/* Applies trace_event=: 0, or -1 (said on the console) if refused. */
int tp_boot_start(void);

#endif /* TRACE_TRACEPOINT_H */
