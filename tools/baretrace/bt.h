/*
 * tools/baretrace/bt.h: the pieces of the host tool and how they meet.
 *
 *   tracefile.c  .bt files: magic, whole frames
 *   meta.c       metadata frames: version, clock, schemas, formats
 *   symtab.c     function names by site and by address, symbol dumps
 *   elf_syms.c   the same names from an ELF's .bt_tables, image hash
 *   decode.c     frames in stream order -> records
 *   books.c      event numbers per CPU: holes, their causes, the totals
 *   prev.c       the previous boot's blocks (wire.md 2.10): their own books
 *   callstack.c  per CPU: open graph entries, and returned calls nested
 *                by containment (with or without entries), self time
 *   depths.c     a first pass for report: depths of exits without entries
 *   flame.c      calls merged by call path, for folded stacks and SVG;
 *                flame_source.c reads a trace into it
 *   profile.c    profile dumps: the latest of each CPU, merged rows
 *   render.c     text of durations, times, tracepoint fields, printf
 *   render_ext.c text of extension records; json.c JSON pieces;
 *                chrome_calls.c the order of Chrome's complete events
 *   capture*.c, report.c, stats.c, export_*.c, ctf_*.c: the commands
 *
 * Data flows one way: a command opens a file, a decoder turns frames
 * into records and calls the command's visitor for each.
 */
#ifndef TOOLS_BARETRACE_BT_H
#define TOOLS_BARETRACE_BT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../wire/wire.h"

#define BT_EXIT_INPUT	1	/* bad input: file, ELF, trace */
#define BT_EXIT_USAGE	2	/* bad command line */

#define BT_MAX_CPUS	256	/* the wire's cpu field is a u8 */
#define BT_MAX_PENDING	1024	/* data frames kept until metadata comes */

/* ---- util.c ------------------------------------------------------------ */

void bt_die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void bt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *bt_alloc(size_t n);		/* zeroed; dies when out of memory */
void *bt_grow(void *p, size_t *cap, size_t want, size_t elem);
char *bt_strndup(const void *p, size_t n);
/* Dies with BT_EXIT_USAGE if both paths name one existing file. */
void bt_refuse_same_file(const char *in, const char *out);

/* ---- tracefile.c ------------------------------------------------------- */

extern const uint8_t bt_file_magic[8];
FILE *bt_file_create(const char *path);
int bt_file_write(FILE *f, const uint8_t *payload, size_t len);
/* Opens and checks the magic; dies with a clear message otherwise. */
FILE *bt_file_open(const char *path);
/*
 * 1: a checked frame in buf, 0: end of file, -1: the rest of the file
 * holds no whole frame (cut short or damaged). Bytes that are not a
 * frame whose length and CRC check (a damaged length field, say) are
 * skipped up to the next one that does; *skipped counts them.
 */
int bt_file_next(FILE *f, uint8_t *buf, size_t *len, uint64_t *skipped);

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

struct bt_meta {
	int seen;		/* a metadata frame arrived */
	uint64_t sets;		/* frames with key 1: sets begun (wire.md 2.9) */
	uint64_t version, freq, ncpus, nsites, text_base;
	uint32_t image_hash;
	int have_hash;
	struct bt_schema *schemas;	/* index = the schema's slot */
	size_t nschemas, schemas_cap;
	struct bt_format *formats;
	size_t nformats, formats_cap;
};

/* Merges one metadata body in; 0, or -1 if it is malformed. */
int bt_meta_parse(struct bt_meta *m, const uint8_t *body, size_t len);
/* The live definition of a tracepoint id, or NULL. */
const struct bt_schema *bt_meta_schema(const struct bt_meta *m, uint64_t id);
const char *bt_meta_format(const struct bt_meta *m, uint64_t id);
void bt_meta_free(struct bt_meta *m);

/* ---- symtab.c, elf_syms.c ---------------------------------------------- */

struct bt_sym {
	uint64_t start, size;	/* offset from _text, bytes */
	char *name;
};

struct bt_symtab {
	struct bt_sym *by_site;		/* index = site; name NULL: unknown */
	size_t nsites, sites_cap;
	struct bt_sym *by_addr;		/* sorted by start; may hold non-sites */
	size_t naddr, addr_cap;
	int addr_dirty;			/* by_addr must be re-sorted */
	int from_elf;
};

