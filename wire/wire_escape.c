/*
 * wire/wire_escape.c: escaping a payload for the line (docs/wire.md 1),
 * as it is (wire_escape) or masked (wire_escape_masked: every byte XOR
 * WIRE_LINE_MASK first). The loop is wire_esc.h's, eight and sixteen
 * bytes a step; the exporter's own frames are built in one pass with
 * the CRC by wire_line.c.
 */
#include "wire.h"
#include "wire_esc.h"

/* One byte at a time, each XOR 'mask' first; writes exactly what it
 * returns. */
static size_t escape_plain(uint8_t *out, const uint8_t *p, size_t n, uint8_t mask)
{
	uint8_t *o = out;

	for (size_t i = 0; i < n; i++)
		o = escape_byte(o, p[i] ^ mask);
	return (size_t)(o - out);
}

/* wire_escape_bytes of every byte XOR 'mask' (0: the bytes as they are;
 * out holds 2 * n bytes). */
static size_t escape_masked(uint8_t *out, const uint8_t *p, size_t n, uint8_t mask)
{
	uint32_t none = 0;

	return (size_t)(escape_run(out, p, n, mask, &none, CRC_NONE, 0) - out);
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

