/*
 * wire/wire_frames.c: reading frame bodies other than data blocks
 * (profile dumps, the end-of-stream totals, the previous boot's header)
 * and the frame header itself, bounds-checked on untrusted bytes; shared
 * by the kernel and the host tool. Data-block records are wire_read.c.
 * Freestanding.
 */
#include "wire.h"
#include "wire_rd.h"

int wire_profile_begin(struct wire_profile_iter *it, const uint8_t *body, size_t len)
{
	struct rd d = { body, body + len, 0 };

	it->left = rd_varint(&d);
	it->p = d.p;
	it->end = d.end;
	if (d.bad) {
		it->left = 0;
		return WIRE_REC_EBAD;
	}
	return 0;
}

int wire_profile_next(struct wire_profile_iter *it, struct wire_profile_entry *e)
{
	struct rd d = { it->p, it->end, 0 };
	struct wire_profile_entry z;

	if (!it->left)
		return WIRE_REC_DONE;
	z.site = rd_varint(&d);
	z.calls = rd_varint(&d);
	z.total = rd_varint(&d);
	z.min = rd_varint(&d);
	z.max = rd_varint(&d);
	if (d.bad) {
		it->left = 0;
		it->p = it->end;
		return WIRE_REC_EBAD;
	}
	it->left--;
	it->p = d.p;
	*e = z;
	return WIRE_REC_OK;
}

/* ---- frames ---------------------------------------------------------- */

int wire_end_decode(const uint8_t *body, size_t len, struct wire_end_cpu *c,
		    unsigned max, struct wire_end_run *run)
{
	struct rd r = { body, body + len, 0 };
	uint64_t n;

	if (run)
		run->known = 0;
	if (!len)
		return 0;
	n = rd_varint(&r);
	if (r.bad || n > 255)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		struct wire_end_cpu e;

		e.cpu = rd_varint(&r);
		e.produced = rd_varint(&r);
		e.overwritten = rd_varint(&r);
		e.dropped = rd_varint(&r);
		e.discarded = rd_varint(&r);
		e.blocks = rd_varint(&r);
		if (r.bad)
			return -1;
		if (i < max)
			c[i] = e;
	}
	/* The outcome (version 2, later writers): an outcome byte and a
	 * zigzag status; a body that ends after the entries has none. */
	if (run && r.p < r.end) {
		unsigned o = *r.p++;
		uint64_t st = rd_varint(&r);

		if (!r.bad) {
			run->known = 1;
			run->outcome = o;
			run->status = wire_unzigzag(st);
		}
	}
	return (int)n;
}

int wire_prev_decode(const uint8_t *body, size_t len, uint64_t *boot,
		     struct wire_prev_cpu *c, unsigned max)
{
	struct rd r = { body, body + len, 0 };
	uint64_t n;

	*boot = rd_varint(&r);
	n = rd_varint(&r);
	if (r.bad || n > 255)
		return -1;
	for (uint64_t i = 0; i < n; i++) {
		struct wire_prev_cpu e;

		e.cpu = rd_varint(&r);
		e.produced = rd_varint(&r);
		e.sent = rd_varint(&r);
		e.overwritten = rd_varint(&r);
		e.dropped = rd_varint(&r);
		e.discarded = rd_varint(&r);
		e.kept = rd_varint(&r);
		e.torn = rd_varint(&r);
		if (r.bad || e.cpu > 255)
			return -1;
		if (i < max)
			c[i] = e;
	}
	return (int)n;
}

int wire_frame_parse(const uint8_t *payload, size_t len, struct wire_frame *f)
{
	struct rd r;
	const uint8_t *c;
	uint64_t body_len;

	if (len < 2 + 1 + 1 + WIRE_CRC_SIZE)
		return WIRE_DMG_SHORT;
	if (len > WIRE_MAX_PAYLOAD)
		return WIRE_DMG_OVERSIZE;
	c = payload + len - WIRE_CRC_SIZE;
	r = (struct rd){ payload + 2, c, 0 };
	if (wire_crc32(0, payload, len - WIRE_CRC_SIZE) !=
	    ((uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
	     (uint32_t)c[3] << 24))
		return WIRE_DMG_CRC;
	f->type = payload[0];
	f->cpu = payload[1];
	f->seq = rd_varint(&r);
	body_len = rd_varint(&r);
	if (r.bad || body_len != (uint64_t)(r.end - r.p))
		return WIRE_DMG_LENGTH;
	f->body = r.p;
	f->body_len = (size_t)body_len;
	return WIRE_DMG_NONE;
}
