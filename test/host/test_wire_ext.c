/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c */
/*
 * test/host/test_wire_ext.c: the parts of the shared codec added for
 * docs/wire.md 2.5 and 2.6: extension records (arguments, stack traces,
 * fired triggers, how the run ended, probe hits) and profile-dump bodies, with bytes laid out by hand
 * from the spec, cut at every length, and padded with fields a later
 * version might append.
 */
#include <stdint.h>
#include <string.h>

#include "../../wire/wire.h"
#include "tap.h"

/* A kind-7 record over the given bytes, as the record decoder makes it. */
static struct wire_record ext(uint8_t subtype, const uint8_t *b, size_t n)
{
	return (struct wire_record){ .kind = WIRE_REC_EXT, .subtype = subtype, .data = b,
				     .data_len = n };
}

static void test_args(void)
{
	/* site 300 (ac 02), 3 args: 1, -2, 0x40081234 (zigzag 0x80102468). */
	static const uint8_t b[] = { 0xac, 0x02, 3, 0x02, 0x03, 0xe8, 0xc8, 0xc0, 0x80, 0x08 };
	struct wire_record r = ext(WIRE_EXT_ARGS, b, sizeof(b));
	struct wire_ext x;
	uint64_t v[3];
	int cut_ok = 1;

	tap_ok(wire_ext_parse(&r, &x) == 1 && x.subtype == WIRE_EXT_ARGS && x.site == 300 &&
	       x.count == 3, "args: site and count");
	tap_ok(!wire_ext_value(&x, &v[0]) && !wire_ext_value(&x, &v[1]) &&
	       !wire_ext_value(&x, &v[2]) && wire_unzigzag(v[0]) == 1 &&
	       wire_unzigzag(v[1]) == -2 && wire_unzigzag(v[2]) == 0x40081234,
	       "args: three zigzag values");
	tap_ok(wire_ext_value(&x, &v[0]) == -1, "args: nothing after the last value");
	for (size_t n = 0; n < sizeof(b); n++) {
		r = ext(WIRE_EXT_ARGS, b, n);
		cut_ok &= wire_ext_parse(&r, &x) == -1;
	}
	tap_ok(cut_ok, "args: cut at any byte is malformed, not read past");
}

static void test_stack_and_trigger(void)
{
	/* 2 frames: 0x150/4 = 0x54, 0x1f0/4 = 0x7c; then a byte a later
	 * version appended. */
	static const uint8_t st[] = { 2, 0x54, 0x7c, 0x99 };
	static const uint8_t tr[] = { 0x05, WIRE_TRIG_TRACEOFF, 0x00 };
	static const uint8_t no_action[] = { 0x05 };
	struct wire_record r = ext(WIRE_EXT_STACK, st, sizeof(st));
	struct wire_ext x;
	uint64_t a, b;

	tap_ok(wire_ext_parse(&r, &x) == 1 && x.count == 2 && !wire_ext_value(&x, &a) &&
	       !wire_ext_value(&x, &b) && a == 0x54 && b == 0x7c,
	       "stack: frames innermost first, an appended byte ignored");
	r = ext(WIRE_EXT_STACK, st, 2);
	tap_eq_int(wire_ext_parse(&r, &x), -1, "stack: fewer frames than counted is malformed");
	r = ext(WIRE_EXT_STACK, st, 0);
	tap_eq_int(wire_ext_parse(&r, &x), -1, "stack: an empty record is malformed");
	r = ext(WIRE_EXT_TRIGGER, tr, sizeof(tr));
	tap_ok(wire_ext_parse(&r, &x) == 1 && x.site == 5 && x.action == WIRE_TRIG_TRACEOFF &&
	       x.count == 0, "trigger: site and action");
	r = ext(WIRE_EXT_TRIGGER, no_action, sizeof(no_action));
	tap_eq_int(wire_ext_parse(&r, &x), -1, "trigger: no action byte is malformed");
	r = ext(9, tr, sizeof(tr));
	tap_eq_int(wire_ext_parse(&r, &x), 0, "an unknown subtype is 0: skip it");
	r = ext(0, NULL, 0);
	tap_eq_int(wire_ext_parse(&r, &x), 0, "subtype 0 is unknown too");
}

