/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/output/render/render_ext.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c tools/baretrace/model/callstack.c tools/baretrace/model/flame.c tools/baretrace/model/profile.c kernel/lib/nearest.c */
/*
 * test/fuzz/fuzz_decoder.c: arbitrary bytes as a UART stream, through the
 * stream decoder (in chunks whose sizes the input picks), every frame it
 * accepts through the host tool's frame decoder with each record
 * rendered and nested into a flame tree (callstack.c, flame.c), profile
 * dumps kept and merged (profile.c), and the whole input as a data-block
 * body through the record decoder.
 *
 * Besides sanitizer findings it checks what wire/wire.h promises: the
 * decoder always makes progress, text never holds a framing byte, an
 * accepted frame passes its CRC and survives escaping and decoding
 * again unchanged, and every record re-encodes to the same values.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/base/util.h"
#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/decode/symtab.h"
#include "../../tools/baretrace/decode/units.h"
#include "../../tools/baretrace/model/flame.h"
#include "../../tools/baretrace/model/model.h"
#include "../../tools/baretrace/output/render/render.h"
#include "../../wire/wire.h"

#include "fuzz.h"

static struct bt_flame flame;
static struct bt_profile prof;

/* An extension record the decoder passed on parses, and its values are there. */
static void extension(struct bt_decoder *d, const struct wire_record *r)
{
	struct wire_ext x;
	int64_t args[BT_ARGS_SHOWN];
	char buf[256];
	uint64_t v;

	must(wire_ext_parse(r, &x) == 1);
	if (x.subtype == WIRE_EXT_ARGS) {
		must(bt_ext_args(&x, args, BT_ARGS_SHOWN) == x.count);
		bt_fmt_arg_values(args, x.count, ", ", buf, sizeof(buf));
	}
	for (unsigned i = 0; x.subtype == WIRE_EXT_STACK && i < x.count; i++) {
		must(wire_ext_value(&x, &v) == 0);
		bt_caller_name(&d->syms, v, buf, sizeof(buf));
	}
	bt_trigger_action(x.action, buf, sizeof(buf));
}

static void render(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	char buf[256];
	const char *name;

	bt_flame_record(&flame, cpu, r);
	if (r->kind == WIRE_REC_EXT)
		extension(d, r);
	if (r->kind == WIRE_REC_EVENT)
		must(bt_fmt_event(d, r, buf, sizeof(buf), &name) == 0);
	else if (r->kind == WIRE_REC_PRINTF)
		bt_fmt_printf(d, r, buf, sizeof(buf));
	else if (r->kind <= WIRE_REC_GRAPH_ENTRY)
		bt_func_name(d, r->site, buf, sizeof(buf));
	if (r->has_caller)
		bt_caller_name(&d->syms, r->caller, buf, sizeof(buf));
}

static void keep_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)d;
	bt_profile_add(&prof, f);
}

/* A hole holds events and says why. */
static void hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	(void)d;
	must(cpu < BT_MAX_CPUS && events > 0 && cause && *cause);
}

static const struct bt_visitor visitor = { .record = render, .hole = hole,
					   .profile = keep_profile };

/* Tracepoint 1 is (u32, string); everything else unknown. */
static int types_of(void *ctx, uint64_t id, const uint8_t **types)
{
	static const uint8_t t1[] = { WIRE_FIELD_U32, WIRE_FIELD_STRING };

	(void)ctx;
	if (id != 1)
		return -1;
	*types = t1;
	return 2;
}

static int same(const struct wire_record *a, const struct wire_record *b)
{
	return a->kind == b->kind && a->delta == b->delta && a->site == b->site &&
	       (a->kind > WIRE_REC_FUNC_CALLER || a->caller == b->caller) &&
	       a->duration == b->duration && a->flags == b->flags && a->retval == b->retval &&
	       a->depth == b->depth && a->id == b->id && a->count == b->count &&
	       a->subtype == b->subtype && a->data_len == b->data_len &&
	       (!a->data_len || !memcmp(a->data, b->data, a->data_len));
}

