/*
 * tools/baretrace/decode/decode.h: frames in stream order to records for
 * a command's visitor. meta.c (metadata frames), decode.c (the decoder),
 * decode_file.c (a whole .bt file through it), books.c (event numbers
 * per CPU: holes and their causes), loss.c (the totals and how the run
 * ended), prev.c (the previous boot's blocks), clock.c (what the
 * capture's clock counted). The names the stream gives are symtab.h's.
 */
#ifndef TOOLS_BARETRACE_DECODE_DECODE_H
#define TOOLS_BARETRACE_DECODE_DECODE_H
#include "../../../wire/wire.h"
#include "../base/util.h"

#include "symtab.h"

/* ---- meta.c ------------------------------------------------------------ */

struct bt_field {
	char *name;
	uint8_t type;		/* enum wire_field_type */
	char *format;		/* printf-style, for one value */
};

struct bt_schema {
	uint64_t id;
	char *name;
	unsigned nfields;
	struct bt_field *fields;
	uint8_t *types;		/* the fields' types, for the record decoder */
	int replaced;		/* a later definition of the id took over */
};

struct bt_format {
	uint64_t id;
	char *text;
};

/* A probe's schema (key 10): its fetches' names and types (1-8 as the
 * event fields' u8..s64, 11 x32, 12 x64). A probe number is reused once
 * its probe is removed: a later definition replaces the earlier one. */
#define BT_PROBE_FETCH_MAX	8
#define BT_PROBE_X32		11
#define BT_PROBE_X64		12

struct bt_probe {
	uint64_t id;
	char *name;
	uint64_t offset;	/* the probed address - _text (a return
				   probe's: its function's entry) */
	int ret;		/* a return probe (SYMBOL%return) */
	unsigned nfetch;
	char *fetch[BT_PROBE_FETCH_MAX];
	uint8_t type[BT_PROBE_FETCH_MAX];
};

struct bt_meta {
	int seen;		/* a metadata frame arrived */
	uint64_t sets;		/* frames with key 1: sets begun (wire.md 2.9) */
	uint64_t version, freq, ncpus, nsites, text_base;
	uint32_t image_hash;
	int have_hash;
	char *app;			/* the app's name (key 9), or NULL */
	char *board;			/* the board's name (key 11), or NULL */
	struct bt_schema *schemas;	/* index = the schema's slot */
	size_t nschemas, schemas_cap;
	struct bt_format *formats;
	size_t nformats, formats_cap;
	struct bt_probe *probes;
	size_t nprobes, probes_cap;
};

/* Merges one metadata body in; 0, or -1 if it is malformed. */
int bt_meta_parse(struct bt_meta *m, const uint8_t *body, size_t len);
/* The live definition of a tracepoint id, or NULL. */
const struct bt_schema *bt_meta_schema(const struct bt_meta *m, uint64_t id);
const char *bt_meta_format(const struct bt_meta *m, uint64_t id);
/* The current schema of probe 'id', or NULL. */
const struct bt_probe *bt_meta_probe(const struct bt_meta *m, uint64_t id);
void bt_meta_free(struct bt_meta *m);

/* ---- decode.c ---------------------------------------------------------- */

struct bt_decoder;

struct bt_visitor {
	void (*record)(struct bt_decoder *d, unsigned cpu, const struct wire_record *r);
	/*
	 * A hole (docs/wire.md 2.8): 'events' events of this CPU are missing
	 * right here, before the next record of that CPU (or at its end).
	 * 'cause' says why as far as the data tells.
	 */
	void (*hole)(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause);
	/* Around the records of one data frame. */
	void (*block_begin)(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts);
	void (*block_end)(struct bt_decoder *d, const struct wire_frame *f);
	/* A profile-dump frame (its body checked: wire_profile_next works). */
	void (*profile)(struct bt_decoder *d, const struct wire_frame *f);
	/* The stream turns to the previous boot's blocks (prev = 1: records
	 * and holes that follow are that boot's, d->prev says what it left)
	 * or back to this boot's (prev = 0). Only with d->want_prev. */
	void (*section)(struct bt_decoder *d, int prev);
	/* A coverage frame (wire.md 2.11), type 8 (this boot's) or 9 (the
	 * previous boot's), its body not yet checked (coverage.c reads it). */
	void (*coverage)(struct bt_decoder *d, const struct wire_frame *f);
	/* A duration-histogram frame (wire.md 2.12, type 10), its body not
	 * yet checked (model/hist.c reads it). */
	void (*hist)(struct bt_decoder *d, const struct wire_frame *f);
};

