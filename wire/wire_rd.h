/*
 * wire/wire_rd.h: a bounds-checked cursor over untrusted bytes, for the
 * readers in wire_read.c (records) and wire_frames.c (whole frames).
 * Internal to wire/. Freestanding.
 */
#ifndef WIRE_RD_H
#define WIRE_RD_H

#include "wire.h"

/* A cursor over untrusted bytes: any read past the end sets 'bad'. */
struct rd {
	const uint8_t *p, *end;
	int bad;
};

static inline uint64_t rd_varint(struct rd *r)
{
	uint64_t v = 0;
	int n = r->bad ? -1 : wire_varint_get(r->p, (size_t)(r->end - r->p), &v);

	if (n < 0) {
		r->bad = 1;
		return 0;
	}
	r->p += n;
	return v;
}

static inline uint8_t rd_u8(struct rd *r)
{
	if (r->bad || r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	return *r->p++;
}

/* Two bytes, little-endian. */
static inline uint16_t rd_u16le(struct rd *r)
{
	uint16_t lo = rd_u8(r);

	return (uint16_t)(lo | rd_u8(r) << 8);
}

static inline void rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || n > (uint64_t)(r->end - r->p))
		r->bad = 1;
	else
		r->p += n;
}

#endif
