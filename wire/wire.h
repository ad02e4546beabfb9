/*
 * wire/wire.h: the baretrace wire format, version 1 (docs/wire.md).
 *
 * Pure, freestanding code shared by the kernel (exporter) and the host
 * tool (tools/baretrace): integers, CRC-32, record and frame encoding,
 * escaping onto the UART, and the two decoders (bytes to frames, a data
 * block body to records). Nothing here allocates, does I/O or uses
 * floating point; every decoder is bounds checked against its input.
 */
#ifndef TRACE_WIRE_H
#define TRACE_WIRE_H

#include <stddef.h>
#include <stdint.h>

/* The version this side writes and the oldest a reader takes (2.2):
 * 3 coverage frames (2.11); 4 caller slots, two-byte graph sites, symbol
 * dumps front-coded (2.1, 2.3); 5 graph returns, lost events in kind 7. */
#define WIRE_VERSION		5
#define WIRE_VERSION_OLDEST	2
#define WIRE_VERSION_SLOTS	4
#define WIRE_VERSION_RETURN	5

/* Framing bytes (section 1). Console text never contains them. */
#define WIRE_STX		0x02
#define WIRE_ETX		0x03
#define WIRE_DLE		0x10
#define WIRE_ESCAPE_XOR		0x20
/* A masked frame (section 1, version 3) carries every payload byte XOR
 * this; its first byte, the type, then has bit 7 set, which no type
 * has, so a reader tells the two kinds of frame apart by it. */
#define WIRE_LINE_MASK		0xe0

/* Largest unescaped payload, header and CRC included. */
#define WIRE_MAX_PAYLOAD	65535
#define WIRE_VARINT_MAX		10
/* type, cpu, seq and length: what precedes the body. */
#define WIRE_FRAME_HEAD_MAX	(2 + 2 * WIRE_VARINT_MAX)
#define WIRE_CRC_SIZE		4
/* Bytes on the UART for an n-byte payload at worst: all escaped. */
#define WIRE_ESCAPED_MAX(n)	(2 * (size_t)(n) + 2)

/* A record header's 5-bit delta; this value means "varint follows". */
#define WIRE_DELTA_ESCAPE	31

enum wire_frame_type {
	WIRE_FRAME_DATA = 1,
	WIRE_FRAME_META = 2,
	WIRE_FRAME_SYMS = 3,
	WIRE_FRAME_END = 4,
	WIRE_FRAME_PROFILE = 5,
	WIRE_FRAME_PREV = 6,		/* a data block of the previous boot (2.10) */
	WIRE_FRAME_PREV_INFO = 7,	/* what the previous boot left (2.10) */
	WIRE_FRAME_COVERAGE = 8,	/* functions reached: a bitmap (2.11) */
	WIRE_FRAME_PREV_COVERAGE = 9,	/* the previous boot's bitmap (2.11) */
	WIRE_FRAME_HIST = 10,		/* duration histograms, one CPU's (2.12) */
	WIRE_FRAME_CLOCK = 11,		/* the capture's note of the clock (2.13): host only */
};

/* A histogram frame's kind byte (2.12). */
#define WIRE_HIST_DURATION	0	/* function durations, counter ticks */
#define WIRE_HIST_EVENT		1	/* a tracepoint field's values, per key */
#define WIRE_HIST_BUCKETS	64

/* Format versions a reader of this tree accepts (the range above). */
#define WIRE_VERSION_MIN	WIRE_VERSION_OLDEST
#define WIRE_VERSION_MAX	WIRE_VERSION

enum wire_rec_kind {
	WIRE_REC_FUNC = 0,		/* entry, caller as last time */
	WIRE_REC_FUNC_CALLER = 1,	/* entry with its caller */
	WIRE_REC_EXIT = 2,		/* graph exit with duration */
	WIRE_REC_GRAPH_ENTRY = 3,
	WIRE_REC_EVENT = 4,		/* tracepoint */
	WIRE_REC_PRINTF = 5,
	WIRE_REC_LOST = 6,
	WIRE_REC_EXT = 7,
};