void bt_symtab_init(struct bt_symtab *t);
void bt_symtab_free(struct bt_symtab *t);
/* Adds a symbol-dump body; 0, or -1 if malformed. */
int bt_symtab_add_dump(struct bt_symtab *t, const uint8_t *body, size_t len);
/* Name of a site: its function, or "site#N" written into buf. */
const char *bt_site_name(struct bt_symtab *t, uint64_t site, char *buf, size_t n);
/* Name of the function holding a caller (the wire's offset / 4). */
const char *bt_caller_name(struct bt_symtab *t, uint64_t caller, char *buf, size_t n);
/*
 * Loads .bt_tables from an aarch64 ELF and stores the CRC-32 of the
 * section in *hash. Dies with a message naming what is wrong.
 */
void bt_symtab_load_elf(struct bt_symtab *t, const char *path, uint32_t *hash);

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
};

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

struct bt_decoder {
	const struct bt_visitor *v;
	void *user;			/* the command's state */
	struct bt_meta meta;
	struct bt_symtab syms;
	const char *elf_path;		/* names from this ELF, not dumps */
	uint32_t elf_hash;
	int quiet;			/* no warnings (capture) */
	uint64_t next_seq[BT_MAX_CPUS];	/* data frames, per CPU */
	uint8_t have_seq[BT_MAX_CPUS];
	uint64_t next_prof_seq[BT_MAX_CPUS];	/* profile dumps, per CPU */
	uint8_t have_prof_seq[BT_MAX_CPUS];
	uint64_t next_type_seq[8];	/* other frames, per type */
	uint8_t have_type_seq[8];
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
	struct bt_end_books *pre;	/* from a first pass, for causes; or NULL */
	uint64_t profile_frames, bad_profiles, bad_exts;
	uint64_t first_ts, last_ts;
	int have_ts;
	uint8_t cpus_seen[BT_MAX_CPUS];
	int want_prev;			/* decode the previous boot's blocks */
	struct bt_prev prev;
};

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

