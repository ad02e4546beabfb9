/*
 * wire/wire_line.h: the target's frames in one pass (wire_line.c,
 * docs/wire.md 1 and 2): the bytes of wire_frame_build then
 * wire_escape_masked, masked and escaped as the CRC is computed, the
 * body read from wherever its pieces lie (a ring block), with no payload
 * in between. begin writes STX and the head (-1, and nothing written, if
 * cap is short of the frame's worst case, WIRE_ESCAPED_MAX of the
 * payload, or the payload would exceed WIRE_MAX_PAYLOAD); add takes the
 * body's pieces; end writes the CRC and ETX and returns the frame's
 * bytes, or 0 if the pieces did not add up to body_len (the frame is
 * then void).
 */
#ifndef WIRE_LINE_H
#define WIRE_LINE_H

#include <stddef.h>
#include <stdint.h>

struct wire_line {
	uint8_t *out, *o;	/* the frame's start; next byte, 0 once void */
	uint8_t *lim;		/* the end of out's room */
	uint64_t left;		/* body bytes still to come */
	uint32_t crc;		/* running, inverted */
};

int wire_line_begin(struct wire_line *l, uint8_t *out, size_t cap, unsigned type,
		    unsigned cpu, uint64_t seq, uint64_t body_len);
/* begin for a data block (section 2.1): the block's head (base_ts,
 * first) goes out with the frame's, as one piece; add then takes the
 * records_len bytes of records. */
int wire_line_begin_block(struct wire_line *l, uint8_t *out, size_t cap, unsigned cpu,
			  uint64_t seq, uint64_t base_ts, uint64_t first, size_t records_len);
void wire_line_add(struct wire_line *l, const uint8_t *p, size_t n);
size_t wire_line_end(struct wire_line *l);

#endif /* WIRE_LINE_H */