/* Version 5 (2.1): kind 6 on the wire is a return (decoded as a
 * WIRE_REC_EXIT with 'paired'), lost events kind 7 subtype 7 (decoded
 * as WIRE_REC_LOST). A reader keeps WIRE_GRAPH_OPEN open entries. */
#define WIRE_KIND_RETURN	6
#define WIRE_GRAPH_OPEN		256

#define WIRE_EXIT_HAS_RETVAL	0x01

enum wire_meta_key {
	WIRE_META_VERSION = 1,
	WIRE_META_FREQ = 2,
	WIRE_META_NCPUS = 3,
	WIRE_META_IMAGE_HASH = 4,	/* u32 LE, not a varint */
	WIRE_META_NSITES = 5,
	WIRE_META_TEXT_BASE = 6,
	WIRE_META_EVENT_SCHEMA = 7,
	WIRE_META_FORMAT = 8,
	WIRE_META_APP_NAME = 9,		/* a string: the app's name */
	WIRE_META_PROBE = 10,		/* a probe's schema (section 2.2) */
	WIRE_META_BOARD_NAME = 11,	/* a string: the board's name */
};

/*
 * Extension record subtypes (section 2.6). Macros, not an enum: the
 * tracers' own header defines the same names with the same values, and
 * an identical redefinition is allowed where an enum would clash.
 */
#define WIRE_EXT_ARGS		1
#define WIRE_EXT_STACK		2
#define WIRE_EXT_TRIGGER	3
#define WIRE_EXT_OUTCOME	4	/* how the run ended: enum run_outcome, kernel/report/outcome.h */
#define WIRE_EXT_PROBE		5	/* a probe hit and its fetched values (trace/core/probe.c) */
/* Key 10's fetch count byte: bit 7 set for a return probe (its address
 * is the function's entry, its hits are the function's returns). */
#define WIRE_PROBE_RETURN	0x80
#define WIRE_EXT_STRING		6	/* a string an argument points to (trace_args=F:N:sR) */
#define WIRE_EXT_LOST		7	/* lost events, version 5 (kind 6 before) */
#define WIRE_STR_CUT		1	/* its flags: no NUL within the bytes recorded */
#define WIRE_STR_UNREADABLE	2	/* outside RAM, or a read faulted */

/* What a fired trigger did (subtype 3's action byte). */
enum wire_trigger_action {
	WIRE_TRIG_TRACEON = 1, WIRE_TRIG_TRACEOFF, WIRE_TRIG_SNAPSHOT,
	WIRE_TRIG_STACKTRACE, WIRE_TRIG_DUMP,
};

/* Tracepoint field types (metadata key 7). */
enum wire_field_type {
	WIRE_FIELD_U8 = 1, WIRE_FIELD_U16, WIRE_FIELD_U32, WIRE_FIELD_U64,
	WIRE_FIELD_S8, WIRE_FIELD_S16, WIRE_FIELD_S32, WIRE_FIELD_S64,
	WIRE_FIELD_PTR, WIRE_FIELD_STRING,
};

/* ---- integers and CRC ------------------------------------------------- */

unsigned wire_varint_len(uint64_t v);
/* Writes v as LEB128 into out (room for WIRE_VARINT_MAX); returns bytes. */
unsigned wire_varint_put(uint8_t *out, uint64_t v);
/*
 * Reads a varint from the n bytes at p. Returns the bytes consumed, or -1
 * if it is cut short, longer than 10 bytes or does not fit 64 bits.
 */
int wire_varint_get(const uint8_t *p, size_t n, uint64_t *v);

static inline uint64_t wire_zigzag(int64_t v)
{
	uint64_t u = (uint64_t)v;

	return (u << 1) ^ (0 - (u >> 63));
}