/* How the run ended (2.6, subtype 4): outcome u8, status zigzag varint. */
static void test_outcome(void)
{
	static const uint8_t crash[] = { 1, 0x00 };		/* crash, status 0 */
	static const uint8_t exit3[] = { 0, 0x06, 0x77 };	/* exit 3, a later byte */
	static const uint8_t neg[] = { 0, 0x03 };		/* exit -2 */
	struct wire_record r = ext(WIRE_EXT_OUTCOME, crash, sizeof(crash));
	struct wire_ext x;

	tap_ok(wire_ext_parse(&r, &x) == 1 && x.subtype == WIRE_EXT_OUTCOME && x.outcome == 1 &&
	       x.status == 0 && x.count == 0, "outcome: a crash");
	r = ext(WIRE_EXT_OUTCOME, exit3, sizeof(exit3));
	tap_ok(wire_ext_parse(&r, &x) == 1 && x.outcome == 0 && x.status == 3,
	       "outcome: an exit with main()'s status 3, an appended byte ignored");
	r = ext(WIRE_EXT_OUTCOME, neg, sizeof(neg));
	tap_ok(wire_ext_parse(&r, &x) == 1 && x.status == -2, "outcome: a negative status");
	r = ext(WIRE_EXT_OUTCOME, crash, 1);
	tap_eq_int(wire_ext_parse(&r, &x), -1, "outcome: no status is malformed");
	r = ext(WIRE_EXT_OUTCOME, crash, 0);
	tap_eq_int(wire_ext_parse(&r, &x), -1, "outcome: an empty record is malformed");
}

/* An extension record inside a block decodes and then parses. */
static void test_in_block(void)
{
	uint8_t blk[64], inner[16];
	struct wire_out o, in;
	struct wire_rec_iter it;
	struct wire_record r = { .kind = WIRE_REC_EXT, .delta = 40, .subtype = WIRE_EXT_TRIGGER };
	struct wire_ext x;

	wire_out_init(&in, inner, sizeof(inner));
	wire_out_varint(&in, 7);
	wire_out_u8(&in, WIRE_TRIG_STACKTRACE);
	r.data = inner;
	r.data_len = in.len;
	wire_out_init(&o, blk, sizeof(blk));
	wire_out_varint(&o, 1000);
	wire_out_varint(&o, 0);		/* first event number */
	tap_ok(wire_rec_encode(&o, &r) == 0, "block: a trigger record encodes");
	tap_ok(wire_rec_begin(&it, blk, o.len, NULL, NULL) == 0 &&
	       wire_rec_next(&it, &r) == WIRE_REC_OK && r.ts == 1040 &&
	       wire_ext_parse(&r, &x) == 1 && x.site == 7 && x.action == WIRE_TRIG_STACKTRACE &&
	       wire_rec_next(&it, &r) == WIRE_REC_DONE, "block: decodes with its time, then parses");
}

