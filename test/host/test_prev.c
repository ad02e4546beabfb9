/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_prev.c: the previous boot's trace on the host
 * (docs/wire.md 2.10; tools/baretrace/decode/prev.c, decode.c): the
 * summary frame's codec, its blocks decoded apart from this boot's with
 * their own holes and books, and left out unless a command asks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/decode/decode.h"
#include "../../wire/wire.h"

#include "tap.h"

static char seen[4096];

static void note(const char *fmt, unsigned a, unsigned long long b)
{
	size_t n = strlen(seen);

	snprintf(seen + n, sizeof(seen) - n, fmt, a, b);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	note(d->prev.active ? "p%u:%llu " : "r%u:%llu ", cpu, (unsigned long long)r->site);
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	(void)d;
	(void)cause;
	note("hole%u:%llu ", cpu, (unsigned long long)events);
}

static void on_section(struct bt_decoder *d, int prev)
{
	(void)d;
	note(prev ? "[prev%u%llu] " : "[this%u%llu] ", 0, 0);
}

static const struct bt_visitor visitor = {
	.record = on_record, .hole = on_hole, .section = on_section,
};

static uint8_t pl[4096];

static void feed(struct bt_decoder *d, unsigned type, unsigned cpu, uint64_t seq,
		 const uint8_t *body, size_t n)
{
	size_t len = wire_frame_build(pl, sizeof(pl), type, cpu, seq, body, n);

	bt_dec_frame(d, pl, len);
}

/* A block of 'type' whose first event is 'first': one record, 'site'. */
static void feed_block(struct bt_decoder *d, unsigned type, unsigned cpu, uint64_t seq,
		       uint64_t first, uint64_t site)
{
	uint8_t b[32];
	struct wire_out o;
	struct wire_record r = { .kind = WIRE_REC_FUNC_CALLER, .site = site, .caller = 9 };

	wire_out_init(&o, b, sizeof(b));
	wire_out_varint(&o, 1000 + seq);
	wire_out_varint(&o, first);
	wire_rec_encode(&o, &r);
	feed(d, type, cpu, seq, b, o.len);
}

static void feed_meta(struct bt_decoder *d)
{
	uint8_t b[64];
	struct wire_out o;

	wire_out_init(&o, b, sizeof(b));
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, WIRE_VERSION);
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, 1000000);
	feed(d, WIRE_FRAME_META, 0, 0, b, o.len);
}

/* CPU 0 recorded 10 events: 4 overwritten, 2 sent; 2 blocks kept, 1 torn. */
static const struct wire_prev_cpu cpu0 = { 0, 10, 2, 4, 0, 0, 2, 1 };

static void feed_info(struct bt_decoder *d, uint64_t boot)
{
	uint8_t b[128];
	size_t n = wire_prev_encode(b, sizeof(b), boot, &cpu0, 1);

	feed(d, WIRE_FRAME_PREV_INFO, 0, 0, b, n);
}

static void test_codec(void)
{
	uint8_t b[128];
	struct wire_prev_cpu c[2], two[2] = { cpu0, { 3, 7, 1, 0, 2, 1, 4, 0 } };
	uint64_t boot = 0;
	size_t n = wire_prev_encode(b, sizeof(b), 42, two, 2);

	tap_ok(n > 0 && wire_prev_decode(b, n, &boot, c, 2) == 2 && boot == 42 &&
	       !memcmp(c, two, sizeof(two)), "prev: the summary body decodes to what was encoded");
	tap_eq_int(wire_prev_decode(b, n - 1, &boot, c, 2), -1,
		   "prev: a summary cut short is malformed");
	tap_eq_int((long long)wire_prev_encode(b, 4, 42, two, 2), 0,
		   "prev: a summary that does not fit is not encoded");
}

static void test_decode(void)
{
	static struct bt_decoder d;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	seen[0] = 0;
	bt_dec_init(&d, &visitor, NULL);
	d.want_prev = 1;
	feed_meta(&d);
	feed_info(&d, 3);
	feed_block(&d, WIRE_FRAME_PREV, 0, 7, 4, 11);	/* events 0..3 not kept */
	feed_block(&d, WIRE_FRAME_PREV, 0, 9, 6, 12);	/* event 5 not kept */
	feed_block(&d, WIRE_FRAME_DATA, 0, 0, 0, 13);	/* this boot */
	tap_eq_str(seen, "[prev00] hole0:4 p0:11 hole0:1 p0:12 [this00] r0:13 ",
		   "prev: its blocks come under their own section, holes by 'first'");
	tap_ok(bt_events(&d) == 1 && d.prev.events == 2 && d.prev.blocks == 2 &&
	       d.prev.boot == 3 && d.seq_gaps == 0,
	       "prev: its events are not this boot's, nor are its sequence numbers");
	f = open_memstream(&text, &len);
	bt_prev_print(f, &d, "# ");
	fclose(f);
	tap_eq_str(text, "# previous boot 3: 10 events recorded before the reset: 2 kept and "
		   "decoded, 5 before or between the blocks kept, 3 after the last\n"
		   "# previous boot 3: 2 blocks kept, 2 sent here, 1 did not check (dropped on "
		   "the target); during that boot 2 events were sent, 4 overwritten, 0 refused "
		   "by a full ring (stop mode), 0 discarded\n",
		   "prev: its books: produced = decoded + before or between + after");
	free(text);
	bt_dec_free(&d);

	seen[0] = 0;
	bt_dec_init(&d, &visitor, NULL);	/* a command that does not want it */
	feed_meta(&d);
	feed_info(&d, 3);
	feed_block(&d, WIRE_FRAME_PREV, 0, 7, 4, 11);
	feed_block(&d, WIRE_FRAME_DATA, 0, 0, 0, 13);
	tap_eq_str(seen, "r0:13 ", "prev: left out unless asked for");
	tap_ok(d.prev.skipped == 1 && bt_events(&d) == 1, "prev: left out frames are counted");
	bt_dec_free(&d);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_codec();
	test_decode();
	return tap_done();
}
