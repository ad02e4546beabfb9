/*
 * wire/wire_prev.h: the previous boot's summary frame (docs/wire.md
 * 2.10), apart from wire.h for its length; included by wire.h, so every
 * user includes wire.h alone. Coded in wire/wire.c (encode) and
 * wire/wire_frames.c (decode).
 */
#ifndef TRACE_WIRE_PREV_H
#define TRACE_WIRE_PREV_H

/* One CPU of the previous boot: its totals at the reset and what of its
 * ring the new boot found. */
struct wire_prev_cpu {
	uint64_t cpu, produced, sent, overwritten, dropped, discarded, kept, torn;
};

/* Encodes the previous boot's number and n entries; the body length, or
 * 0 if it does not fit. */
size_t wire_prev_encode(uint8_t *out, size_t cap, uint64_t boot,
			const struct wire_prev_cpu *c, unsigned n);
/* Decodes up to max entries into c and the boot number: how many the
 * body holds, or -1 if it is malformed. */
int wire_prev_decode(const uint8_t *body, size_t len, uint64_t *boot,
		     struct wire_prev_cpu *c, unsigned max);

#endif /* TRACE_WIRE_PREV_H */