#define BT_MAX_PENDING	1024	/* data frames kept until metadata comes */

struct bt_pending {
	uint8_t *payload;
	size_t len;
};

/* What one CPU's event numbers say (books.c). */
struct bt_cpu_books {
	uint64_t next_event;		/* the number after the last block's */
	uint64_t decoded;		/* events in blocks decoded */
	uint64_t blocks;		/* data frames decoded */
	uint64_t last_seq;		/* of the last data frame decoded */
	uint64_t hole_target;		/* events in holes with consecutive seqs */
	uint64_t hole_other;		/* events in the other holes */
	uint64_t holes;			/* holes found */
	uint64_t ts;			/* where a hole found now sits: the block's
					 * base, or the last record's time */
	uint8_t have_block;		/* next_event and last_seq are known */
	uint8_t end_unknown;		/* the last block was cut short */
};

/* The end-of-stream totals of a CPU, and what a first pass decoded. */
struct bt_end_books {
	struct wire_end_cpu end[BT_MAX_CPUS];
	uint8_t has[BT_MAX_CPUS];	/* an END entry for this CPU */
	uint64_t decoded[BT_MAX_CPUS];
	int totals;			/* an END frame with totals arrived */
	int empty_end;			/* an END frame without (version 1) */
};

/* Where the run ended: an outcome record (kind 7, subtype 4), written on
 * the CPU where it happened, at that moment. */
struct bt_mark {
	int seen;
	unsigned cpu, outcome;		/* enum run_outcome */
	uint64_t ts;
	int64_t status;			/* main()'s, for RUN_EXIT */
};

/* The previous boot's trace (wire.md 2.10), kept apart from this boot's. */
struct bt_prev {
	int seen;			/* a summary frame arrived */
	int active;			/* its blocks are being decoded now */
	uint64_t boot;
	struct wire_prev_cpu cpu[BT_MAX_CPUS];
	uint8_t has[BT_MAX_CPUS];	/* a summary entry for this CPU */
	uint64_t next_event[BT_MAX_CPUS];	/* after its last block decoded */
	uint8_t have_block[BT_MAX_CPUS];
	uint64_t decoded[BT_MAX_CPUS], holes[BT_MAX_CPUS];
	uint64_t blocks, events, skipped;	/* skipped: frames of it not wanted */
};

/* What the trace's clock counted (clock.c; the capture's note, frame 11). */
enum { BT_CLOCK_UNKNOWN, BT_CLOCK_HOST, BT_CLOCK_ICOUNT, BT_CLOCK_BOARD };
struct bt_clock {
	int kind;		/* BT_CLOCK_*: UNKNOWN when the file has no note */
	unsigned shift;		/* -icount shift: 2^shift ns an instruction */
	int have_shift, sleep_off, adaptive;
};
/* The clock of a capture of QEMU run as qemu_argv (NULL: not QEMU), or
 * of a serial line. */
void bt_clock_of_capture(struct bt_clock *k, char *const *qemu_argv, int serial);
/* Its note as a whole frame payload into out; the length, 0 for none. */
size_t bt_clock_note(const struct bt_clock *k, uint8_t *out, size_t cap);
void bt_clock_read(struct bt_clock *k, const struct wire_frame *f);
/* Instructions under -icount with a fixed shift and sleep=off. */
int bt_clock_exact(const struct bt_clock *k);
/* One line for a header: "exact: instructions, ...", "host time: ...". */
const char *bt_clock_say(const struct bt_clock *k, char *buf, size_t n);

struct bt_filter;	/* model/filter_int.h: the host-side filters (bt_dec_stage) */

