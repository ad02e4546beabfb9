/* sources: wire/wire.c wire/wire_escape.c wire/wire_line.c */
/*
 * test/host/test_wire_line.c: the exporter's one-pass frame (wire_line_*:
 * head, body in pieces, CRC, masked and escaped as it goes) against the
 * definition written out plainly here (docs/wire.md 1 and 2: type, cpu,
 * LEB128 seq and length, the body, the CRC-32 of all that bit by bit,
 * little-endian; every byte XOR 0xE0, then STX, each 02, 03 or 10 as
 * DLE and the byte XOR 20, ETX), on random bodies of every length up to
 * a ring block and more, at every alignment, cut in up to three pieces
 * anywhere; and what it refuses: a buffer short of the worst case, a
 * body over 65535 bytes, pieces that do not add up to the length begin
 * was told.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../wire/wire.h"
#include "../../wire/wire_line.h"
#include "../wire_line_ref.h"
#include "tap.h"

#define BODY_MAX	1100	/* a ring block (1024) and its head, and more */

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static uint8_t ref_pl[BODY_MAX + 32];

static uint32_t next_rand(void)
{
	return ref_rand(&rng);
}

/* Bytes that masked are special or next to one (0xe2, 0xe3, 0xf0 are
 * 02, 03, 10 on the line), and the small bytes records are made of. */
static const uint8_t near[] = { 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xef, 0xf0, 0xf1,
	0xf2, 0xf3, 0xc2, 0xc3, 0xd0, 0x60, 0x62, 0x63, 0x70, 0x02, 0x03, 0x10, 0x1f };

static void fill(uint8_t *p, size_t n, unsigned int mode)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = next_rand();

		if (mode == 0)
			p[i] = (uint8_t)r;
		else if (mode == 1)
			p[i] = near[r % sizeof(near)];
		else	/* mostly plain, a special byte now and then */
			p[i] = (r & 0x1f00) ? (uint8_t)(r & 0x3f) : near[r % sizeof(near)];
	}
}

static const uint64_t seqs[] = { 0, 1, 127, 128, 300, 16384, 1ULL << 40, ~0ULL };

static void test_line_random(void)
{
	static uint8_t buf[BODY_MAX + 8], want[WIRE_ESCAPED_MAX(BODY_MAX + 32)];
	unsigned int cases = 0, bad = 0, bad_room = 0;

	for (unsigned int round = 0; round < 6; round++)
		for (size_t n = 0; n <= BODY_MAX; n++) {
			size_t off = (n + round) % 8;
			uint8_t *p = buf + off;
			unsigned type = 1 + (n + round) % 10, cpu = (unsigned)(n % 7);
			uint64_t seq = seqs[(n + round) % 8];

			fill(p, n, (unsigned int)(n + round) % 3);
			size_t w = ref_line(want, ref_pl, type, cpu, seq, p, n);
			/* Exactly the room the worst case needs (ASan sees
			 * past it): head, body and CRC, all escaped. */
			size_t payload = 2 + wire_varint_len(seq) + wire_varint_len(n) + n + 4;
			uint8_t *room = malloc(WIRE_ESCAPED_MAX(payload));
			struct wire_line l;
			size_t cut1 = n ? next_rand() % (n + 1) : 0;
			size_t cut2 = cut1 + (n - cut1 ? next_rand() % (n - cut1 + 1) : 0);

			if (wire_line_begin(&l, room, WIRE_ESCAPED_MAX(payload), type, cpu, seq, n)) {
				bad++;
			} else {
				wire_line_add(&l, p, cut1);
				wire_line_add(&l, p + cut1, cut2 - cut1);
				wire_line_add(&l, p + cut2, n - cut2);
				size_t g = wire_line_end(&l);

				bad += g != w || memcmp(room, want, w);
			}
			/* One byte short of the worst case: refused, untouched. */
			memset(room, 0xaa, WIRE_ESCAPED_MAX(payload));
			if (!wire_line_begin(&l, room, WIRE_ESCAPED_MAX(payload) - 1, type, cpu, seq, n) ||
			    room[0] != 0xaa || wire_line_end(&l) != 0)
				bad_room++;
			free(room);
			cases++;
		}
	tap_diag("%u frames", cases);
	tap_eq_int(bad, 0, "line: same bytes as the definition, random bodies of every "
		   "length up to 1100 in three pieces, every alignment");
	tap_eq_int(bad_room, 0, "line: refuses a buffer one byte short of the worst case "
		   "and writes nothing");
}

