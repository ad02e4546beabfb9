/*
 * wire/wire_esc.h: the escaping loop wire_escape.c and wire_line.c share
 * (docs/wire.md 1: STX, ETX and DLE inside a frame become DLE and the
 * byte XOR 0x20), with the CRC of the bytes it escapes computed in the
 * same pass when the caller wants it. Internal to wire/: static inline,
 * so each caller's loop is compiled for its own constants. Freestanding.
 */
#ifndef WIRE_ESC_H
#define WIRE_ESC_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"
#include "wire_crc.h"

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
#define BYTES_80	0x8080808080808080ULL
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

/*
 * Nonzero if some byte of w may be STX, ETX or DLE: the plain word's
 * test, cheaper than special_bytes. It finds the bytes with no bit set
 * outside 0x13 (00-03 and 10-13: the three special ones and five more,
 * which special_bytes then tells apart) with one zero-byte test:
 * (t - 01..) & ~t & 80.. is nonzero exactly when t has a zero byte (its
 * lowest zero byte is always marked; a borrow from it may mark bytes
 * above it too). Masked records rarely hold the five (payload bytes
 * e0, e1, f1-f3), so a word takes the exact path about as often as it
 * has a byte to escape.
 */
#define NOT_SPECIAL_BITS	(BYTES_01 * (uint8_t)~(WIRE_STX | WIRE_ETX | WIRE_DLE))
_Static_assert((WIRE_STX | WIRE_ETX | WIRE_DLE) == 0x13, "the bits the specials use");

static inline uint64_t maybe_special(uint64_t w)
{
	uint64_t t = w & NOT_SPECIAL_BITS;

	return (t - BYTES_01) & ~t & BYTES_80;
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

/*
 * The first 'left' bytes of w (1..8), those of them that m marks
 * (special_bytes) escaped: the bytes before each special one go out as
 * one (overlong) word store, then DLE and the escaped byte. Every store
 * is a word at o or within the 2 * left bytes it may keep, so it writes
 * at most 8 bytes past them.
 */
static inline uint8_t *escape_word(uint8_t *o, uint64_t w, uint64_t m, unsigned int left)
{
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
	return o + left;
}

/* How escape_run computes the CRC of what it escapes. */
enum { CRC_NONE, CRC_TABLE, CRC_INSN };

static inline __attribute__((always_inline)) uint32_t crc_word(uint32_t crc, uint64_t w,
							      int how)
{
#ifdef WIRE_CRC_INSN
	if (how == CRC_INSN)
		return wire_crc_word_insn(crc, w);
#endif
	return how == CRC_TABLE ? wire_crc_word_table(crc, w) : crc;
}

static inline __attribute__((always_inline)) uint32_t crc_byte(uint32_t crc, uint8_t b,
							      int how)
{
#ifdef WIRE_CRC_INSN
	if (how == CRC_INSN)
		return wire_crc_byte_insn(crc, b);
#endif
	return how == CRC_TABLE ? wire_crc_byte_table(crc, b) : crc;
}

/* The low k bytes of w (0..7), first byte lowest. */
static inline __attribute__((always_inline)) uint32_t crc_part(uint32_t crc, uint64_t w,
							      unsigned int k, int how)
{
#ifdef WIRE_CRC_INSN
	if (how == CRC_INSN) {
		if (k & 4) {
			crc = wire_crc_u32_insn(crc, (uint32_t)w);
			w >>= 32;
		}
		if (k & 2) {
			crc = wire_crc_u16_insn(crc, (uint16_t)w);
			w >>= 16;
		}
		return k & 1 ? wire_crc_byte_insn(crc, (uint8_t)w) : crc;
	}
#endif
	for (; k; k--, w >>= 8)
		crc = crc_byte(crc, (uint8_t)w, how);
	return crc;
}

/* A loaded word (masked), escaped whole: a store if no byte is special. */
static inline __attribute__((always_inline)) uint8_t *put_word(uint8_t *o, uint64_t w)
{
	uint64_t m;

	if (__builtin_expect(maybe_special(w) != 0, 0) && (m = special_bytes(w)) != 0)
		return escape_word(o, w, m, 8);
	__builtin_memcpy(o, &w, 8);
	return o + 8;
}

/* The low k bytes (1..7) of a loaded word (masked), escaped. */
static inline uint8_t *put_part(uint8_t *o, uint64_t w, unsigned int k)
{
	return escape_word(o, w, special_bytes(w) & ((1ULL << (8 * k)) - 1), k);
}

/*
 * The one loop of both escapers: n bytes of p, each XOR 'mask', escaped
 * into o (returned: the end of what it keeps); the CRC of the bytes as
 * they are (before the mask) runs through *crc_io as 'how' says.
 * Inlined with 'how' and 'slack' constant, so each caller gets its own
 * loop. Little-endian: byte k of a loaded word is bits 8k..8k+7;
 * elsewhere the byte loop does it all.
 *
 * Sixteen bytes a step (one test for both words, the usual outcome
 * being none to escape), then eight, then the bytes left. Stores run
 * ahead: a step that starts with o at most twice the bytes taken past
 * out (always so) stores nothing beyond 8 bytes past twice the bytes
 * taken after it (escape_word). 'slack' is how far past 2 * n bytes
 * from o the caller lets stores go: 0 (wire_escape_bytes: out holds
 * 2 * n bytes) makes a step wait for 4 more bytes than it takes; 8 lets
 * each step run to the end and the last 1-7 bytes of a piece of 8 or
 * more go as one word too, the word that ends with them, loaded within
 * the piece and shifted down.
 */
static inline __attribute__((always_inline)) uint8_t *
escape_run(uint8_t *o, const uint8_t *p, size_t n, uint8_t mask, uint32_t *crc_io, int how,
	   unsigned int slack)
{
	const uint8_t *end = p + n;
	uint32_t crc = *crc_io;
	const uint64_t mw = BYTES_01 * mask;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const size_t step16 = 20 - slack / 2, step8 = 12 - slack / 2;

	if (n >= step16) {
		const uint8_t *last = end - step16;	/* the last step's start */

		do {
			uint64_t w0, w1;

			__builtin_memcpy(&w0, p, 8);
			__builtin_memcpy(&w1, p + 8, 8);
			p += 16;
			crc = crc_word(crc_word(crc, w0, how), w1, how);
			w0 ^= mw;
			w1 ^= mw;
			if (__builtin_expect((maybe_special(w0) | maybe_special(w1)) != 0, 0)) {
				o = put_word(o, w0);
				o = put_word(o, w1);
			} else {
				__builtin_memcpy(o, &w0, 8);
				__builtin_memcpy(o + 8, &w1, 8);
				o += 16;
			}
		} while (p <= last);
	}
	while ((size_t)(end - p) >= step8) {
		uint64_t w;

		__builtin_memcpy(&w, p, 8);
		p += 8;
		crc = crc_word(crc, w, how);
		o = put_word(o, w ^ mw);
	}
	unsigned int k = (unsigned int)(end - p);

	if (slack >= 8 && k && n >= 8) {
		uint64_t w;

		__builtin_memcpy(&w, end - 8, 8);
		w >>= 8 * (8 - k);
		crc = crc_part(crc, w, k, how);
		*crc_io = crc;
		return put_part(o, w ^ mw, k);
	}
#endif
	for (; p < end; p++) {
		crc = crc_byte(crc, *p, how);
		o = escape_byte(o, *p ^ mask);
	}
	*crc_io = crc;
	return o;
}

#endif /* WIRE_ESC_H */
