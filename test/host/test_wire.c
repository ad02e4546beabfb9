/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c */
/*
 * test/host/test_wire.c: the shared wire codec (wire/wire.c) against
 * values worked out by hand from docs/wire.md: varints, zigzag, CRC-32,
 * records of every kind, frames and escaping, and the stream decoder
 * resynchronising after a byte is flipped, deleted or inserted at every
 * offset of a sample stream.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../wire/wire.h"
#include "tap.h"

static void test_varint(void)
{
	static const uint64_t vals[] = { 0, 1, 127, 128, 300, 16383, 16384,
		UINT32_MAX, (uint64_t)1 << 56, INT64_MAX, (uint64_t)INT64_MAX + 1,
		UINT64_MAX };
	uint8_t b[16];
	uint64_t v;
	int pass = 1;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		unsigned n = wire_varint_put(b, vals[i]);

		pass &= n == wire_varint_len(vals[i]);
		pass &= wire_varint_get(b, n, &v) == (int)n && v == vals[i];
		/* Every shorter prefix is cut short. */
		for (unsigned k = 0; k < n; k++)
			pass &= wire_varint_get(b, k, &v) == -1;
	}
	tap_ok(pass, "varint: round trips, 0 to UINT64_MAX, prefixes rejected");
	unsigned n = wire_varint_put(b, 300);

	tap_ok(n == 2 && b[0] == 0xac && b[1] == 0x02, "varint: 300 is ac 02");
	n = wire_varint_put(b, UINT64_MAX);
	tap_ok(n == 10 && b[0] == 0xff && b[8] == 0xff && b[9] == 0x01,
	       "varint: UINT64_MAX is nine ff then 01");
	b[9] = 0x02;
	tap_eq_int(wire_varint_get(b, 10, &v), -1, "varint: a tenth byte over 1 overflows");
	memset(b, 0x80, sizeof(b));
	tap_eq_int(wire_varint_get(b, sizeof(b), &v), -1, "varint: more than 10 bytes rejected");
	b[0] = 0x80;
	b[1] = 0x00;
	tap_ok(wire_varint_get(b, 2, &v) == 2 && v == 0, "varint: padded zero accepted");
}

static void test_zigzag(void)
{
	static const int64_t vals[] = { 0, -1, 1, -2, 2, INT32_MIN, INT32_MAX,
		INT64_MAX, INT64_MIN, INT64_MIN + 1 };
	int pass = 1;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		pass &= wire_unzigzag(wire_zigzag(vals[i])) == vals[i];
	tap_ok(pass, "zigzag: round trips including 64-bit extremes");
	tap_ok(wire_zigzag(0) == 0 && wire_zigzag(-1) == 1 && wire_zigzag(1) == 2 &&
	       wire_zigzag(-2) == 3, "zigzag: 0 -1 1 -2 map to 0 1 2 3");
	tap_eq_u64(wire_zigzag(INT64_MAX), UINT64_MAX - 1, "zigzag: INT64_MAX");
	tap_eq_u64(wire_zigzag(INT64_MIN), UINT64_MAX, "zigzag: INT64_MIN");
}

static void test_crc(void)
{
	const char *s = "123456789";

	tap_eq_u64(wire_crc32(0, s, 9), 0xCBF43926, "crc32: check value of \"123456789\"");
	tap_eq_u64(wire_crc32(wire_crc32(0, s, 4), s + 4, 5), 0xCBF43926,
		   "crc32: chained over two pieces");
	tap_eq_u64(wire_crc32(0, s, 0), 0, "crc32: of nothing is 0");
	tap_eq_u64(wire_crc32(0, "a", 1), 0xE8B7BE43, "crc32: of \"a\"");
}

