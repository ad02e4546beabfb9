/* trace/output/dump_int.h: what the files of the console's text dump
 * share (dump.c walks the rings, dump_record.c words one record,
 * dump_ext.c its extension records). Every function here runs with
 * dump_lock held (dump.c): the buffers and the sink are the dump's. */
#ifndef TRACE_DUMP_INT_H
#define TRACE_DUMP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dump_sink;
struct wire_record;

/* Where the lines go until the next call: sink, or the console (NULL). */
void dump_set_sink(const struct dump_sink *sink);
/* One line of the dump, its newline added. */
void dump_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A site's name, "?" for a number the image has not. */
const char *dump_site_name(uint64_t site);
/* Decodes a data block body (docs/wire.md 2.1: its head, then records)
 * of 'cpu', printing its records but the first 'skip' (~0UL: none);
 * returns how many events it holds, as many as it printed for skip 0.
 * Loss records are printed only when lost_here (dump.c's
 * lost_in_place). */
unsigned long dump_block(const uint8_t *body, size_t len, unsigned int cpu, unsigned long skip,
			 bool lost_here);
/* Between records: a CPU that dumps with interrupts masked stops here
 * for good when another CPU crashed, letting go of the dump (dump.c). */
void dump_yield_to_crash(void);
/* A CPU's records start: no call is open (graph exits indent as their
 * entries, counted from here). */
void dump_record_start(void);
/* Record r of 'cpu' as its line (a stack trace: its frames after it). */
void dump_record(unsigned int cpu, const struct wire_record *r);
/* An extension record (kind 7) after its time stamp ts (dump_ext.c). */
void dump_ext(const char *ts, const struct wire_record *r);

#endif /* TRACE_DUMP_INT_H */
