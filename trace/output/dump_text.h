/* trace/output/dump_text.h: the text of records that carry values, for the
 * console's dump (trace/output/dump.c); each writes one NUL-terminated
 * line, cut to cap bytes, as 'baretrace report' words the same record
 * (dump_text.c; the extension records' in dump_ext.c). */
#ifndef TRACE_DUMP_TEXT_H
#define TRACE_DUMP_TEXT_H

#include <stddef.h>
#include <stdint.h>

struct tp_event;
struct wire_ext;
struct wire_record;

/* A trace_printf record (kind 5): its format filled in with its arguments. */
void dump_text_printf(char *buf, size_t cap, const struct wire_record *r);
/* A tracepoint record (kind 4) of event ev: "name: field=value ...". */
void dump_text_event(char *buf, size_t cap, const struct tp_event *ev,
		     const struct wire_record *r);
/* An argument record's values (extension subtype 1): "0x1 0x2". */
void dump_text_args(char *buf, size_t cap, const struct wire_ext *x);
/* A probe hit (extension subtype 5) by its probe's schema:
 * "probe NAME: F=V ...", "probe NAME (return): ...", or for a number no
 * probe has now "probe #N: arg1=0x..."; a fetch that faulted "(fault)".
 * Callers hold dump_lock (dump.c). */
void dump_text_probe(char *buf, size_t cap, const struct wire_ext *x);
/* A duration in counter ticks as microseconds: "12.345 us". */
void dump_text_duration(char *buf, size_t cap, uint64_t ticks);

#endif /* TRACE_DUMP_TEXT_H */