static void test_header(void)
{
	uint8_t buf[16];
	struct wire_out o;

	wire_out_init(&o, buf, sizeof(buf));
	wire_rec_header(&o, 3, 30);
	tap_ok(o.len == 1 && buf[0] == (3 << 5 | 30), "header: delta 30 fits the byte");
	wire_out_init(&o, buf, sizeof(buf));
	wire_rec_header(&o, 2, 31);
	tap_ok(o.len == 2 && buf[0] == (2 << 5 | 31) && buf[1] == 31,
	       "header: delta 31 escapes to a varint");
	wire_out_init(&o, buf, sizeof(buf));
	wire_rec_header(&o, 7, 300);
	tap_ok(o.len == 3 && buf[0] == 0xff && buf[1] == 0xac && buf[2] == 0x02,
	       "header: kind 7 delta 300 is ff ac 02");
	wire_out_init(&o, buf, 1);
	wire_rec_header(&o, 0, 1000);
	tap_ok(o.overflow && o.len == 0, "header: no room sets overflow, writes nothing");
}

/* Tracepoint 9 has fields (u32, string, s64); anything else is unknown. */
static int types_of(void *ctx, uint64_t id, const uint8_t **types)
{
	static const uint8_t t9[] = { WIRE_FIELD_U32, WIRE_FIELD_STRING, WIRE_FIELD_S64 };

	(void)ctx;
	if (id != 9)
		return -1;
	*types = t9;
	return 3;
}

static int same_record(const struct wire_record *a, const struct wire_record *b)
{
	/* A kind-0 caller is not encoded: the decoder supplies it. */
	return a->kind == b->kind && a->delta == b->delta && a->site == b->site &&
	       (a->kind == WIRE_REC_FUNC || a->caller == b->caller) &&
	       a->duration == b->duration &&
	       a->flags == b->flags && a->retval == b->retval && a->depth == b->depth &&
	       a->id == b->id && a->count == b->count && a->subtype == b->subtype &&
	       a->data_len == b->data_len &&
	       (!a->data_len || !memcmp(a->data, b->data, a->data_len));
}

/* Version 3's layout: kind-0 sites as varints, their callers found by
 * the slot or a rescan of the block. */