static inline int64_t wire_unzigzag(uint64_t u)
{
	return (int64_t)((u >> 1) ^ (0 - (u & 1)));
}

/*
 * CRC-32 (IEEE 802.3, reflected). Chains like zlib's crc32(): start with
 * crc = 0 and pass the result of one call to the next.
 */
uint32_t wire_crc32(uint32_t crc, const void *p, size_t n);

/* ---- bounded output ---------------------------------------------------- */

/*
 * A caller buffer filled front to back. A write that does not fit sets
 * 'overflow' and writes nothing; later writes are then ignored too, so a
 * sequence of writes is checked once at the end.
 */
struct wire_out {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int overflow;
};

void wire_out_init(struct wire_out *o, uint8_t *buf, size_t cap);
void wire_out_u8(struct wire_out *o, uint8_t v);
void wire_out_u32le(struct wire_out *o, uint32_t v);
void wire_out_varint(struct wire_out *o, uint64_t v);
void wire_out_bytes(struct wire_out *o, const void *p, size_t n);
/* A string: varint length, then the bytes. */
void wire_out_str(struct wire_out *o, const void *p, size_t n);

/* ---- records (section 2.1) -------------------------------------------- */

/* One record, decoded or to encode. Which fields mean something depends
 * on the kind; the rest are zero after decoding. */
struct wire_record {
	unsigned kind;
	uint64_t delta;		/* ticks since the previous record */
	uint64_t ts;		/* absolute counter value (decoder only) */
	uint64_t site;		/* kinds 0-3 */
	uint64_t caller;	/* kinds 0, 1: (return address - _text) / 4 */
	int has_caller;		/* 0 for a kind 0 with no kind 1 before it */
	uint64_t duration;	/* kind 2 */
	uint8_t flags;		/* kind 2 */
	int paired;		/* kind 2: a return (version 5), as its entry */
	int64_t retval;		/* kind 2, if flags has WIRE_EXIT_HAS_RETVAL */
	uint64_t depth;		/* kind 3 */
	uint64_t id;		/* kind 4 event id, kind 5 format id */
	uint64_t count;		/* kind 6 events lost, kind 5 argument count */
	uint8_t subtype;	/* kind 7 */
	/*
	 * Encoded tail: kind 4 the fields, kind 5 the zigzag arguments,
	 * kind 7 the extension bytes. Points into the block when decoded.
	 */
	const uint8_t *data;
	size_t data_len;
};

/* Writes the header byte (and the varint delta if it needs one). */
void wire_rec_header(struct wire_out *o, unsigned kind, uint64_t delta);
/*
 * Encodes r (kinds 4 and 5 take their pre-encoded tail from data) as
 * WIRE_VERSION lays it out: a kind 0 as r->site's slot, which a kind 1
 * of this block must have filled. Returns 0, or -1 with o->len unchanged
 * if it does not fit, the kind is not 0-7 or a graph site is > 0xffff.
 */
int wire_rec_encode(struct wire_out *o, const struct wire_record *r);
/* The same in the layout of stream version 'version' (2 to WIRE_VERSION). */
int wire_rec_encode_ver(struct wire_out *o, const struct wire_record *r, unsigned version);

/*
 * Field types of tracepoint 'id' as the metadata declared them: stores
 * a pointer to the type bytes and returns their count, or -1 if the
 * schema is unknown.
 */
typedef int (*wire_event_types_fn)(void *ctx, uint64_t id, const uint8_t **types);

/* A block's caller slots (2.1): a kind 1 fills slot site % this. */
#define WIRE_CALLER_CACHE	256

/* Walks a data-block body; a kind 0's caller (and from version 4 its
 * site) comes from the caller slots; before 4, a slot that lost it means
 * a rescan of the block, so any block decodes in bounded memory. */
