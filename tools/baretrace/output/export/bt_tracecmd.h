/*
 * tools/baretrace/output/export/bt_tracecmd.h: the trace-cmd .dat export's
 * pieces (export_tracecmd*.c), shared among its files, and CTF's
 * (export_ctf.c, ctf_packet.c).
 */
#ifndef TOOLS_BARETRACE_BT_TRACECMD_H
#define TOOLS_BARETRACE_BT_TRACECMD_H
#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"

/* ---- export_tracecmd*.c: trace-cmd.dat version 6 ----------------------- */

#define BT_TC_PAGE		4096	/* ring-buffer page, file page size */
#define BT_TC_DEFAULT_BASE	0x40080000ull	/* _text when the trace does not say */
#define BT_TC_FIELDS		256	/* a schema has at most 255 fields (a u8) */
/* Event ids: ftrace's own for its events, tracepoint slot + 100 for ours. */
enum { BT_TC_ID_FUNCTION = 1, BT_TC_ID_PRINT = 5, BT_TC_ID_GRAPH_EXIT = 10,
       BT_TC_ID_GRAPH_ENTRY = 11, BT_TC_ID_FIRST_TRACEPOINT = 100,
       /* system "kprobes", one event per probe schema (meta.probes' index),
        * above every tracepoint slot meta.c can hold */
       BT_TC_ID_FIRST_PROBE = 8192,
       /* system "typed": function i's arguments 2i, its return value 2i + 1 */
       BT_TC_ID_FIRST_TYPED = 12288, BT_TC_ID_LAST = 65535 };

/* A growing byte buffer. */
struct bt_tc_buf {
	uint8_t *p;
	size_t len, cap;
};

/* One CPU's ring-buffer pages (export_tracecmd_page.c). */
struct bt_tc_cpu {
	uint8_t page[BT_TC_PAGE];	/* the last page, open or not */
	FILE *spill;		/* the closed pages (export_tracecmd_page.c) */
	uint64_t len;		/* bytes of all pages, the open one too */
	int open;		/* the last page takes more events */
	size_t used;		/* event bytes in the open page */
	uint64_t last_ns;
	uint64_t lost;		/* events lost since the last event written */
	uint64_t page_lost;	/* lost before the open page: its mark */
	uint64_t events;
};

/* An event's bytes (common fields first) at time ns. */
void bt_tc_event(struct bt_tc_cpu *c, uint64_t ns, const void *data, size_t len);
/* Events missing before the next one: that one starts a marked page. */
void bt_tc_lost(struct bt_tc_cpu *c, uint64_t events);
/* Closes the open page. */
void bt_tc_finish(struct bt_tc_cpu *c);
/* Spill files go beside this path (the output). */
void bt_tc_spill_near(const char *out);
/* Writes the CPU's pages (after bt_tc_finish) to out: 0, or -1. */
int bt_tc_copy(struct bt_tc_cpu *c, FILE *out);
void bt_tc_free(struct bt_tc_cpu *c);

/* export_tracecmd_typed.c: typed arguments and return values as events
 * of system "typed", one pair per function (docs in the file). */
struct bt_tc_typed;
struct bt_tc_typed *bt_tc_typed_new(void);
void bt_tc_typed_free(struct bt_tc_typed *t);
/* Decoded records of one CPU, in order, before the exporter's own: 1 if
 * the record was taken (an arguments or string record), else 0. Writes
 * the arguments event held for cpu once its strings are complete. */
int bt_tc_typed_record(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		       const struct wire_record *r, struct bt_tc_cpu *out);
/* A graph exit: the return value's event (after the funcgraph_exit). */
void bt_tc_typed_exit(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		      const struct wire_record *r, struct bt_tc_cpu *out);
/* Writes what is held for cpu (before a hole, at the end). */
void bt_tc_typed_flush(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		       struct bt_tc_cpu *out);
/* The events' formats: how many, and event i's format text into b. */
unsigned bt_tc_typed_count(const struct bt_tc_typed *t);
void bt_tc_typed_format(const struct bt_tc_typed *t, unsigned i, struct bt_tc_buf *b);

/* export_tracecmd_head.c: everything up to and including "flyrecord". */
void bt_tc_header(struct bt_tc_buf *b, struct bt_decoder *d, uint64_t base, unsigned ncpus,
		  const struct bt_tc_typed *typed);
/* A field of an event format: "unsigned long ip" at offset 8, 8 bytes. */
struct bt_tc_field {
	const char *decl;
	unsigned offset, size;
	int is_signed;
};
/* export_tracecmd_fmt.c: an event's format text (tracefs'
 * events/SYS/EV/format) into t; text appended to a buffer. */
void bt_tc_format_text(struct bt_tc_buf *t, const char *name, unsigned id,
		       const struct bt_tc_field *f, unsigned n, const char *print);
void bt_tc_printf(struct bt_tc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A tracepoint's event layout: off[i] is field i's
 * offset (integers 8 bytes from offset 8, then a 4-byte __data_loc per
 * string); returns (and stores in *fixed) where string bytes start. */
unsigned bt_tc_layout(const struct bt_schema *sc, unsigned *off, unsigned *fixed);
/* ctf_packet.c: the packet being built and each CPU's stream file. */
struct bt_ctf_stream {
	FILE *f;
	uint64_t packets, last_ts;	/* last_ts: ns */
};

struct bt_ctf {
	struct bt_decoder *d;
	const char *dir;
	uint8_t uuid[16];
	struct bt_ctf_stream cpu[BT_MAX_CPUS];
	uint8_t *buf;		/* the packet being built */
	size_t len, cap;
	unsigned cur;		/* its CPU */
	int open;		/* a packet is being built */
	uint64_t begin_ts;	/* ns, as last_ts */
};

/* Counter ticks as the export's nanoseconds. */
uint64_t bt_ctf_ns(const struct bt_ctf *c, uint64_t ticks);
void bt_ctf_put_bytes(struct bt_ctf *c, const void *p, size_t n);
void bt_ctf_put_u64_at(struct bt_ctf *c, size_t at, uint64_t v);
void bt_ctf_put_u64(struct bt_ctf *c, uint64_t v);
void bt_ctf_put_u32(struct bt_ctf *c, uint32_t v);
/* n bytes and a NUL; NULs inside become '?'. */
void bt_ctf_put_str(struct bt_ctf *c, const char *s, size_t n);
void bt_ctf_put_cstr(struct bt_ctf *c, const char *s);
/* An event's header and context; ts in ns, raised to the stream's last. */
void bt_ctf_event(struct bt_ctf *c, uint32_t id, uint64_t ts);
/* Opens a packet on cpu's stream (creating stream_N), base_ts in ns. */
void bt_ctf_packet_open(struct bt_ctf *c, unsigned cpu, uint64_t base_ts);
void bt_ctf_packet_close(struct bt_ctf *c);

#endif /* TOOLS_BARETRACE_BT_TRACECMD_H */