static void test_records(void)
{
	static const uint8_t ev_fields[] = { 0x54, 3, 'a', 'b', 'c', 0x01 }; /* 42 "abc" -1 */
	static const uint8_t args[] = { 0x02, 0xff, 0x01 };		 /* 1, -128 */
	static const uint8_t ext[] = { 0xde, 0xad };
	const struct wire_record recs[] = {
		{ .kind = 1, .delta = 0, .site = 5, .caller = 0x1234 },
		{ .kind = 0, .delta = 3, .site = 5 },
		{ .kind = 1, .delta = 31, .site = 261, .caller = 77 },	/* same cache slot */
		{ .kind = 0, .delta = 0, .site = 5 },			/* rescan */
		{ .kind = 3, .delta = 1000, .site = 7, .depth = 2 },
		{ .kind = 2, .delta = 20, .site = 7, .duration = 1020 },
		{ .kind = 2, .delta = 1, .site = 7, .duration = UINT64_MAX,
		  .flags = WIRE_EXIT_HAS_RETVAL, .retval = INT64_MIN },
		{ .kind = 4, .delta = 2, .id = 9, .data = ev_fields, .data_len = sizeof(ev_fields) },
		{ .kind = 5, .delta = 2, .id = 3, .count = 2, .data = args, .data_len = sizeof(args) },
		{ .kind = 6, .delta = UINT64_MAX - 5000, .count = 12345 },
		{ .kind = 7, .delta = 0, .subtype = 200, .data = ext, .data_len = 2 },
		{ .kind = 0, .delta = 1, .site = 999 },			/* no kind 1 before */
	};
	size_t n = sizeof(recs) / sizeof(recs[0]);
	uint8_t body[256];
	struct wire_out o;
	struct wire_rec_iter *it = malloc(sizeof(*it));
	struct wire_record r;
	int pass = 1, kinds = 0;
	uint64_t ts = 1000000;

	wire_out_init(&o, body, sizeof(body));
	wire_out_varint(&o, ts);
	wire_out_varint(&o, 300);	/* first: the block's first event number */
	for (size_t i = 0; i < n; i++)
		pass &= wire_rec_encode_ver(&o, &recs[i], 3) == 0;
	tap_ok(pass && !o.overflow, "records: every kind encodes");
	tap_eq_int(wire_rec_begin(it, body, o.len, types_of, NULL), 0, "records: block begins");
	it->version = 3;
	tap_eq_int((int)it->first_event, 300, "records: the block's first event number");
	for (size_t i = 0; i < n; i++) {
		int rc = wire_rec_next(it, &r);

		ts += recs[i].delta;
		if (rc != WIRE_REC_OK || !same_record(&r, &recs[i]) || r.ts != ts) {
			tap_diag("record %zu: rc %d kind %u", i, rc, r.kind);
			pass = 0;
		}
		kinds |= 1 << r.kind;
		if (i == 1)
			pass &= r.has_caller && r.caller == 0x1234;
		if (i == 3)
			pass &= r.has_caller && r.caller == 0x1234;
		if (i == 11)
			pass &= !r.has_caller;
	}
	tap_ok(pass && kinds == 0xff, "records: every kind decodes to what was encoded");
	tap_eq_int(wire_rec_next(it, &r), WIRE_REC_DONE, "records: then the block ends");

	/* Every cut of the block fails cleanly or ends at a record boundary. */
	int cuts_ok = 1;

	for (size_t len = 0; len < o.len; len++) {
		uint8_t *copy = malloc(len ? len : 1);
		int rc = 0, got = 0;

		memcpy(copy, body, len);
		if (wire_rec_begin(it, copy, len, types_of, NULL) == 0) {
			it->version = 3;
			while ((rc = wire_rec_next(it, &r)) == WIRE_REC_OK)
				got++;
		}
		cuts_ok &= got <= (int)n && (rc == WIRE_REC_DONE || rc == WIRE_REC_EBAD);
		free(copy);
	}
	tap_ok(cuts_ok, "records: a block cut at any byte never reads past its end");

	wire_rec_begin(it, body, o.len, NULL, NULL);
	it->version = 3;
	int rc;

	for (int i = 0; (rc = wire_rec_next(it, &r)) == WIRE_REC_OK; i++)
		;
	tap_eq_int(rc, WIRE_REC_EEVENT, "records: a tracepoint without a schema stops the block");
	tap_eq_int(wire_rec_next(it, &r), WIRE_REC_EEVENT, "records: and the error sticks");

	const uint8_t *p = args, *end = args + sizeof(args);
	int64_t a1 = 0, a2 = 0, a3 = 0;

	tap_ok(!wire_arg_next(&p, end, &a1) && !wire_arg_next(&p, end, &a2) &&
	       wire_arg_next(&p, end, &a3) == -1 && a1 == 1 && a2 == -128,
	       "records: printf arguments read back as 1, -128, then end");
	free(it);
}

/* Version 4 (wire.md 2.2): a kind 0 is its header and the caller slot
 * (site & 255), two bytes for any site number; kinds 2 and 3 carry the
 * site in two bytes. The bytes are checked as written, then decoded. */
