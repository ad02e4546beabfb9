/* sources: wire/wire.c wire/wire_escape.c */
/*
 * test/host/test_wire_escape.c: the fast escaper (eight bytes a step) and
 * the byte-table CRC in wire/wire.c against their definitions written
 * out plainly here (docs/wire.md: STX, each payload byte, a byte 02, 03
 * or 10 as DLE and the byte xor 20, ETX; CRC-32 bit by bit, reflected
 * polynomial 0xEDB88320), on random payloads of every length up to 300
 * at every alignment, drawn from bytes near the special ones so that
 * words with one, several or no special byte all occur.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../wire/wire.h"
#include "../wire_line_ref.h"
#include "tap.h"

#define LEN_MAX 300

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* The definition, one byte at a time; returns bytes or 0 if cap is short. */
static size_t ref_escape(uint8_t *out, size_t cap, const uint8_t *p, size_t n)
{
	size_t k = 0;

	if (cap < 1)
		return 0;
	out[k++] = 0x02;
	for (size_t i = 0; i < n; i++) {
		int special = p[i] == 0x02 || p[i] == 0x03 || p[i] == 0x10;

		if (k + 1 + special + 1 > cap)
			return 0;
		if (special) {
			out[k++] = 0x10;
			out[k++] = p[i] ^ 0x20;
		} else {
			out[k++] = p[i];
		}
	}
	if (k + 1 > cap)
		return 0;
	out[k++] = 0x03;
	return k;
}

/* Bytes next to the special ones (borrows, the top bit, bit 0). */
static const uint8_t near[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x0f, 0x10, 0x11,
	0x12, 0x13, 0x22, 0x23, 0x30, 0x80, 0x82, 0x83, 0x90, 0xfe, 0xff };

static void fill(uint8_t *p, size_t n, unsigned int mode)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = next_rand();

		if (mode == 0)
			p[i] = (uint8_t)r;	/* uniform: few special bytes */
		else if (mode == 1)
			p[i] = near[r % sizeof(near)];
		else	/* mostly plain, a special byte now and then */
			p[i] = (r & 0x1f00) ? (uint8_t)(0x40 + (r & 0x3f)) :
					      near[r % sizeof(near)];
	}
}

static void test_escape_random(void)
{
	static uint8_t buf[LEN_MAX + 8], got[WIRE_ESCAPED_MAX(LEN_MAX) + 8],
		want[WIRE_ESCAPED_MAX(LEN_MAX) + 8];
	unsigned int cases = 0, bad = 0, bad_short = 0, bad_bytes = 0;

	for (unsigned int round = 0; round < 40; round++)
		for (size_t n = 0; n <= LEN_MAX; n++) {
			size_t off = (n + round) % 8;
			uint8_t *p = buf + off;

			fill(p, n, round % 3);
			size_t w = ref_escape(want, sizeof(want), p, n);
			/* Roomy (no counting pass), exact, one short. */
			size_t g = wire_escape(got, WIRE_ESCAPED_MAX(n), p, n);

			if (g != w || memcmp(got, want, w))
				bad++;
			memset(got, 0xaa, sizeof(got));
			g = wire_escape(got, w, p, n);
			if (g != w || memcmp(got, want, w) || got[w] != 0xaa)
				bad++;
			if (wire_escape(got, w - 1, p, n) != 0)
				bad_short++;
			/* Exactly the room each promises (ASan sees past it). */
			uint8_t *room = malloc(WIRE_ESCAPED_MAX(n));

			g = wire_escape(room, WIRE_ESCAPED_MAX(n), p, n);
			if (g != w || memcmp(room, want, w))
				bad++;
			free(room);
			room = malloc(2 * n + 1);
			g = wire_escape_bytes(room, p, n);
			if (g != w - 2 || memcmp(room, want + 1, g))
				bad_bytes++;
			free(room);
			cases++;
		}
	tap_diag("%u payloads", cases);
	tap_eq_int(bad, 0, "escape: same bytes as the definition, random payloads, "
		   "every length and alignment");
	tap_eq_int(bad_short, 0, "escape: refuses a buffer one byte short");
	tap_eq_int(bad_bytes, 0, "escape_bytes: same bytes as the definition");
}

static void test_escape_each_position(void)
{
	/* A lone special byte at every position of a word, among bytes
	 * one off from it, or with the top bit set. */
	static const uint8_t specials[] = { 0x02, 0x03, 0x10 };
	static const uint8_t fillers[][2] = { { 0x01, 0x82 }, { 0x04, 0x83 }, { 0x11, 0x90 } };
	uint8_t p[16], got[WIRE_ESCAPED_MAX(16)], want[WIRE_ESCAPED_MAX(16)];
	int bad = 0;

	for (size_t s = 0; s < 6; s++)
		for (size_t at = 0; at < 16; at++) {
			for (size_t i = 0; i < 16; i++)
				p[i] = fillers[s % 3][s / 3];
			p[at] = specials[s % 3];
			size_t w = ref_escape(want, sizeof(want), p, 16);
			size_t g = wire_escape(got, sizeof(got), p, 16);

			bad += g != w || g != 16 + 3 || memcmp(got, want, w);
		}
	tap_eq_int(bad, 0, "escape: one special byte at each of 16 positions is found");
}

/* Every byte special: the worst case, where the output is exactly
 * twice the input and a word's stores come nearest the room's end. */
static void test_escape_all_special(void)
{
	static const uint8_t specials[] = { 0x02, 0x03, 0x10 };
	uint8_t p[48], want[WIRE_ESCAPED_MAX(48)];
	int bad = 0;

	for (size_t n = 0; n <= sizeof(p); n++)
		for (unsigned s = 0; s < 3; s++) {
			memset(p, specials[s], n);
			size_t w = ref_escape(want, sizeof(want), p, n);
			uint8_t *room = malloc(WIRE_ESCAPED_MAX(n));

			bad += wire_escape(room, WIRE_ESCAPED_MAX(n), p, n) != w ||
			       memcmp(room, want, w);
			free(room);
			room = malloc(2 * n + 1);
			bad += wire_escape_bytes(room, p, n) != w - 2 || memcmp(room, want + 1, w - 2);
			free(room);
		}
	tap_eq_int(bad, 0, "escape: every byte special, in exactly the room promised");
}

static void test_crc_random(void)
{
	static uint8_t buf[LEN_MAX];
	int bad = 0;

	for (size_t n = 0; n <= LEN_MAX; n++) {
		fill(buf, n, n % 3);
		bad += wire_crc32(0, buf, n) != ref_crc32(buf, n);
		size_t h = n / 3;

		bad += wire_crc32(wire_crc32(0, buf, h), buf + h, n - h) != ref_crc32(buf, n);
	}
	tap_eq_int(bad, 0, "crc32: byte table agrees with the bitwise definition, "
		   "whole and in two parts");
}

int main(void)
{
	test_escape_random();
	test_escape_each_position();
	test_escape_all_special();
	test_crc_random();
	return tap_done();
}