static void test_profile(void)
{
	/* 2 entries: site 1: 3 calls, 300 ticks, min 50, max 200;
	 * site 200 (c8 01): 1 call of 70000 ticks (f0 a2 04). */
	static const uint8_t b[] = { 2, 1, 3, 0xac, 0x02, 50, 0xc8, 0x01,
				     0xc8, 0x01, 1, 0xf0, 0xa2, 0x04, 0xf0, 0xa2, 0x04, 0xf0, 0xa2, 0x04,
				     0x77 };
	struct wire_profile_iter it;
	struct wire_profile_entry e[2];
	int cut_ok = 1;

	tap_ok(wire_profile_begin(&it, b, sizeof(b)) == 0 && it.left == 2, "profile: count");
	tap_ok(wire_profile_next(&it, &e[0]) == WIRE_REC_OK &&
	       wire_profile_next(&it, &e[1]) == WIRE_REC_OK &&
	       wire_profile_next(&it, &e[0]) == WIRE_REC_DONE, "profile: two entries, then done");
	tap_ok(e[1].site == 200 && e[1].calls == 1 && e[1].total == 70000 && e[1].min == 70000 &&
	       e[1].max == 70000, "profile: the second entry's fields");
	wire_profile_begin(&it, b, sizeof(b));
	wire_profile_next(&it, &e[0]);
	tap_ok(e[0].site == 1 && e[0].calls == 3 && e[0].total == 300 && e[0].min == 50 &&
	       e[0].max == 200, "profile: the first entry's fields");
	tap_eq_int(wire_profile_begin(&it, b, 0), WIRE_REC_EBAD, "profile: an empty body is malformed");
	for (size_t n = 1; n < sizeof(b) - 1; n++) {
		int rc;

		wire_profile_begin(&it, b, n);
		while ((rc = wire_profile_next(&it, &e[0])) == WIRE_REC_OK)
			;
		cut_ok &= rc == WIRE_REC_EBAD;
	}
	tap_ok(cut_ok, "profile: a body cut inside an entry is malformed at that entry");
	static const uint8_t none[] = { 0 };

	tap_ok(wire_profile_begin(&it, none, 1) == 0 &&
	       wire_profile_next(&it, &e[0]) == WIRE_REC_DONE, "profile: zero entries");
}

static void test_string(void)
{
	/* site 300, register 2, cut, 3 bytes "abc", then a byte a later
	 * version appended. */
	static const uint8_t b[] = { 0xac, 0x02, 2, WIRE_STR_CUT, 3, 'a', 'b', 'c', 0x99 };
	struct wire_record r = ext(WIRE_EXT_STRING, b, sizeof(b));
	struct wire_ext x;
	int cut_ok = 1;

	tap_ok(wire_ext_parse(&r, &x) == 1 && x.subtype == WIRE_EXT_STRING && x.site == 300 &&
	       x.reg == 2 && x.str_flags == WIRE_STR_CUT && x.count == 3 &&
	       x.end - x.values == 3 && !memcmp(x.values, "abc", 3),
	       "string: site, register, flags, its bytes; an appended byte ignored");
	for (size_t n = 0; n < 8; n++) {
		r = ext(WIRE_EXT_STRING, b, n);
		cut_ok &= wire_ext_parse(&r, &x) == -1;
	}
	tap_ok(cut_ok, "string: cut at any byte is malformed, not read past");
}

static void test_probe(void)
{
	/* probe 300 (ac 02), 2 values, the second's read faulted (bit 1):
	 * 40 (zigzag 0x50) and 0; then a byte a later version appended. */
	static const uint8_t b[] = { 0xac, 0x02, 2, 0x02, 0x50, 0x00, 0x77 };
	struct wire_record r = ext(WIRE_EXT_PROBE, b, sizeof(b));
	struct wire_ext x;
	uint64_t v0, v1;
	int cut_ok = 1;

	tap_ok(wire_ext_parse(&r, &x) == 1 && x.subtype == WIRE_EXT_PROBE && x.probe == 300 &&
	       x.count == 2 && x.faulted == 0x02, "probe: number, count and faulted mask");
	tap_ok(!wire_ext_value(&x, &v0) && !wire_ext_value(&x, &v1) &&
	       wire_unzigzag(v0) == 40 && v1 == 0, "probe: two zigzag values, an appended byte ignored");
	for (size_t n = 0; n < 6; n++) {
		r = ext(WIRE_EXT_PROBE, b, n);
		cut_ok &= wire_ext_parse(&r, &x) == -1;
	}
	tap_ok(cut_ok, "probe: cut before its last value is malformed");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_args();
	test_string();
	test_stack_and_trigger();
	test_outcome();
	test_probe();
	test_in_block();
	test_profile();
	return tap_done();
}