static void test_records_v4(void)
{
	const struct wire_record recs[] = {
		{ .kind = 1, .delta = 0, .site = 5, .caller = 0x1234 },
		{ .kind = 0, .delta = 3, .site = 5 },
		{ .kind = 1, .delta = 2, .site = 3077, .caller = 77 },	/* slot 5 again */
		{ .kind = 0, .delta = 40, .site = 3077 },		/* long delta */
		{ .kind = 3, .delta = 1, .site = 3077, .depth = 2 },
		{ .kind = 2, .delta = 4, .site = 3077, .duration = 5 },
	};
	static const uint8_t want[] = {
		0x20, 0x05, 0xb4, 0x24,		/* kind 1: site 5, caller 0x1234 */
		0x03, 0x05,			/* kind 0: slot 5 */
		0x22, 0x85, 0x18, 0x4d,		/* kind 1: site 3077 (varint), caller 77 */
		0x1f, 0x28, 0x05,		/* kind 0, delta 40 (varint): slot 5 */
		0x61, 0x05, 0x0c, 0x02,		/* kind 3: site 3077 = 0x0c05 LE, depth 2 */
		0x44, 0x05, 0x0c, 0x05, 0x00,	/* kind 2: site, duration 5, flags */
	};
	size_t n = sizeof(recs) / sizeof(recs[0]);
	uint8_t body[128];
	struct wire_out o;
	struct wire_rec_iter *it = malloc(sizeof(*it));
	struct wire_record r, big = { .kind = 3, .site = 0x10000 };
	int pass = 1;

	wire_out_init(&o, body, sizeof(body));
	wire_out_varint(&o, 1000);
	wire_out_varint(&o, 0);
	for (size_t i = 0; i < n; i++)
		pass &= wire_rec_encode(&o, &recs[i]) == 0;
	tap_ok(pass && o.len == 3 + sizeof(want) && !memcmp(body + 3, want, sizeof(want)),
	       "records v4: a kind 0 is two bytes whatever the site, graph sites two bytes");
	wire_rec_begin(it, body, o.len, NULL, NULL);
	for (size_t i = 0; i < n; i++) {
		int rc = wire_rec_next(it, &r);

		pass &= rc == WIRE_REC_OK && same_record(&r, &recs[i]);
	}
	tap_ok(pass && wire_rec_next(it, &r) == WIRE_REC_DONE,
	       "records v4: every record decodes to what was encoded");
	wire_rec_begin(it, body, o.len, NULL, NULL);
	wire_rec_next(it, &r);
	wire_rec_next(it, &r);
	pass = r.site == 5 && r.has_caller && r.caller == 0x1234;
	wire_rec_next(it, &r);
	wire_rec_next(it, &r);
	tap_ok(pass && r.site == 3077 && r.has_caller && r.caller == 77,
	       "records v4: a kind 0 takes the site and caller of its slot's last kind 1");

	/* A slot no kind 1 filled: no writer makes it, the block is bad. */
	static const uint8_t orphan[] = { 0x00, 0x00, 0x20, 0x05, 0x01, 0x01, 0x06 };

	wire_rec_begin(it, orphan, sizeof(orphan), NULL, NULL);
	pass = wire_rec_next(it, &r) == WIRE_REC_OK;
	tap_ok(pass && wire_rec_next(it, &r) == WIRE_REC_EBAD && wire_rec_next(it, &r) == WIRE_REC_EBAD,
	       "records v4: a kind 0 naming an empty slot is malformed, and stays so");
	wire_out_init(&o, body, sizeof(body));
	tap_ok(wire_rec_encode(&o, &big) == -1 && o.len == 0,
	       "records v4: a graph site above 0xffff is refused");
	free(it);
}

static void test_frames(void)
{
	static const uint8_t body[] = { 0x02, 0x03, 0x10, 'x', 0x22 };
	uint8_t pl[64], esc[160], back[64];
	struct wire_frame f;
	size_t n = wire_frame_build(pl, sizeof(pl), 1, 3, 300, body, sizeof(body));

	tap_ok(n == 2 + 2 + 1 + 5 + 4 && pl[0] == 1 && pl[1] == 3 && pl[2] == 0xac &&
	       pl[4] == 5, "frame: header is type, cpu, seq 300, length 5");
	tap_eq_int(wire_frame_parse(pl, n, &f), 0, "frame: parses");
	tap_ok(f.type == 1 && f.cpu == 3 && f.seq == 300 && f.body_len == 5 &&
	       !memcmp(f.body, body, 5), "frame: fields read back");
	pl[6] ^= 1;
	tap_eq_int(wire_frame_parse(pl, n, &f), WIRE_DMG_CRC, "frame: a flipped body byte fails the CRC");
	pl[6] ^= 1;
	tap_eq_int(wire_frame_parse(pl, n - 1, &f), WIRE_DMG_CRC, "frame: one byte cut off fails the CRC");
	tap_eq_int(wire_frame_parse(pl, 3, &f), WIRE_DMG_SHORT, "frame: 3 bytes is too short");
	tap_eq_int(wire_frame_build(pl, 10, 1, 0, 0, body, 5), 0, "frame: build refuses a short buffer");

	size_t e = wire_escape(esc, sizeof(esc), pl, n);
	int clean = esc[0] == WIRE_STX && esc[e - 1] == WIRE_ETX;

	size_t specials = 0;

	for (size_t i = 1; i + 1 < e; i++)
		clean &= esc[i] != WIRE_STX && esc[i] != WIRE_ETX;
	for (size_t i = 0; i < n; i++)
		specials += pl[i] == 2 || pl[i] == 3 || pl[i] == 0x10;
	/* cpu 3, seq 300's second byte 02, the body's 02 03 10; CRC 30 a0 a0 49. */
	tap_ok(clean && specials == 5 && e == n + 2 + specials,
	       "escape: delimiters only at the ends, each 02/03/10 escaped");
	tap_eq_int(wire_escape(esc, e - 1, pl, n), 0, "escape: refuses a buffer one byte short");

	struct wire_dec d;
	struct wire_ev ev;

	wire_dec_init(&d, back, sizeof(back));
	tap_eq_int((long long)wire_dec_feed(&d, esc, e, &ev), (long long)e,
		   "escape: the decoder takes the whole frame");
	if (ev.type != WIRE_EV_FRAME)
		tap_diag("event %d damage %d", ev.type, ev.damage);
	tap_ok(ev.type == WIRE_EV_FRAME && ev.payload_len == n && !memcmp(ev.payload, pl, n),
	       "escape: the decoder gives the payload back");
}

