/*
 * wire/wire_stream.h: the stream decoder of wire/wire_stream.c, apart from
 * wire.h for its length; included by wire.h after the frame definitions
 * it uses, so every user includes wire.h alone.
 */
#ifndef TRACE_WIRE_STREAM_H
#define TRACE_WIRE_STREAM_H

/*
 * Splits a UART byte stream into text and frames. Memory is the caller's
 * buffer only (up to WIRE_MAX_PAYLOAD bytes are used). Bytes may arrive
 * one at a time or in chunks of any size.
 */
struct wire_dec {
	uint8_t *buf;
	size_t cap;
	size_t len;
	uint8_t in_frame;
	uint8_t escaped;	/* last byte was DLE */
	uint8_t damage;		/* reason already known for the open frame */
	uint64_t frames;	/* good frames */
	uint64_t damaged;	/* dropped frames */
	uint64_t masked;	/* good or not, frames that came masked */
	uint64_t by_reason[WIRE_DMG_COUNT];
	uint64_t text_bytes;
	uint64_t stray_bytes;	/* DLE outside a frame: dropped */
	uint64_t lone_etx;	/* ETX outside a frame (the console sends one
				 * at each boot, docs/wire.md 1): dropped */
};

enum wire_ev_type {
	WIRE_EV_NONE,		/* input used up, nothing to report */
	WIRE_EV_TEXT,		/* text, text_len: a run of console text */
	WIRE_EV_FRAME,		/* payload, frame: a checked frame */
	WIRE_EV_DAMAGED,	/* damage: a frame was dropped */
};

struct wire_ev {
	enum wire_ev_type type;
	const uint8_t *text;	/* into the input */
	size_t text_len;
	const uint8_t *payload;	/* into the decoder buffer, valid until */
	size_t payload_len;	/* the next call */
	struct wire_frame frame;
	int masked;		/* the frame came masked (wire.md 1) */
	enum wire_damage damage;
};

void wire_dec_init(struct wire_dec *d, uint8_t *buf, size_t cap);
/*
 * Consumes input up to and including the first event; returns the bytes
 * consumed (at least one when n > 0). Call again with the rest.
 */
size_t wire_dec_feed(struct wire_dec *d, const uint8_t *in, size_t n, struct wire_ev *ev);
/* End of input: a frame still open is damaged. Returns 1 if *ev is set. */
int wire_dec_finish(struct wire_dec *d, struct wire_ev *ev);

#endif /* TRACE_WIRE_STREAM_H */
