/*
 * wire/wire_line.c: the exporter's frames in one pass (wire_line_* in
 * wire.h): head, body and CRC masked (docs/wire.md 1: every payload byte
 * XOR WIRE_LINE_MASK, so the small bytes records are made of, header
 * bytes with deltas 2, 3 and 16 above all, need no escape) and escaped
 * as the CRC is computed, straight from where the body lies (a ring
 * block), with no payload in between: the same bytes as
 * wire_frame_build then wire_escape_masked. On the export path's hot
 * loop.
 */
#include "wire.h"
#include "wire_esc.h"
#include "wire_line.h"

/*
 * Every piece (the head, each part of the body) is escaped with stores
 * that run up to 8 bytes past the piece's worst case (twice its bytes;
 * wire_esc.h's 'slack'): every piece is followed in out by the CRC,
 * whose worst case is 8 bytes, then ETX, and begin made sure out holds
 * the worst case of the whole frame.
 */
static void line_add(struct wire_line *l, const uint8_t *p, size_t n)
{
#ifdef WIRE_CRC_INSN
	if (wire_crc_insn_present()) {
		l->o = escape_run(l->o, p, n, WIRE_LINE_MASK, &l->crc, CRC_INSN, 8);
		return;
	}
#endif
	l->o = escape_run(l->o, p, n, WIRE_LINE_MASK, &l->crc, CRC_TABLE, 8);
}

/* STX and the head (hn bytes, the body's first 'lead' of them), if out
 * holds the frame's worst case. */
static int line_begin(struct wire_line *l, uint8_t *out, size_t cap, const uint8_t *head,
		      unsigned hn, unsigned lead, uint64_t body_len)
{
	l->out = out;
	l->lim = out + cap;
	l->o = 0;
	if (body_len > WIRE_MAX_PAYLOAD - (hn - lead) - WIRE_CRC_SIZE ||
	    cap < WIRE_ESCAPED_MAX(hn - lead + body_len + WIRE_CRC_SIZE))
		return -1;
	l->left = body_len - lead;
	l->crc = ~0u;
	out[0] = WIRE_STX;
	l->o = out + 1;
	line_add(l, head, hn);
	return 0;
}

int wire_line_begin(struct wire_line *l, uint8_t *out, size_t cap, unsigned type,
		    unsigned cpu, uint64_t seq, uint64_t body_len)
{
	uint8_t head[WIRE_FRAME_HEAD_MAX];

	return line_begin(l, out, cap, head, wire_frame_head(head, type, cpu, seq, body_len),
			  0, body_len);
}

/* The frame head and the block's head go as one piece: the fewer the
 * pieces, the fewer bytes go one at a time. */
int wire_line_begin_block(struct wire_line *l, uint8_t *out, size_t cap, unsigned cpu,
			  uint64_t seq, uint64_t base_ts, uint64_t first, size_t records_len)
{
	uint8_t head[WIRE_FRAME_HEAD_MAX + 2 * WIRE_VARINT_MAX];
	unsigned bn = wire_varint_len(base_ts) + wire_varint_len(first);
	unsigned hn = wire_frame_head(head, WIRE_FRAME_DATA, cpu, seq, bn + (uint64_t)records_len);

	hn += wire_block_head_put(head + hn, base_ts, first);
	return line_begin(l, out, cap, head, hn, bn, bn + (uint64_t)records_len);
}

void wire_line_add(struct wire_line *l, const uint8_t *p, size_t n)
{
	if (!l->o)
		return;
	if (n > l->left) {
		l->o = 0;	/* more than begin was told: the frame is void */
		return;
	}
	l->left -= n;
	line_add(l, p, n);
}

size_t wire_line_end(struct wire_line *l)
{
	uint8_t *o = l->o;

	if (!o || l->left)
		return 0;
	/* The CRC, little-endian: as one word's four low bytes where the
	 * word's store fits (the escapes before it left room, as they
	 * usually do), else a byte at a time. */
	uint64_t crc = (uint64_t)(uint32_t)~l->crc ^ (BYTES_01 * WIRE_LINE_MASK);

	if (l->lim - o >= 2 * WIRE_CRC_SIZE + 8 + 1) {
		o = put_part(o, crc, WIRE_CRC_SIZE);
	} else {
		for (int i = 0; i < WIRE_CRC_SIZE; i++, crc >>= 8)
			o = escape_byte(o, (uint8_t)crc);
	}
	*o++ = WIRE_ETX;
	return (size_t)(o - l->out);
}
