/* trace/output/dump.h: the console's text dump (dump.c) with its lines
 * handed to a caller instead of the console, so a check can read back
 * what the dump prints (test/target/test_dump_kinds.c). The console's
 * entries are in output.h. */
#ifndef TRACE_DUMP_H
#define TRACE_DUMP_H

struct ring_cpu;

/* Receives each line of the dump, without its newline; text is the
 * dump's buffer, valid until the call returns. */
struct dump_sink {
	void (*line)(void *ctx, const char *text);
	void *ctx;
};

/* trace_dump_ring's lines, ring r shown as CPU cpu's, to sink: each
 * record as one line (docs/tracing.md, "The dump on the console, record
 * by record"), then "# cpu N: M records". Returns M, or 0 when another
 * dump kept the buffers. Any context. */
unsigned long trace_dump_ring_to(unsigned int cpu, const struct ring_cpu *r,
				 const struct dump_sink *sink);

#endif /* TRACE_DUMP_H */