struct bt_decoder {
	const struct bt_visitor *v;
	void *user;			/* the command's state */
	struct bt_meta meta;
	struct bt_clock clock;		/* the capture's note, if the file has one */
	struct bt_symtab syms;
	const char *elf_path;		/* names from this ELF, not dumps */
	uint32_t elf_hash;
	char *elf_app;			/* the ELF's app name, or NULL */
	char *elf_board;		/* the ELF's board name, or NULL */
	int quiet;			/* no warnings (capture) */
	uint64_t next_seq[BT_MAX_CPUS];	/* data frames, per CPU */
	uint8_t have_seq[BT_MAX_CPUS];
	uint64_t next_prof_seq[BT_MAX_CPUS];	/* profile dumps, per CPU */
	uint8_t have_prof_seq[BT_MAX_CPUS];
	uint64_t next_type_seq[16];	/* other frames, per type */
	uint8_t have_type_seq[16];
	struct bt_pending pending[BT_MAX_PENDING];
	size_t npending;
	struct wire_rec_iter it;
	/* What was seen, for summaries. */
	uint64_t frames, data_frames, records, frames_lost, seq_gaps;
	uint64_t events;		/* every record but kind 6 (wire.md 2.8) */
	uint64_t pending_dropped, bad_blocks, bad_frames, ends;
	uint64_t skipped_bytes;		/* trace file bytes that were no frame */
	struct bt_cpu_books books[BT_MAX_CPUS];
	struct bt_end_books end;	/* from the END frame, as it arrives */
	struct wire_end_run run;	/* the END frame's outcome (run.known) */
	struct bt_mark mark;		/* the first outcome record (wire.md 2.6) */
	struct bt_end_books *pre;	/* from a first pass, for causes; or NULL */
	uint64_t profile_frames, bad_profiles, bad_exts;
	uint64_t coverage_frames;	/* types 8 and 9 */
	uint64_t hist_frames;		/* type 10 */
	uint64_t first_ts, last_ts;
	int have_ts;
	uint8_t cpus_seen[BT_MAX_CPUS];
	int want_prev;			/* decode the previous boot's blocks */
	struct bt_prev prev;
	struct bt_filter *filter;	/* in front of v when filters are set */
	/* bt_decode_file: told of each whole frame read, with the file
	 * offset where it ends, before it is decoded; 1: skip it. */
	int (*frame_hook)(struct bt_decoder *d, long end, const uint8_t *payload, size_t len);
};

/*
 * A stage between the decoder and the command's visitor: the host-side
 * filters (model/filter.c) set it when the command line has one. attach
 * may put d->filter and its own visitor in front of d->v; finish (end of
 * input), release (bt_dec_free), summary (bt_loss_print's first
 * lines) and check (bt_decode_file's end) are called only for a decoder
 * it attached to. Set through a pointer so that the input side does not
 * depend on the model side.
 */
struct bt_dec_stage {
	void (*attach)(struct bt_decoder *d);
	void (*finish)(struct bt_decoder *d);
	void (*release)(struct bt_decoder *d);
	void (*summary)(FILE *f, const struct bt_decoder *d, const char *prefix);
	/* After finish: says which part of it matched nothing; -1 if it
	 * kept no event at all (the read fails, status 1). */
	int (*check)(struct bt_decoder *d);
};

extern const struct bt_dec_stage *bt_dec_stage;	/* NULL: records go straight on */

void bt_dec_init(struct bt_decoder *d, const struct bt_visitor *v, void *user);
/* Names come from this ELF (checked against the metadata hash; elf_syms.c). */
void bt_dec_use_elf(struct bt_decoder *d, const char *path);
/*
 * One checked payload, in stream order. Returns 0, or -1 with a message
 * printed for a stream this tool cannot read (unknown version, an ELF
 * that does not match).
 */
int bt_dec_frame(struct bt_decoder *d, const uint8_t *payload, size_t len);
/* End of input: decodes frames still waiting for metadata. */
void bt_dec_finish(struct bt_decoder *d);
void bt_dec_free(struct bt_decoder *d);
/* Reads a whole .bt file through d (tracefile.c); returns the process
 * exit status. With a hole visitor it reads the file quietly first, for
 * the END totals that give holes their causes. */
int bt_decode_file(struct bt_decoder *d, const char *path);
/* Counter frequency, 1 GHz (ticks shown as ns) when none is known. */
uint64_t bt_freq(const struct bt_decoder *d);
/* Name of a record's function. */
const char *bt_func_name(struct bt_decoder *d, uint64_t site, char *buf, size_t n);
/* decode.c: pass string records (docs/wire.md 2.6 subtype 6) to the
 * command; report sets it before reading. */
