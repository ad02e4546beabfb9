/*
 * wire/wire_stream.c: splitting a UART byte stream into console text
 * and frames (docs/wire.md section 1), in the caller's buffer only.
 * Freestanding; the host tool's capture and decoder use it.
 */
#include "wire.h"

/* ---- the stream decoder ------------------------------------------------ */

void wire_dec_init(struct wire_dec *d, uint8_t *buf, size_t cap)
{
	*d = (struct wire_dec){ 0 };
	d->buf = buf;
	d->cap = cap < WIRE_MAX_PAYLOAD ? cap : WIRE_MAX_PAYLOAD;
}

static void dec_drop(struct wire_dec *d, enum wire_damage why, struct wire_ev *ev)
{
	d->damaged++;
	d->by_reason[why]++;
	ev->type = WIRE_EV_DAMAGED;
	ev->damage = why;
}

static void dec_open(struct wire_dec *d)
{
	d->in_frame = 1;
	d->escaped = 0;
	d->damage = WIRE_DMG_NONE;
	d->len = 0;
}

/* ETX: the frame is complete; report it or why it was dropped. */
static void dec_close(struct wire_dec *d, struct wire_ev *ev)
{
	int why = d->damage;

	d->in_frame = 0;
	ev->masked = 0;
	/* A masked frame (wire.md 1): its type byte has bit 7 set. The
	 * payload is handed on unmasked, as an unmasked frame's is. */
	if (!why && d->len && d->buf[0] & 0x80) {
		for (size_t i = 0; i < d->len; i++)
			d->buf[i] ^= WIRE_LINE_MASK;
		d->masked++;
		ev->masked = 1;
	}
	if (!why)
		why = wire_frame_parse(d->buf, d->len, &ev->frame);
	if (why) {
		dec_drop(d, (enum wire_damage)why, ev);
		return;
	}
	d->frames++;
	ev->type = WIRE_EV_FRAME;
	ev->payload = d->buf;
	ev->payload_len = d->len;
}

static void dec_append(struct wire_dec *d, uint8_t b)
{
	if (d->len < d->cap)
		d->buf[d->len++] = b;
	else if (!d->damage)
		d->damage = WIRE_DMG_OVERSIZE;
}

size_t wire_dec_feed(struct wire_dec *d, const uint8_t *in, size_t n, struct wire_ev *ev)
{
	size_t i = 0;

	ev->type = WIRE_EV_NONE;
	while (i < n) {
		uint8_t b = in[i];

		if (!d->in_frame) {
			size_t j = i;

			while (j < n && !wire_needs_escape(in[j]))
				j++;
			if (j > i) {
				ev->type = WIRE_EV_TEXT;
				ev->text = in + i;
				ev->text_len = j - i;
				d->text_bytes += j - i;
				return j;
			}
			if (b == WIRE_STX)
				dec_open(d);
			else if (b == WIRE_ETX)
				d->lone_etx++;		/* a boot's first byte, dropped */
			else
				d->stray_bytes++;	/* a stray DLE is dropped */
			i++;
			continue;
		}
		i++;
		if (b == WIRE_STX) {
			dec_drop(d, d->damage ? (enum wire_damage)d->damage : WIRE_DMG_CUT, ev);
			dec_open(d);
			return i;
		}
		if (b == WIRE_ETX) {
			if (d->escaped && !d->damage)
				d->damage = WIRE_DMG_ESCAPE;
			dec_close(d, ev);
			return i;
		}
		if (d->escaped) {
			d->escaped = 0;
			if (!wire_needs_escape(b ^ WIRE_ESCAPE_XOR)) {
				if (!d->damage)
					d->damage = WIRE_DMG_ESCAPE;
				continue;
			}
			dec_append(d, b ^ WIRE_ESCAPE_XOR);
		} else if (b == WIRE_DLE) {
			d->escaped = 1;
		} else {
			dec_append(d, b);
		}
	}
	return n;
}

int wire_dec_finish(struct wire_dec *d, struct wire_ev *ev)
{
	ev->type = WIRE_EV_NONE;
	if (!d->in_frame)
		return 0;
	d->in_frame = 0;
	dec_drop(d, d->damage ? (enum wire_damage)d->damage : WIRE_DMG_CUT, ev);
	return 1;
}