/* Masked frames (wire.md 1): the bytes records are made of go
 * unescaped, the reader unmasks by the type byte's bit 7, and an
 * unmasked frame still reads. */
static void test_masked(void)
{
	static uint8_t pl[64], esc[2 * sizeof(pl) + 2], back[sizeof(pl)];
	uint8_t body[24];
	struct wire_dec d;
	struct wire_ev ev;

	for (size_t i = 0; i < sizeof(body); i++)	/* kind-0 headers, deltas 2, 3, 16 */
		body[i] = (const uint8_t[]){ 0x02, 0x03, 0x10 }[i % 3];
	size_t n = wire_frame_build(pl, sizeof(pl), 1, 0, 7, body, sizeof(body));
	size_t specials = 0, masked_specials = 0;

	for (size_t i = 0; i < n; i++) {
		specials += wire_needs_escape(pl[i]);
		masked_specials += wire_needs_escape(pl[i] ^ 0xe0);
	}
	size_t e = wire_escape_masked(esc, sizeof(esc), pl, n);

	tap_ok(specials >= sizeof(body) && e == n + 2 + masked_specials && masked_specials < 4,
	       "masked: deltas 2, 3 and 16 need no escape (%zu escapes instead of %zu)",
	       masked_specials, specials);
	tap_ok(esc[1] == (pl[0] ^ 0xe0) && (esc[1] & 0x80), "masked: the type byte has bit 7 set");
	wire_dec_init(&d, back, sizeof(back));
	wire_dec_feed(&d, esc, e, &ev);
	tap_ok(ev.type == WIRE_EV_FRAME && ev.masked && ev.payload_len == n &&
	       !memcmp(ev.payload, pl, n) && d.masked == 1,
	       "masked: the decoder unmasks and gives the payload back");
	e = wire_escape(esc, sizeof(esc), pl, n);
	tap_eq_int((long long)e, (long long)(n + 2 + specials), "masked: unmasked, each 02/03/10 escaped");
	wire_dec_feed(&d, esc, e, &ev);
	tap_ok(ev.type == WIRE_EV_FRAME && !ev.masked && ev.payload_len == n &&
	       !memcmp(ev.payload, pl, n) && d.masked == 1,
	       "masked: an unmasked frame (a target before the mask) still reads");
	e = wire_escape_masked(esc, n + 2 + masked_specials - 1, pl, n);
	tap_eq_int((long long)e, 0, "masked: refuses a buffer one byte short");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_varint();
	test_zigzag();
	test_crc();
	test_header();
	test_records();
	test_records_v4();
	test_frames();
	test_masked();
	return tap_done();
}