/* The loss figures of a whole trace, per cause, in events. */
struct bt_loss {
	int totals;			/* END totals for every CPU that had events */
	int balanced;			/* decoded + target losses <= produced, all CPUs */
	uint64_t produced, decoded, overwritten, dropped, discarded, wire;
	uint64_t lost;			/* everything lost (or found in holes) */
	uint64_t holes_target, holes_other;	/* without totals: holes found */
	uint64_t blocks_missing;	/* END blocks less data frames decoded */
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

/* ---- callstack.c ------------------------------------------------------- */

#define BT_STACK_MAX	256
#define BT_DONE_MAX	65536	/* returned calls awaiting their caller, per CPU */
#define BT_ARGS_MAX	8	/* arguments kept with an open frame */

struct bt_frame {
	uint64_t site, depth, ts;
	uint64_t child_ticks;	/* children handed on early (spilled) while open */
	uint64_t holes_at;	/* its stack's holes when it was entered */
	unsigned nargs;		/* from an arguments record right after the entry */
	int64_t args[BT_ARGS_MAX];
};

/* A call that returned and that no exit since has claimed as a child. */
struct bt_done {
	uint64_t start, end;	/* its span, widened to hold its children */
	uint64_t ticks;		/* its duration as recorded */
	uint64_t tag;		/* the command's handle for it */
};

struct bt_stack {
	struct bt_frame f[BT_STACK_MAX];
	unsigned n;
	unsigned overflow;		/* open frames too deep to store */
	struct bt_done *done;		/* oldest first */
	size_t ndone, done_cap;
	struct bt_done *kids;		/* what the last exit claimed */
	size_t kids_cap;
	uint64_t spilled;		/* calls handed on early, past BT_DONE_MAX */
	uint64_t spill_start;		/* the last such with no open frame holding it */
	int spill_loose;
	uint64_t misnested;		/* exits that would have claimed one of those */
	uint64_t holes, hole_ts;	/* holes met (books.c), where the latest sits */
};

struct bt_stacks {
	struct bt_stack *cpu[BT_MAX_CPUS];	/* allocated on first use */
	/* Told of each call handed on early, with the number of open frames
	 * holding it (its callers, bottom up); NULL: nobody needs to know. */
	void (*spill)(void *ctx, unsigned cpu, const struct bt_done *d, unsigned open);
	void *ctx;
};

/* What one graph exit turned out to be. */
struct bt_exit {
	int matched;			/* its entry is known */
	unsigned level;			/* stack position it had, or would have */
	uint64_t depth;			/* the entry's depth, or open frames below */
	uint64_t start, end;		/* its span, widened to hold its children */
	uint64_t child_ticks;		/* time spent in its children */
	const struct bt_frame *frame;	/* its entry (args); until the next entry */
	const struct bt_done *kids;	/* the children it claimed, oldest first; */
	size_t nkids;			/* valid until the next exit on this CPU */
	struct bt_done *self;		/* itself, unclaimed, to set a tag: NULL if it
					 * is outermost (depth 0) and so final */
};

struct bt_stack *bt_stack_of(struct bt_stacks *s, unsigned cpu);
void bt_stack_enter(struct bt_stack *s, uint64_t site, uint64_t depth, uint64_t ts);
/* Events of this CPU are missing here ('ts': the time after them). */
void bt_stack_hole(struct bt_stack *s, uint64_t ts);
/* Whether a call that just returned (bt_stack_exit) was open across a
 * hole: calls of it or its callees may be missing. */
struct bt_exit;
int bt_stack_spans_hole(const struct bt_stack *s, const struct bt_exit *x);
/* An arguments record: kept with the top frame if it is the site's, 1. */
int bt_stack_args(struct bt_stack *s, const struct wire_ext *x);
/*
 * A graph exit: pops its frame if the entry is known (frames above it
 * lost their exits), claims the returned calls inside its span as its
 * children, and adds itself to the unclaimed ones.
 */
void bt_stack_exit(struct bt_stacks *ss, unsigned cpu, const struct wire_record *r,
		   struct bt_exit *x);
/* How many open frames (bottom up) hold a returned call: its callers. */
unsigned bt_stack_holding(const struct bt_stack *s, const struct bt_done *d);
/* Warns if calls were handed on early and some wrongly (huge traces). */
void bt_stacks_warn(struct bt_stacks *s);
void bt_stacks_free(struct bt_stacks *s);

/* ---- depths.c ---------------------------------------------------------- */

struct bt_depth;

struct bt_depths {
	struct bt_depth *v[BT_MAX_CPUS];	/* by the exit's ordinal on its CPU */
	size_t n[BT_MAX_CPUS], cap[BT_MAX_CPUS];
	int graph, function;	/* graph records, function entries seen */
};

/* Reads the trace quietly for the depth of every graph exit. */
void bt_depths_read(struct bt_depths *dp, const char *trace, const char *elf);
/* The depth of CPU cpu's k-th exit, or 'guess' if it is not known. */
uint64_t bt_depth_of(const struct bt_depths *dp, unsigned cpu, uint64_t k, uint64_t guess);
void bt_depths_free(struct bt_depths *dp);

/* ---- profile.c --------------------------------------------------------- */

struct bt_prof_cpu;

struct bt_profile {
	struct bt_prof_cpu *cpu[BT_MAX_CPUS];	/* the latest dump of each CPU */
	uint64_t frames, dumps;
};

/* A checked profile-dump frame: starts or continues its CPU's dump. */
void bt_profile_add(struct bt_profile *p, const struct wire_frame *f);
int bt_profile_any(const struct bt_profile *p);
/*
 * One row per function called, for one CPU or merged over all (cpu ==
 * BT_MAX_CPUS): calls and totals added, min and max of the CPUs'. Sorted
 * by site; *rows is the caller's to free.
 */
size_t bt_profile_rows(struct bt_profile *p, unsigned cpu, struct wire_profile_entry **rows);
/* stats' table of the dumps, merged or one per CPU. */
void bt_profile_print(struct bt_decoder *d, struct bt_profile *p, int per_cpu);
void bt_profile_free(struct bt_profile *p);

/* What the commands make of it (flame graphs, text, JSON): bt_out.h. */
#include "output/bt_out.h"

#endif /* TOOLS_BARETRACE_BT_H */
