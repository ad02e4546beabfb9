/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c */
/*
 * test/host/test_framing.c: the stream decoder (wire/wire.c) on a sample
 * UART stream of six frames interleaved with console text. Every byte
 * offset is damaged in turn (flipped three ways, deleted, and a byte of
 * five values inserted before it); each time the frames that were not
 * touched must come out exactly, the touched one must be dropped and
 * counted (or, when its STX itself was destroyed, simply never seen),
 * no frame may appear that was not sent, and feeding the bytes one at a
 * time must give the same result as feeding them at once.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../wire/wire.h"
#include "tap.h"

#define MAX_FRAMES	8
#define STREAM_MAX	1024

struct sample {
	uint8_t bytes[STREAM_MAX];
	size_t len;
	size_t nframes;
	size_t start[MAX_FRAMES], end[MAX_FRAMES];	/* STX and ETX offsets */
	uint8_t payload[MAX_FRAMES][128];
	size_t payload_len[MAX_FRAMES];
	char text[256];
	size_t text_len;
};

struct result {
	size_t ngood;
	int good[16];		/* index of the sample frame, -1: unknown */
	uint64_t damaged;
	char text[STREAM_MAX];
	size_t text_len;
};

static void add_text(struct sample *s, const char *t)
{
	size_t n = strlen(t);

	memcpy(s->bytes + s->len, t, n);
	memcpy(s->text + s->text_len, t, n);
	s->len += n;
	s->text_len += n;
}

static void add_frame(struct sample *s, unsigned type, unsigned cpu, uint64_t seq,
		      const uint8_t *body, size_t n)
{
	size_t k = s->nframes++;
	size_t pl = wire_frame_build(s->payload[k], sizeof(s->payload[k]), type, cpu,
				     seq, body, n);

	s->payload_len[k] = pl;
	s->start[k] = s->len;
	s->len += wire_escape(s->bytes + s->len, STREAM_MAX - s->len, s->payload[k], pl);
	s->end[k] = s->len - 1;
}

static void make_sample(struct sample *s)
{
	static const uint8_t meta[] = { 1, 1, 2, 0x80, 0xe1, 0xeb, 0x17, 3, 2 };
	static const uint8_t data0[] = { 0x10, 0x20, 0x02, 0x03, 0x10, 0x05, 0x03, 0x10 };
	static const uint8_t data1[] = { 0x05, 0x41, 0x02, 0x11 };
	static const uint8_t syms[] = { 0, 1, 0, 8, 4, 'm', 'a', 'i', 'n' };
	static const uint8_t data0b[] = { 0x90, 0x4e, 0xc0, 0x03 };

	memset(s, 0, sizeof(*s));
	add_text(s, "boot: hello\r\n");
	add_frame(s, WIRE_FRAME_META, 0, 0, meta, sizeof(meta));
	add_text(s, "line two\n");
	add_frame(s, WIRE_FRAME_DATA, 0, 0, data0, sizeof(data0));
	add_frame(s, WIRE_FRAME_DATA, 1, 0, data1, sizeof(data1));
	add_text(s, "x");
	add_frame(s, WIRE_FRAME_SYMS, 0, 0, syms, sizeof(syms));
	add_frame(s, WIRE_FRAME_DATA, 0, 1, data0b, sizeof(data0b));
	add_text(s, "tail\n");
	add_frame(s, WIRE_FRAME_END, 0, 0, NULL, 0);
	add_text(s, "bye\n");
}

/* Decodes in pieces of 'chunk' bytes (0: all at once). */
static void decode(const struct sample *s, const uint8_t *in, size_t n, size_t chunk,
		   struct result *r)
{
	static uint8_t buf[WIRE_MAX_PAYLOAD];
	struct wire_dec d;
	struct wire_ev ev;
	size_t at = 0;

	memset(r, 0, sizeof(*r));
	wire_dec_init(&d, buf, sizeof(buf));
	while (at < n) {
		size_t piece = chunk && chunk < n - at ? chunk : n - at;
		const uint8_t *p = in + at;

		at += piece;
		while (piece) {
			size_t used = wire_dec_feed(&d, p, piece, &ev);

			p += used;
			piece -= used;
			if (ev.type == WIRE_EV_TEXT) {
				memcpy(r->text + r->text_len, ev.text, ev.text_len);
				r->text_len += ev.text_len;
			} else if (ev.type == WIRE_EV_FRAME && r->ngood < 16) {
				int which = -1;

				for (size_t k = 0; k < s->nframes; k++)
					if (ev.payload_len == s->payload_len[k] &&
					    !memcmp(ev.payload, s->payload[k], ev.payload_len))
						which = (int)k;
				r->good[r->ngood++] = which;
			}
		}
	}
	wire_dec_finish(&d, &ev);
	r->damaged = d.damaged;
}

static int same_result(const struct result *a, const struct result *b)
{
	return a->ngood == b->ngood && !memcmp(a->good, b->good, sizeof(a->good[0]) * a->ngood) &&
	       a->damaged == b->damaged && a->text_len == b->text_len &&
	       !memcmp(a->text, b->text, a->text_len);
}

enum op { OP_FLIP, OP_DELETE, OP_INSERT };

/*
 * Applies one change and checks the promises. Returns 0 when they hold;
 * *invisible is set when the touched frame vanished without being counted.
 */
