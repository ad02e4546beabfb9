/* trace/output/output.h: what the consumers of the rings offer the layer
 * above them: the totals line and the text dump. */
#ifndef TRACE_OUTPUT_H
#define TRACE_OUTPUT_H

#include <stdint.h>

/* trace/output/totals.c: the end-of-run totals line(s) on the console. */
void trace_report_totals(void);
/* Prints every CPU's buffer as text on the console, without consuming it
 * (trace/output/dump.c). Any context; used after a crash report. */
void trace_dump(void);
/* Prints the newest n records of one CPU's buffer, oldest first, read
 * while that CPU may go on writing (the lockup report). Any context. */
void trace_dump_last(unsigned int cpu, unsigned int n);
/* The last snapshot's copy as text on the console (trace_snapshot). */
void snapshot_show(void);

/* trace/output/coverage_out.c: the reached sites as frames of type 8
 * (docs/wire.md 2.11), nothing before coverage first started; and the
 * count of functions reached on the console. */
void coverage_send(void);
void coverage_print(void);
/* One set of coverage frames of 'type' for 'bits' (every site), each
 * frame numbered from *seq on. */
#define COVERAGE_FRAME		8
#define COVERAGE_FRAME_PREV	9
void coverage_frames(unsigned int type, const uint64_t *bits, uint64_t *seq);

#endif /* TRACE_OUTPUT_H */