static void records(const uint8_t *body, size_t len)
{
	static struct wire_rec_iter it, again;
	struct wire_record r, r2;
	uint8_t buf[64 + 2 * WIRE_VARINT_MAX];
	struct wire_out o;
	size_t n = 0;
	int rc;

	if (wire_rec_begin(&it, body, len, types_of, NULL))
		return;
	while ((rc = wire_rec_next(&it, &r)) == WIRE_REC_OK) {
		must(++n <= len && it.p <= body + len);
		if (r.data_len > 48)
			continue;	/* re-encode what fits the buffer */
		wire_out_init(&o, buf, sizeof(buf));
		wire_out_varint(&o, 0);		/* base_ts */
		wire_out_varint(&o, 0);		/* first */
		if (r.kind == WIRE_REC_FUNC) {
			/* A kind 0 names the slot a kind 1 filled (wire.md 2.1). */
			struct wire_record fill = { .kind = WIRE_REC_FUNC_CALLER, .site = r.site,
						    .caller = r.caller };

			must(wire_rec_encode(&o, &fill) == 0);
		}
		/* A return (version 5) closes an entry of the block: it gets
		 * one at time 0, so its duration is now its own delta. */
		int ret = r.kind == WIRE_REC_EXIT && r.paired;
		struct wire_record open = { .kind = WIRE_REC_GRAPH_ENTRY, .site = r.site };

		if (ret)
			must(wire_rec_encode(&o, &open) == 0);
		must(wire_rec_encode(&o, &r) == 0);
		must(wire_rec_begin(&again, buf, o.len, types_of, NULL) == 0);
		if (r.kind == WIRE_REC_FUNC || ret)
			must(wire_rec_next(&again, &r2) == WIRE_REC_OK);
		if (ret)
			r.duration = r.delta;
		must(wire_rec_next(&again, &r2) == WIRE_REC_OK && same(&r, &r2) &&
		     r2.paired == r.paired);
		must(wire_rec_next(&again, &r2) == WIRE_REC_DONE);
	}
	must(rc == WIRE_REC_DONE || rc == WIRE_REC_EBAD || rc == WIRE_REC_EEVENT);
}

/* An accepted frame, escaped again and decoded again, is the same. */
static void roundtrip(const uint8_t *payload, size_t len)
{
	static uint8_t esc[WIRE_ESCAPED_MAX(WIRE_MAX_PAYLOAD)], buf[WIRE_MAX_PAYLOAD];
	struct wire_dec d;
	struct wire_ev ev;
	size_t n = wire_escape(esc, sizeof(esc), payload, len);

	must(n >= len + 2);
	wire_dec_init(&d, buf, sizeof(buf));
	must(wire_dec_feed(&d, esc, n, &ev) == n && ev.type == WIRE_EV_FRAME);
	must(ev.payload_len == len && !memcmp(ev.payload, payload, len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t buf[WIRE_MAX_PAYLOAD];
	static struct bt_decoder bd;
	struct wire_dec d;
	struct wire_ev ev;
	size_t at = 0, chunk = size ? data[0] % 17 + 1 : 1;
	uint64_t events = 0;

	wire_dec_init(&d, buf, size && data[0] & 0x80 ? 32 : sizeof(buf));
	bt_dec_init(&bd, &visitor, NULL);
	bd.quiet = 1;
	bd.want_prev = 1;	/* previous-boot frames (types 6, 7) decoded too */
	bt_flame_init(&flame, &bd, size && data[0] & 0x40);
	while (at < size) {
		size_t piece = chunk < size - at ? chunk : size - at;
		const uint8_t *p = data + at;

		at += piece;
		while (piece) {
			size_t used = wire_dec_feed(&d, p, piece, &ev);

			must(used >= 1 && used <= piece);
			p += used;
			piece -= used;
			if (ev.type == WIRE_EV_TEXT) {
				must(ev.text_len > 0);
				for (size_t i = 0; i < ev.text_len; i++)
					must(ev.text[i] != WIRE_STX && ev.text[i] != WIRE_ETX &&
					     ev.text[i] != WIRE_DLE);
			} else if (ev.type == WIRE_EV_FRAME) {
				struct wire_frame f;

				must(wire_frame_parse(ev.payload, ev.payload_len, &f) == 0);
				events++;
				roundtrip(ev.payload, ev.payload_len);
				if (f.type == WIRE_FRAME_DATA)
					records(f.body, f.body_len);
				bt_dec_frame(&bd, ev.payload, ev.payload_len);
			} else if (ev.type == WIRE_EV_DAMAGED) {
				must(ev.damage > WIRE_DMG_NONE && ev.damage < WIRE_DMG_COUNT);
			}
		}
	}
	wire_dec_finish(&d, &ev);
	must(d.frames == events);
	bt_dec_finish(&bd);
	/* Books that balance account for every produced event. */
	struct bt_loss l;

	bt_loss(&bd, &l);
	if (l.totals && l.balanced)
		must(l.produced == l.decoded + l.overwritten + l.dropped + l.discarded + l.wire &&
		     l.lost == l.produced - l.decoded);
	bt_flame_finish(&flame);
	must(flame.n[BT_FLAME_GRAPH].value >= flame.n[BT_FLAME_GRAPH].ticks);
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++) {
		struct wire_profile_entry *rows;
		size_t n = bt_profile_rows(&prof, c, &rows);

		for (size_t i = 1; i < n; i++)
			must(rows[i - 1].site < rows[i].site);
		free(rows);
	}
	bt_flame_free(&flame);
	bt_profile_free(&prof);
	bt_dec_free(&bd);
	records(data, size);
	return 0;
}