struct wire_rec_iter {
	const uint8_t *first, *p, *end;
	uint64_t ts;
	uint64_t first_event;	/* the block's 'first' (section 2.8) */
	unsigned version;	/* the stream's; wire_rec_begin sets WIRE_VERSION */
	int error;
	wire_event_types_fn event_types;
	void *ctx;
	struct {
		uint64_t site_plus1;	/* 0: empty */
		uint64_t caller;
	} callers[WIRE_CALLER_CACHE];
	/* Version 5: the block's open graph entries (first ones kept). */
	uint32_t open;
	uint16_t open_site[WIRE_GRAPH_OPEN];
	uint64_t open_ts[WIRE_GRAPH_OPEN];
};

enum {
	WIRE_REC_DONE = 0,
	WIRE_REC_OK = 1,
	WIRE_REC_EBAD = -1,	/* truncated or malformed record */
	WIRE_REC_EEVENT = -2,	/* tracepoint with no known schema */
};

/* Reads the body's head (base_ts, first): 0, or WIRE_REC_EBAD if none.
 * Records read as WIRE_VERSION's; set it->version after, for older. */
int wire_rec_begin(struct wire_rec_iter *it, const uint8_t *body, size_t len,
		   wire_event_types_fn event_types, void *ctx);
/* WIRE_REC_OK with *r filled, WIRE_REC_DONE at the end, or an error
 * (after which the rest of the block cannot be decoded). */
int wire_rec_next(struct wire_rec_iter *it, struct wire_record *r);

/* Reads the next zigzag argument of a kind-5 tail; 0, or -1 at its end. */
int wire_arg_next(const uint8_t **p, const uint8_t *end, int64_t *v);

/* ---- extension records and profile dumps (sections 2.5, 2.6) ------------ */

/*
 * A kind-7 record of a known subtype, checked. Its values follow at
 * 'values': subtype 1 'count' zigzag argument varints, subtype 2 'count'
 * return addresses as (address - _text) / 4; read them with
 * wire_ext_value(). Bytes after the subtype's fields are ignored, so a
 * later version may append fields.
 */
struct wire_ext {
	unsigned subtype;
	uint64_t site;		/* args, trigger */
	unsigned count;		/* args, stack */
	uint8_t action;		/* trigger: enum wire_trigger_action */
	uint8_t outcome;	/* outcome: enum run_outcome */
	int64_t status;		/* outcome: main()'s status for RUN_EXIT */
	uint8_t reg, str_flags;	/* string: the register, WIRE_STR_* */
	uint64_t probe;		/* probe: its number (the schema's, key 10) */
	uint8_t faulted;	/* probe: bit n, fetch n's memory read faulted */
	const uint8_t *values, *end;	/* args, probe values; string: its bytes (no NUL) */
};

/*
 * Parses r (kind 7): 1 with *x filled for subtypes 1-6, 0 for a subtype
 * this version does not know (to skip), -1 if the bytes are malformed.
 */
int wire_ext_parse(const struct wire_record *r, struct wire_ext *x);
/* The next value of a parsed record, raw (args, probe: unzigzag it); 0 or -1. */
int wire_ext_value(struct wire_ext *x, uint64_t *v);

/* One function's numbers on one CPU, times in counter ticks. */
struct wire_profile_entry {
	uint64_t site, calls, total, min, max;
};

struct wire_profile_iter {
	const uint8_t *p, *end;
	uint64_t left;		/* entries still to read */
};

/* Reads the count; returns 0, or WIRE_REC_EBAD if there is none. */
int wire_profile_begin(struct wire_profile_iter *it, const uint8_t *body, size_t len);
/* WIRE_REC_OK with *e filled, WIRE_REC_DONE after 'count' entries (bytes
 * after them are ignored), or WIRE_REC_EBAD if an entry is cut short. */
int wire_profile_next(struct wire_profile_iter *it, struct wire_profile_entry *e);

/* ---- data block head and end of stream (sections 2.1, 2.4) ------------ */

