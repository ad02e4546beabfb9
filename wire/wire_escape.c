/*
 * wire/wire_escape.c: escaping a frame for the line (docs/wire.md 1):
 * STX, ETX and DLE inside a frame become DLE and the byte XOR 0x20. The
 * exporter escapes every byte it sends, so this is on the export path's
 * hot loop: plain bytes go a word at a time. The exporter's frames go
 * masked (wire.md 1: every byte XOR WIRE_LINE_MASK first, so the small
 * bytes records are made of, header bytes with deltas 2, 3 and 16 above
 * all, need no escape); wire_escape sends a payload as it is.
 */
#include <string.h>

#include "wire.h"

/*
 * Escaping, eight bytes at a time. A word with none of the three special
 * bytes (the usual case) is stored whole; in a word that has some, the
 * bytes before each special one go out as one (overlong) word store,
 * then DLE and the escaped byte. STX and ETX differ only in bit 0, so
 * one compare with bit 0 cleared finds both. Little-endian: byte k of a
 * loaded word is bits 8k..8k+7; elsewhere the byte loop does it all.
 */
#define BYTES_01	0x0101010101010101ULL
#define BYTES_7F	0x7f7f7f7f7f7f7f7fULL
_Static_assert((WIRE_STX ^ WIRE_ETX) == 1 && (WIRE_STX & 1) == 0,
	       "STX and ETX must differ in bit 0 only");

/* 0x80 in each zero byte of v, 0 in every other (no carry crosses
 * bytes: each byte's low seven bits get 0x7f added, which reaches bit 7
 * unless they were all zero; the top bit is or-ed in apart). */
static inline uint64_t zero_bytes(uint64_t v)
{
	return ~(((v & BYTES_7F) + BYTES_7F) | v | BYTES_7F);
}

/* 0x80 in each byte of w that is STX, ETX or DLE. */
static inline uint64_t special_bytes(uint64_t w)
{
	return zero_bytes((w & ~BYTES_01) ^ (BYTES_01 * WIRE_STX)) |
	       zero_bytes(w ^ (BYTES_01 * WIRE_DLE));
}

static inline uint8_t *escape_byte(uint8_t *o, uint8_t b)
{
	if (wire_needs_escape(b)) {
		*o++ = WIRE_DLE;
		b ^= WIRE_ESCAPE_XOR;
	}
	*o++ = b;
	return o;
}

/* One byte at a time, each XOR 'mask' first; writes exactly what it
 * returns. */
static size_t escape_plain(uint8_t *out, const uint8_t *p, size_t n, uint8_t mask)
{
	uint8_t *o = out;

	for (size_t i = 0; i < n; i++)
		o = escape_byte(o, p[i] ^ mask);
	return (size_t)(o - out);
}

/* wire_escape_bytes of every byte XOR 'mask' (0: the bytes as they are). */
static size_t escape_masked(uint8_t *out, const uint8_t *p, size_t n, uint8_t mask)
{
	uint8_t *o = out;
	size_t i = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Word stores write up to 8 bytes past what they keep; out holds
	 * 2 * n bytes. Before word i, o <= out + 2 * i; a store after j
	 * of its bytes (j <= 8) ends by out + 2 * (i + j) + 8 <= out +
	 * 2 * i + 24, within 2 * n while i + 16 <= n.
	 */
	for (; n - i >= 16; i += 8) {
		uint64_t w, m;

		__builtin_memcpy(&w, p + i, 8);
		w ^= BYTES_01 * mask;
		m = special_bytes(w);
		unsigned int left = 8;

		while (m) {
			unsigned int k = (unsigned int)__builtin_ctzll(m) / 8;

			__builtin_memcpy(o, &w, 8);	/* bytes 0..k-1 kept */
			o += k;
			w >>= 8 * k;
			o[0] = WIRE_DLE;
			o[1] = (uint8_t)w ^ WIRE_ESCAPE_XOR;
			o += 2;
			w >>= 8;
			m = (m >> (8 * k)) >> 8;
			left -= k + 1;
		}
		__builtin_memcpy(o, &w, 8);	/* the 'left' bytes after the last */
		o += left;
	}
#endif
	return (size_t)(o - out) + escape_plain(o, p + i, n - i, mask);
}

size_t wire_escape_bytes(uint8_t *out, const uint8_t *p, size_t n)
{
	return escape_masked(out, p, n, 0);
}

static size_t escape_frame(uint8_t *out, size_t cap, const uint8_t *payload, size_t len,
			   uint8_t mask)
{
	size_t k;

	if (cap >= WIRE_ESCAPED_MAX(len)) {
		/* Room for the worst case: no counting pass. */
		k = escape_masked(out + 1, payload, len, mask);
	} else {
		size_t need = 2;

		for (size_t i = 0; i < len; i++)
			need += 1 + (size_t)wire_needs_escape(payload[i] ^ mask);
		if (need > cap)
			return 0;
		k = escape_plain(out + 1, payload, len, mask);
	}
	out[0] = WIRE_STX;
	out[k + 1] = WIRE_ETX;
	return k + 2;
}

size_t wire_escape(uint8_t *out, size_t cap, const uint8_t *payload, size_t len)
{
	return escape_frame(out, cap, payload, len, 0);
}

size_t wire_escape_masked(uint8_t *out, size_t cap, const uint8_t *payload, size_t len)
{
	return escape_frame(out, cap, payload, len, WIRE_LINE_MASK);
}
