/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_decoder.c: the host tool's frame decoder
 * (tools/baretrace/decode/decode.c, books.c) and what it builds on:
 * metadata merging, symbol dumps, event numbers turned into holes (more in test_books.c), data
 * kept until metadata arrives, versions it must refuse, and the safe
 * rendering of format strings that arrive over the wire.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/base/util.h"
#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/decode/symtab.h"
#include "../../tools/baretrace/decode/units.h"
#include "../../tools/baretrace/output/render/render.h"
#include "../../wire/wire_syms.h"

#include "tap.h"

/* What the visitor saw, in order, as text: "r0:k1 " "gap1:3 " ... */
static char seen[4096];

static void note(const char *fmt, unsigned a, unsigned long long b)
{
	size_t n = strlen(seen);

	snprintf(seen + n, sizeof(seen) - n, fmt, a, b);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	(void)d;
	note("r%u:%llu ", cpu, (unsigned long long)(r->kind == WIRE_REC_LOST ? 100 + r->count
									     : r->site));
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	(void)d;
	(void)cause;
	note("hole%u:%llu ", cpu, (unsigned long long)events);
}

static const struct bt_visitor visitor = { .record = on_record, .hole = on_hole };

static uint8_t pl[4096];

/* Builds a frame and feeds it; returns bt_dec_frame's result. */
static int feed(struct bt_decoder *d, unsigned type, unsigned cpu, uint64_t seq,
		const uint8_t *body, size_t n)
{
	size_t len = wire_frame_build(pl, sizeof(pl), type, cpu, seq, body, n);

	return bt_dec_frame(d, pl, len);
}

/* A data block: base timestamp, then one kind-1 record for 'site'. */
static int feed_block(struct bt_decoder *d, unsigned cpu, uint64_t seq, uint64_t site)
{
	uint8_t b[32];
	struct wire_out o;
	struct wire_record r = { .kind = WIRE_REC_FUNC_CALLER, .site = site, .caller = 9 };

	wire_out_init(&o, b, sizeof(b));
	wire_out_varint(&o, 1000);
	wire_out_varint(&o, seq);	/* first: one event per block */
	wire_rec_encode(&o, &r);
	return feed(d, WIRE_FRAME_DATA, cpu, seq, b, o.len);
}

static size_t meta(uint8_t *b, uint64_t version)
{
	struct wire_out o;

	wire_out_init(&o, b, 256);
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, version);
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, 1000000);
	wire_out_varint(&o, WIRE_META_IMAGE_HASH);
	wire_out_u32le(&o, 0xfeedf00d);
	wire_out_varint(&o, 99);	/* a key from the future: a varint */
	wire_out_varint(&o, 123456);
	wire_out_varint(&o, WIRE_META_EVENT_SCHEMA);
	wire_out_varint(&o, 5);
	wire_out_str(&o, "ev", 2);
	wire_out_u8(&o, 1);
	wire_out_str(&o, "x", 1);
	wire_out_u8(&o, WIRE_FIELD_S32);
	wire_out_str(&o, "%d", 2);
	wire_out_varint(&o, WIRE_META_FORMAT);
	wire_out_varint(&o, 1);
	wire_out_str(&o, "n=%d%n %999999999d %s %q %", 26);
	return o.len;
}

static void test_gaps(void)
{
	static struct bt_decoder d;
	uint8_t m[256];
	size_t mn = meta(m, WIRE_VERSION);

	seen[0] = 0;
	bt_dec_init(&d, &visitor, NULL);
	feed(&d, WIRE_FRAME_META, 0, 0, m, mn);
	feed_block(&d, 0, 0, 1);
	feed_block(&d, 1, 0, 2);
	feed_block(&d, 0, 1, 3);
	feed_block(&d, 0, 4, 4);	/* 2 and 3 lost */
	feed_block(&d, 1, 1, 5);
	feed_block(&d, 1, 3, 6);	/* 2 lost */
	tap_eq_str(seen, "r0:1 r1:2 r0:3 hole0:2 r0:4 r1:5 hole1:1 r1:6 ",
		   "decoder: a jump of 'first' becomes a hole before the next block");
	tap_ok(d.seq_gaps == 2 && d.frames_lost == 3 && bt_events(&d) == 6,
	       "decoder: gaps counted: 2 gaps, 3 frames, 6 events (holes are no events)");
	seen[0] = 0;
	feed(&d, WIRE_FRAME_META, 0, 0, m, mn);	/* metadata seq steps back: a restart */
	feed_block(&d, 0, 0, 7);
	tap_eq_str(seen, "r0:7 ", "decoder: after a restart, seq 0 again is no gap");
	feed(&d, WIRE_FRAME_SYMS, 0, 0, (const uint8_t *)"\0\0", 2);
	feed(&d, WIRE_FRAME_SYMS, 0, 2, (const uint8_t *)"\0\0", 2);
	tap_eq_int((long long)d.seq_gaps, 3, "decoder: a gap in symbol frames is counted too");
	bt_dec_free(&d);
}