extern int bt_decode_strings;
/*
 * What every command counts as its events: the records passed on (kind
 * 6, informational loss counts, left out; loss markers never counted).
 * The books (books.c) count also the records that arrived but were
 * skipped (unknown or malformed extensions): the target counted them.
 */
uint64_t bt_events(const struct bt_decoder *d);

/* ---- books.c ------------------------------------------------------------ */

/* A data block of f->cpu whose first event is 'first': finds a hole
 * before it and tells the visitor. 'consecutive': its seq follows the
 * previous block's of that CPU. Call before its records. */
void bt_books_block(struct bt_decoder *d, unsigned cpu, uint64_t first, int consecutive,
		    uint64_t seq);
/* After the block's records: n events in it; cut: the block was cut short. */
void bt_books_block_end(struct bt_decoder *d, unsigned cpu, uint64_t n, int cut);
/* An end-of-stream frame: keeps its totals, tells the holes at the end. */
void bt_books_end(struct bt_decoder *d, const struct wire_frame *f);
/* A new boot on this CPU (its sequence numbers went back). */
void bt_books_restart(struct bt_decoder *d, unsigned cpu);
/* A new boot of the target (its metadata numbers went back): the books
 * start again, for its own end-of-stream totals. */
void bt_books_new_boot(struct bt_decoder *d);

/*
 * How the run ended, from the outcome record or else the END frame:
 * 1 with *outcome and *status set, 0 if the trace does not say.
 */
int bt_outcome(const struct bt_decoder *d, unsigned *outcome, int64_t *status);
/* "crash", "hang", ..., "exit"; "outcome N" (in buf) for a number this
 * tool does not know. */
const char *bt_outcome_word(unsigned outcome, char *buf, size_t n);
/* "crash (exit status 139)", "exit status 3 (main() returned 3)". */
void bt_outcome_text(unsigned outcome, int64_t status, char *buf, size_t n);
/* "run ended: crash", "run ended: exit, status 3": the words of the mark
 * where the run ended, in report, chrome-json and trace-cmd. */
void bt_outcome_mark(unsigned outcome, int64_t status, char *buf, size_t n);
/* The summary's line on how the run ended, naming the app, when the END
 * frame came and the trace says how. */
void bt_outcome_print(FILE *f, const struct bt_decoder *d, const char *prefix);

/* The loss figures of a whole trace, per cause, in events. */
struct bt_loss {
	int totals;			/* END totals for every CPU that had events */
	int balanced;			/* decoded + target losses <= produced, all CPUs */
	uint64_t produced, decoded, overwritten, dropped, discarded, wire;
	uint64_t lost;			/* everything lost (or found in holes) */
	uint64_t holes_target, holes_other;	/* without totals: holes found */
	uint64_t blocks_missing;	/* END blocks less data frames decoded */
	uint64_t blocks_target, blocks_wire;	/* of those: overwritten on the
					 * target, lost on the wire, where the
					 * CPU's totals tell (the rest: either) */
};

void bt_loss(const struct bt_decoder *d, struct bt_loss *l);
/* "# N of P events lost (..)" and, if needed, what is unknown or wrong;
 * each line starts with 'prefix'. Nothing when nothing is lost. */
void bt_loss_print(FILE *f, const struct bt_decoder *d, const char *prefix,
		   uint64_t damaged_frames);
/* Only the lines saying which CPUs' books do not balance, if any. */
void bt_loss_imbalance(FILE *f, const struct bt_decoder *d, const char *prefix);

/* ---- prev.c ------------------------------------------------------------ */

/* A previous-boot summary frame (type 7): 0, or -1 if malformed. */
int bt_prev_info(struct bt_decoder *d, const struct wire_frame *f);
/* A previous-boot block of 'cpu' whose first event is 'first': tells
 * the visitor of a hole before it. Then bt_prev_block_end with its
 * events. */
void bt_prev_block(struct bt_decoder *d, unsigned cpu, uint64_t first);
void bt_prev_block_end(struct bt_decoder *d, unsigned cpu, uint64_t events);
/* The previous boot's books, each line starting with 'prefix'. */
void bt_prev_print(FILE *f, const struct bt_decoder *d, const char *prefix);

#endif /* TOOLS_BARETRACE_DECODE_DECODE_H */