/* Agrees with what the host's tests and gentrace build frames with. */
static void test_line_as_build_then_escape(void)
{
	static uint8_t body[1040], pl[1100], a[WIRE_ESCAPED_MAX(1100)], b[WIRE_ESCAPED_MAX(1100)];
	int bad = 0;

	for (size_t n = 0; n <= sizeof(body); n += 13) {
		struct wire_line l;

		fill(body, n, 2);
		size_t k = wire_frame_build(pl, sizeof(pl), 1, 3, n * 977, body, n);
		size_t e = wire_escape_masked(a, sizeof(a), pl, k);

		wire_line_begin(&l, b, sizeof(b), 1, 3, n * 977, n);
		wire_line_add(&l, body, n);
		bad += !k || wire_line_end(&l) != e || memcmp(a, b, e);
	}
	tap_eq_int(bad, 0, "line: the same bytes as wire_frame_build then wire_escape_masked");
}

/* Every byte escaped: the worst case, exactly the room it needs, so the
 * CRC too goes out a byte at a time; and lengths 0 to 40, where a
 * piece's last bytes go as a word or one by one. */
static void test_line_all_special(void)
{
	static const uint8_t specials[] = { 0xe2, 0xe3, 0xf0 };
	static uint8_t p[64], want[WIRE_ESCAPED_MAX(128)];
	int bad = 0;

	for (size_t n = 0; n <= 40; n++)
		for (unsigned s = 0; s < 3; s++) {
			memset(p, specials[s], n);
			size_t w = ref_line(want, ref_pl, 0xe2, 0xf0, 0xf0, p, n);
			size_t payload = 2 + 2 + 1 + n + 4;
			uint8_t *room = malloc(WIRE_ESCAPED_MAX(payload));
			struct wire_line l;

			wire_line_begin(&l, room, WIRE_ESCAPED_MAX(payload), 0xe2, 0xf0, 0xf0, n);
			wire_line_add(&l, p, n);
			bad += wire_line_end(&l) != w || memcmp(room, want, w);
			free(room);
		}
	tap_eq_int(bad, 0, "line: every byte escaped, in exactly the worst case's room");
}

/* A data block (wire.md 2.1): its head (base_ts, first) is the body's
 * start, sent with the frame's head. */
static void test_line_block(void)
{
	static uint8_t rec[1024 + 8], body[1100], want[WIRE_ESCAPED_MAX(1200)];
	static const uint64_t ts[] = { 0, 5, 127, 128, 1ULL << 35, ~0ULL };
	int bad = 0;

	for (size_t n = 0; n <= 1024; n += 11) {
		uint64_t base_ts = ts[n % 6], first = ts[(n / 11) % 6] >> 3;
		size_t k = ref_varint(body, base_ts);

		k += ref_varint(body + k, first);
		fill(rec, n, (unsigned int)n % 3);
		memcpy(body + k, rec, n);
		size_t w = ref_line(want, ref_pl, 1, 2, n * 31, body, k + n);
		size_t payload = 2 + wire_varint_len(n * 31) + wire_varint_len(k + n) + k + n + 4;
		uint8_t *room = malloc(WIRE_ESCAPED_MAX(payload));
		struct wire_line l;

		if (wire_line_begin_block(&l, room, WIRE_ESCAPED_MAX(payload), 2, n * 31,
					  base_ts, first, n)) {
			bad++;
		} else {
			wire_line_add(&l, rec, n);
			bad += wire_line_end(&l) != w || memcmp(room, want, w);
		}
		/* A byte short of the worst case: refused. */
		bad += !wire_line_begin_block(&l, room, WIRE_ESCAPED_MAX(payload) - 1, 2, n * 31,
					      base_ts, first, n);
		free(room);
	}
	tap_eq_int(bad, 0, "line: a data block's head goes with the frame's, same bytes as "
		   "the definition");
}

static void test_line_refuses(void)
{
	static uint8_t out[WIRE_ESCAPED_MAX(WIRE_MAX_PAYLOAD) + 64], body[16];
	struct wire_line l;

	/* The largest body that fits 65535 with its head and CRC. */
	size_t most = WIRE_MAX_PAYLOAD - (2 + 1 + 3) - 4;

	tap_eq_int(wire_line_begin(&l, out, sizeof(out), 1, 0, 0, most), 0,
		   "line: a payload of exactly 65535 bytes is taken");
	tap_eq_int(wire_line_begin(&l, out, sizeof(out), 1, 0, 0, most + 1), -1,
		   "line: a payload over 65535 bytes is refused");
	tap_eq_int(wire_line_end(&l), 0, "line: a refused frame ends with nothing");

	memset(body, 0x41, sizeof(body));
	wire_line_begin(&l, out, sizeof(out), 1, 0, 0, 10);
	wire_line_add(&l, body, 9);
	tap_eq_int(wire_line_end(&l), 0, "line: a body shorter than announced is void");
	wire_line_begin(&l, out, sizeof(out), 1, 0, 0, 10);
	wire_line_add(&l, body, 6);
	wire_line_add(&l, body, 6);
	wire_line_add(&l, body, 0);
	tap_eq_int(wire_line_end(&l), 0, "line: a body longer than announced is void");
}

int main(void)
{
	test_line_random();
	test_line_as_build_then_escape();
	test_line_all_special();
	test_line_block();
	test_line_refuses();
	return tap_done();
}