static void test_pending(void)
{
	static struct bt_decoder d;
	uint8_t m[256], dump[64];
	size_t mn = meta(m, WIRE_VERSION);
	struct wire_out o;
	struct wire_sym_state prev;
	char nb[32];

	seen[0] = 0;
	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	for (unsigned i = 0; i < BT_MAX_PENDING + 5; i++)
		feed_block(&d, 0, i, i % 3);
	tap_eq_str(seen, "", "pending: data before metadata is not decoded yet");
	tap_eq_int((long long)d.pending_dropped, 5, "pending: at most 1024 frames kept, rest counted");
	feed(&d, WIRE_FRAME_META, 0, 0, m, mn);
	wire_out_init(&o, dump, sizeof(dump));
	wire_out_varint(&o, 1);		/* first site */
	wire_out_varint(&o, 2);		/* count */
	wire_sym_begin(&prev);
	wire_out_sym(&o, &prev, 0x40, 0x10, "main", 4);
	wire_out_sym(&o, &prev, 0x60, 0x8, "main_loop", 9);
	tap_ok(o.len == 2 + 9 + 9 && dump[2] == 0x80 && dump[3] == 0x01 && dump[11] == 0x20 &&
	       dump[13] == 4 && dump[14] == 5 && !memcmp(dump + 15, "_loop", 5),
	       "symbols: an entry is its gap, size, the name's shared bytes and the rest");
	feed(&d, WIRE_FRAME_SYMS, 0, 0, dump, o.len);
	tap_eq_str(seen, "", "pending: still held while metadata and symbols arrive");
	feed_block(&d, 0, BT_MAX_PENDING + 5, 1);
	tap_ok(d.records == BT_MAX_PENDING + 1 && d.npending == 0,
	       "pending: decoded, in order, at the first data frame after metadata");
	tap_eq_str(bt_func_name(&d, 1, nb, sizeof(nb)), "main", "symbols: site 1 named by the dump");
	tap_eq_str(bt_func_name(&d, 2, nb, sizeof(nb)), "main_loop",
		   "symbols: a name front-coded against the one before");
	tap_eq_str(bt_caller_name(&d.syms, (0x60 + 4) / 4, nb, sizeof(nb)), "main_loop",
		   "symbols: its offset from the gap after main's end");
	tap_eq_str(bt_func_name(&d, 0, nb, sizeof(nb)), "site#0", "symbols: an unknown site is site#N");
	tap_eq_str(bt_caller_name(&d.syms, (0x40 + 8) / 4, nb, sizeof(nb)), "main",
		   "symbols: a return address inside main");
	tap_eq_str(bt_caller_name(&d.syms, (0x50 + 4) / 4, nb, sizeof(nb)), "0x54",
		   "symbols: an address past main's end stays an address");
	tap_ok(d.meta.freq == 1000000 && d.meta.have_hash && d.meta.image_hash == 0xfeedf00d,
	       "metadata: frequency and image hash, past a key from the future");
	bt_dec_free(&d);
}

/* A version 3 stream's symbol dump: each entry whole (wire.md 2.3). */
static void test_syms_v3(void)
{
	static struct bt_decoder d;
	uint8_t m[256], dump[64];
	size_t mn = meta(m, 3);
	struct wire_out o;
	char nb[32];

	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	feed(&d, WIRE_FRAME_META, 0, 0, m, mn);
	wire_out_init(&o, dump, sizeof(dump));
	wire_out_varint(&o, 0);
	wire_out_varint(&o, 2);
	wire_out_varint(&o, 0x40);
	wire_out_varint(&o, 0x10);
	wire_out_str(&o, "main", 4);
	wire_out_varint(&o, 0x60);
	wire_out_varint(&o, 0x8);
	wire_out_str(&o, "idle", 4);
	feed(&d, WIRE_FRAME_SYMS, 0, 0, dump, o.len);
	tap_eq_str(bt_func_name(&d, 1, nb, sizeof(nb)), "idle", "symbols v3: entries read whole");
	tap_eq_str(bt_caller_name(&d.syms, (0x60 + 4) / 4, nb, sizeof(nb)), "idle",
		   "symbols v3: offsets from _text");
	bt_dec_free(&d);
}

