/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/model/profile.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/output/render/render_ext.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_profile.c: what the host tool's decoder does with the
 * frames and records of docs/wire.md 2.5 and 2.6. Profile dumps: checked
 * whole, sequence-numbered per CPU, a later dump replacing a CPU's
 * earlier one, a dump continued over frames, CPUs merged into one row
 * per function. Extension records: known subtypes are events and reach
 * the command, unknown ones are skipped, malformed ones counted. Also
 * the text of arguments and trigger actions.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/base/util.h"
#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/model/model.h"
#include "../../tools/baretrace/output/render/render.h"
#include "../../wire/wire.h"

#include "tap.h"

static struct bt_profile prof;
static unsigned records_seen, exts_seen;

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	(void)d;
	(void)cpu;
	records_seen++;
	exts_seen += r->kind == WIRE_REC_EXT;
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)d;
	bt_profile_add(&prof, f);
}

static const struct bt_visitor visitor = { .record = on_record, .profile = on_profile };

static uint8_t pl[4096];

static int feed(struct bt_decoder *d, unsigned type, unsigned cpu, uint64_t seq,
		const uint8_t *body, size_t n)
{
	return bt_dec_frame(d, pl, wire_frame_build(pl, sizeof(pl), type, cpu, seq, body, n));
}

/* A profile frame of n entries given as (site, calls, total, min, max). */
static void dump(struct bt_decoder *d, unsigned cpu, uint64_t seq, const uint64_t (*e)[5],
		 unsigned n)
{
	uint8_t b[512];
	struct wire_out o;

	wire_out_init(&o, b, sizeof(b));
	wire_out_varint(&o, n);
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < 5; k++)
			wire_out_varint(&o, e[i][k]);
	feed(d, WIRE_FRAME_PROFILE, cpu, seq, b, o.len);
}

static const struct wire_profile_entry *row(struct wire_profile_entry *v, size_t n, uint64_t site)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].site == site)
			return &v[i];
	return NULL;
}

static void test_dumps(void)
{
	static struct bt_decoder d;
	static const uint64_t old[][5] = { { 1, 3, 300, 50, 200 }, { 2, 1, 10, 10, 10 } };
	static const uint64_t a[][5] = { { 1, 5, 600, 40, 200 } };
	static const uint64_t b[][5] = { { 4, 2, 80, 30, 50 } };
	static const uint64_t cpu1[][5] = { { 1, 1, 70, 70, 70 }, { 9, 0, 0, 0, 0 } };
	struct wire_profile_entry *v;
	const struct wire_profile_entry *e;
	size_t n;

	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	dump(&d, 0, 0, old, 2);
	dump(&d, 1, 0, cpu1, 2);
	dump(&d, 0, 1, a, 1);		/* site 1 again: a new dump */
	dump(&d, 0, 2, b, 1);		/* site 4 > 1: the same dump goes on */
	dump(&d, 0, 3, NULL, 0);	/* empty: changes nothing */
	tap_ok(d.profile_frames == 5 && d.seq_gaps == 0 && prof.dumps == 3,
	       "dumps: 5 frames, 3 dumps, no gap (numbered per CPU)");
	n = bt_profile_rows(&prof, 0, &v);
	tap_ok(n == 2 && row(v, n, 1)->calls == 5 && row(v, n, 4) && !row(v, n, 2),
	       "dumps: CPU 0's later dump replaced its first, over two frames");
	free(v);
	n = bt_profile_rows(&prof, BT_MAX_CPUS, &v);
	e = row(v, n, 1);
	tap_ok(n == 2 && e && e->calls == 6 && e->total == 670 && e->min == 40 && e->max == 200,
	       "dumps: merged over CPUs, calls and totals add, min and max of both");
	tap_ok(!row(v, n, 9), "dumps: a function with no calls has no row");
	free(v);
	dump(&d, 1, 5, cpu1, 1);
	tap_eq_int((long long)d.seq_gaps, 1, "dumps: a gap in one CPU's frames is counted");
	feed(&d, WIRE_FRAME_PROFILE, 1, 6, (const uint8_t *)"\x02\x01\x01", 3);
	tap_ok(d.bad_profiles == 1 && d.profile_frames == 6, "dumps: a cut dump is skipped whole");
	bt_profile_free(&prof);
	bt_dec_free(&d);
}

static void test_extensions(void)
{
	static struct bt_decoder d;
	uint8_t b[128], meta[16];
	struct wire_out o, m;
	static const uint8_t args[] = { 0x03, 0x01, 0x04 };	/* site 3, 1 arg: 2 */
	static const uint8_t cut[] = { 0x03 };			/* args without a count */
	struct wire_record r = { .kind = WIRE_REC_EXT };

	wire_out_init(&m, meta, sizeof(meta));
	wire_out_varint(&m, WIRE_META_VERSION);
	wire_out_varint(&m, WIRE_VERSION);
	wire_out_init(&o, b, sizeof(b));
	wire_out_varint(&o, 1000);
	wire_out_varint(&o, 0);		/* first event number */
	r.subtype = WIRE_EXT_ARGS, r.data = args, r.data_len = sizeof(args);
	wire_rec_encode(&o, &r);
	r.subtype = 77;				/* from a later version */
	wire_rec_encode(&o, &r);
	r.subtype = WIRE_EXT_ARGS, r.data = cut, r.data_len = sizeof(cut);
	wire_rec_encode(&o, &r);
	r = (struct wire_record){ .kind = WIRE_REC_LOST, .count = 2 };
	wire_rec_encode(&o, &r);
	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	records_seen = exts_seen = 0;
	feed(&d, WIRE_FRAME_META, 0, 0, meta, m.len);
	feed(&d, WIRE_FRAME_DATA, 0, 0, b, o.len);
	tap_ok(records_seen == 1 && exts_seen == 1 && bt_events(&d) == 1 &&
	       d.books[0].decoded == 3,
	       "extensions: a known one is an event, an unknown one is skipped (yet counted "
	       "as arrived in the books, wire.md 2.8), the kind-6 record is neither");
	tap_eq_int((long long)d.bad_exts, 1, "extensions: a malformed one is counted, not passed on");
	bt_dec_free(&d);
}

static void test_text(void)
{
	int64_t v[3] = { 1, -1, 0x40081234 };
	char buf[128], ab[16];

	bt_fmt_arg_values(v, 3, ", ", buf, sizeof(buf));
	tap_eq_str(buf, "0x1, 0xffffffffffffffff, 0x40081234", "text: arguments in 64-bit hex");
	bt_fmt_arg_values(v, 3, " ", buf, 8);
	tap_ok(strlen(buf) < 8, "text: a short buffer truncates");
	tap_eq_str(bt_trigger_action(WIRE_TRIG_TRACEOFF, ab, sizeof(ab)), "traceoff",
		   "text: trigger actions by name");
	tap_eq_str(bt_trigger_action(200, ab, sizeof(ab)), "action#200",
		   "text: an unknown action by number");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_dumps();
	test_extensions();
	test_text();
	return tap_done();
}
