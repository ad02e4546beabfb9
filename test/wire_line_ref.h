/*
 * test/wire_line_ref.h: the wire frame by its definition, written out
 * plainly for the tests of the exporter's one-pass builder (wire_line_*)
 * on the host (test/host/test_wire_line.c) and on the target
 * (test/target/test_wire_line.c), and of the escaper and the table CRC
 * (test/host/test_wire_escape.c): docs/wire.md 1 and 2, type, cpu, LEB128
 * seq and length, the body, the CRC-32 of all that bit by bit,
 * little-endian; every byte XOR 0xE0, then STX, each 02, 03 or 10 as DLE
 * and the byte XOR 20, ETX. It shares no code with wire/, on purpose.
 */
#ifndef TEST_WIRE_LINE_REF_H
#define TEST_WIRE_LINE_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* xorshift64: the tests' own random numbers, from the state they seed. */
static inline uint32_t ref_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

static inline size_t ref_varint(uint8_t *o, uint64_t v)
{
	size_t n = 0;

	do {
		o[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			o[n] |= 0x80;
		n++;
	} while (v);
	return n;
}

static inline uint32_t ref_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = (c >> 1) ^ ((c & 1) ? 0xEDB88320u : 0);
	}
	return ~c;
}

/* The frame on the line into out (room for WIRE_ESCAPED_MAX of n + 32),
 * built in pl (room for n + 32); returns its bytes. */
static inline size_t ref_line(uint8_t *out, uint8_t *pl, unsigned int type, unsigned int cpu,
			      uint64_t seq, const uint8_t *body, size_t n)
{
	size_t k = 0, e = 0;

	pl[k++] = (uint8_t)type;
	pl[k++] = (uint8_t)cpu;
	k += ref_varint(pl + k, seq);
	k += ref_varint(pl + k, n);
	memcpy(pl + k, body, n);
	k += n;
	uint32_t crc = ref_crc32(pl, k);

	for (int i = 0; i < 4; i++)
		pl[k++] = (uint8_t)(crc >> (8 * i));
	out[e++] = 0x02;
	for (size_t i = 0; i < k; i++) {
		uint8_t b = pl[i] ^ 0xe0;

		if (b == 0x02 || b == 0x03 || b == 0x10) {
			out[e++] = 0x10;
			b ^= 0x20;
		}
		out[e++] = b;
	}
	out[e++] = 0x03;
	return e;
}

#endif