/* wire.md 2.9: key 1 starts a set; frames without it add to the set. */
static void test_meta_sets(void)
{
	static struct bt_meta m;
	uint8_t a[256], b[64], c[64];
	size_t an = meta(a, WIRE_VERSION);
	struct wire_out o;

	wire_out_init(&o, b, sizeof(b));	/* continues the set: a format */
	wire_out_varint(&o, WIRE_META_FORMAT);
	wire_out_varint(&o, 2);
	wire_out_str(&o, "two", 3);
	tap_ok(!bt_meta_parse(&m, a, an) && !bt_meta_parse(&m, b, o.len) &&
	       m.have_hash && m.freq == 1000000 && bt_meta_format(&m, 2) &&
	       bt_meta_schema(&m, 5), "meta sets: a frame without key 1 adds to the set, "
	       "keeps what the first said");
	wire_out_init(&o, c, sizeof(c));	/* a new set: version and clock only */
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, WIRE_VERSION);
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, 54000000);
	tap_ok(!bt_meta_parse(&m, c, o.len) && !m.have_hash && m.freq == 54000000 &&
	       m.sets == 2, "meta sets: key 1 starts a new set: the old image hash is gone");
	bt_meta_free(&m);
}

static void test_versions(void)
{
	static struct bt_decoder d;
	uint8_t m[256];
	size_t mn = meta(m, WIRE_VERSION_MAX + 1);

	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	tap_eq_int(feed(&d, WIRE_FRAME_META, 0, 0, m, mn), -1,
		   "versions: metadata of a later format version is refused");
	bt_dec_free(&d);
	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	m[0] ^= 0xff;
	tap_eq_int(bt_dec_frame(&d, m, mn), 0, "versions: a payload failing its CRC is skipped");
	tap_eq_int((long long)d.bad_frames, 1, "versions: and counted");
	bt_dec_free(&d);
}

static void test_render(void)
{
	static struct bt_decoder d;
	uint8_t m[256], args[32];
	size_t mn = meta(m, WIRE_VERSION);
	struct wire_out o;
	struct wire_record r = { .kind = WIRE_REC_PRINTF, .id = 1, .count = 3 };
	char buf[128];
	const char *name;

	bt_dec_init(&d, &visitor, NULL);
	feed(&d, WIRE_FRAME_META, 0, 0, m, mn);
	wire_out_init(&o, args, sizeof(args));
	wire_out_varint(&o, wire_zigzag(-7));
	wire_out_varint(&o, wire_zigzag(3));
	wire_out_varint(&o, wire_zigzag(4));
	r.data = args;
	r.data_len = o.len;
	bt_fmt_printf(&d, &r, buf, sizeof(buf));
	/* %n is not ours: printed as written; width capped at 64. */
	char want[128];

	snprintf(want, sizeof(want), "n=-7%%n %64d 4 %%q %%", 3);
	tap_eq_str(buf, want, "render: %n and odd conversions stay text, widths are capped");
	r.id = 77;
	bt_fmt_printf(&d, &r, buf, sizeof(buf));
	tap_eq_str(buf, "format#77 -7 3 4", "render: an unknown format shows its id and arguments");
	r = (struct wire_record){ .kind = WIRE_REC_EVENT, .id = 5, .data = args, .data_len = 1 };
	tap_ok(!bt_fmt_event(&d, &r, buf, sizeof(buf), &name) && !strcmp(name, "ev") &&
	       !strcmp(buf, "x=-7"), "render: tracepoint fields through their formats");
	tap_diag("rendered: \"%s\"", buf);
	bt_fmt_seconds(buf, sizeof(buf), 62500000ull * 3 + 62, 62500000);
	tap_eq_str(buf, "3.000000", "render: seconds with 6 decimals, truncated");
	bt_fmt_usecs(buf, sizeof(buf), 6763, 62500000);
	tap_eq_str(buf, "108.208", "render: microseconds with 3 decimals");
	bt_fmt_usecs(buf, sizeof(buf), UINT64_MAX, 1);
	tap_ok(strlen(buf) > 0, "render: a huge duration does not overflow");
	bt_dec_free(&d);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_gaps();
	test_pending();
	test_syms_v3();
	test_meta_sets();
	test_versions();
	test_render();
	return tap_done();
}