/* A data block body's head: base_ts then first; returns the bytes. */
unsigned wire_block_head_put(uint8_t out[2 * WIRE_VARINT_MAX], uint64_t base_ts,
			     uint64_t first);

/* One CPU's totals in the end-of-stream frame. */
struct wire_end_cpu {
	uint64_t cpu, produced, overwritten, dropped, discarded, blocks;
};

/* How the run ended, after the entries (2.4); absent in older bodies. */
struct wire_end_run {
	int known;		/* 0: the body did not say */
	unsigned outcome;	/* enum run_outcome (kernel/report/outcome.h) */
	int64_t status;		/* main()'s status for EXIT, else 0 */
};

/* Encodes n entries and, when run is not NULL, the outcome; returns the
 * body length, or 0 if it does not fit. */
size_t wire_end_encode(uint8_t *out, size_t cap, const struct wire_end_cpu *c,
		       unsigned n, const struct wire_end_run *run);
/* Decodes up to max entries into c: returns how many the body holds (all
 * of them read when <= max), 0 for an empty (version 1) body, or -1 if it
 * is malformed. run (may be NULL) gets the outcome when the body has one
 * (run->known), and run->known = 0 otherwise. */
int wire_end_decode(const uint8_t *body, size_t len, struct wire_end_cpu *c,
		    unsigned max, struct wire_end_run *run);

/* ---- frames (section 2) ------------------------------------------------ */

struct wire_frame {
	unsigned type;
	unsigned cpu;
	uint64_t seq;
	const uint8_t *body;
	size_t body_len;
};

/* Writes type, cpu, seq and length; returns the bytes written. */
unsigned wire_frame_head(uint8_t out[WIRE_FRAME_HEAD_MAX], unsigned type,
			 unsigned cpu, uint64_t seq, uint64_t body_len);
/*
 * Builds a whole payload (head, body, CRC) into out. Returns its length,
 * or 0 if it does not fit cap or would exceed WIRE_MAX_PAYLOAD.
 */
size_t wire_frame_build(uint8_t *out, size_t cap, unsigned type, unsigned cpu,
			uint64_t seq, const uint8_t *body, size_t body_len);

enum wire_damage {
	WIRE_DMG_NONE = 0,
	WIRE_DMG_CUT,		/* STX or end of input inside a frame */
	WIRE_DMG_OVERSIZE,	/* payload over the buffer or 65535 bytes */
	WIRE_DMG_ESCAPE,	/* DLE not followed by an escaped 02/03/10 */
	WIRE_DMG_SHORT,		/* too short for a header and CRC */
	WIRE_DMG_LENGTH,	/* length field disagrees with the payload */
	WIRE_DMG_CRC,
	WIRE_DMG_COUNT
};

/* Checks and splits an unescaped payload; 0 or a wire_damage reason. */
int wire_frame_parse(const uint8_t *payload, size_t len, struct wire_frame *f);

/* True for the bytes a payload carries escaped (STX, ETX, DLE). */
static inline int wire_needs_escape(uint8_t b)
{
	return b == WIRE_STX || b == WIRE_ETX || b == WIRE_DLE;
}

/* Escapes n payload bytes without delimiters; out needs 2 * n bytes (it
 * may write past what it returns, up to there). */
size_t wire_escape_bytes(uint8_t *out, const uint8_t *p, size_t n);
/* STX, escaped payload, ETX into out; returns bytes, or 0 if cap is short. */
size_t wire_escape(uint8_t *out, size_t cap, const uint8_t *payload, size_t len);
/* The same with every payload byte XOR WIRE_LINE_MASK (a masked frame). */
size_t wire_escape_masked(uint8_t *out, size_t cap, const uint8_t *payload, size_t len);

/* The stream decoder (section 1): bytes in, text and frames out. */
#include "wire_stream.h"
/* The previous boot's summary frame (section 2.10). */
#include "wire_prev.h"

#endif /* TRACE_WIRE_H */