static int check_one(const struct sample *s, enum op op, size_t at, uint8_t val,
		     int *counted, int *invisible)
{
	static uint8_t m[STREAM_MAX + 1];
	struct result whole, bytewise;
	size_t n = s->len;
	int touched = -1;

	memcpy(m, s->bytes, n);
	if (op == OP_FLIP) {
		m[at] ^= val;
	} else if (op == OP_DELETE) {
		memmove(m + at, m + at + 1, n - at - 1);
		n--;
	} else {
		memmove(m + at + 1, m + at, n - at);
		m[at] = val;
		n++;
	}
	for (size_t k = 0; k < s->nframes; k++) {
		size_t lo = s->start[k] + (op == OP_INSERT);

		if (at >= lo && at <= s->end[k])
			touched = (int)k;
	}
	decode(s, m, n, 0, &whole);
	decode(s, m, n, 1, &bytewise);
	if (!same_result(&whole, &bytewise))
		return -1;
	/* Good frames: the sample's, in order, none invented, none missing. */
	size_t next = 0;

	for (size_t g = 0; g < whole.ngood; g++) {
		int k = whole.good[g];

		if (k < 0)
			return -2;
		while ((int)next < k) {
			if ((int)next != touched)
				return -3;
			next++;
		}
		next = (size_t)k + 1;
	}
	for (; next < s->nframes; next++)
		if ((int)next != touched)
			return -3;
	if (whole.damaged > 2)
		return -4;
	int lost = touched >= 0;

	for (size_t g = 0; g < whole.ngood; g++)
		lost &= whole.good[g] != touched;
	if (lost && whole.damaged == 0) {
		/* Only a destroyed STX can hide a frame completely. */
		if (op == OP_INSERT || at != s->start[touched])
			return -5;
		(*invisible)++;
	} else if (lost) {
		(*counted)++;
	} else if (touched < 0 && whole.damaged > 1) {
		return -6;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct sample s;
	static struct result r, r1, r7;
	static const uint8_t flips[] = { 0xff, 0x01, 0x20 };
	static const uint8_t inserts[] = { 0x00, WIRE_STX, WIRE_ETX, WIRE_DLE, 0x5a };
	static const char *const names[] = { "flipped", "deleted", "inserted" };

	(void)argc;
	(void)argv;
	make_sample(&s);
	decode(&s, s.bytes, s.len, 0, &r);
	tap_ok(r.ngood == s.nframes && r.damaged == 0, "clean stream: all %zu frames, none damaged",
	       s.nframes);
	int order = 1;

	for (size_t k = 0; k < r.ngood; k++)
		order &= r.good[k] == (int)k;
	tap_ok(order, "clean stream: frames in order and byte-exact");
	tap_ok(r.text_len == s.text_len && !memcmp(r.text, s.text, s.text_len),
	       "clean stream: console text passes through unchanged");
	decode(&s, s.bytes, s.len, 1, &r1);
	decode(&s, s.bytes, s.len, 7, &r7);
	tap_ok(same_result(&r, &r1) && same_result(&r, &r7),
	       "clean stream: one byte at a time and 7 at a time give the same");

	for (int op = OP_FLIP; op <= OP_INSERT; op++) {
		int bad = 0, counted = 0, invisible = 0;
		size_t first_bad = 0, limit = op == OP_INSERT ? s.len + 1 : s.len;
		int why = 0;
		const uint8_t *vals = op == OP_FLIP ? flips : inserts;
		size_t nvals = op == OP_FLIP ? sizeof(flips) : op == OP_INSERT ? sizeof(inserts) : 1;

		for (size_t at = 0; at < limit; at++) {
			for (size_t v = 0; v < nvals; v++) {
				int rc = check_one(&s, (enum op)op, at, vals[v], &counted, &invisible);

				if (rc && !bad++) {
					first_bad = at;
					why = rc;
				}
			}
		}
		if (!tap_ok(bad == 0, "a byte %s at each of %zu offsets: other frames survive, "
			    "the damaged one is counted", names[op], limit))
			tap_diag("%d failures, first at offset %zu (check %d)", bad, first_bad, why);
		tap_ok(counted > 0, "byte %s: %d damaged frames were counted (%d vanished with "
		       "their STX)", names[op], counted, invisible);
	}

	/* An oversized frame is dropped and the next one still decodes. */
	size_t big_n = 70000 + s.len;
	uint8_t *big = malloc(big_n);
	struct wire_dec d;
	struct wire_ev ev;
	static uint8_t buf[WIRE_MAX_PAYLOAD];
	int frames = 0;

	big[0] = WIRE_STX;
	memset(big + 1, 'A', 69999);
	memcpy(big + 70000, s.bytes, s.len);
	wire_dec_init(&d, buf, sizeof(buf));
	for (size_t at = 0; at < big_n;) {
		at += wire_dec_feed(&d, big + at, big_n - at, &ev);
		frames += ev.type == WIRE_EV_FRAME;
	}
	tap_ok(frames == (int)s.nframes && d.damaged == 1 && d.by_reason[WIRE_DMG_OVERSIZE] == 1,
	       "a 70000-byte frame is dropped as oversized, the rest decodes");
	free(big);

	wire_dec_init(&d, buf, 16);
	frames = 0;
	for (size_t at = 0; at < s.len;) {
		at += wire_dec_feed(&d, s.bytes + at, s.len - at, &ev);
		frames += ev.type == WIRE_EV_FRAME;
	}
	tap_ok(d.by_reason[WIRE_DMG_OVERSIZE] > 0 && frames > 0 && d.frames + d.damaged == s.nframes,
	       "a 16-byte buffer keeps small frames and drops larger ones");
	return tap_done();
}
