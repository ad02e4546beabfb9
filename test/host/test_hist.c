/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/model/hist.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/output/render/render_ext.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_hist.c: the host tool's reading of duration-histogram
 * frames (type 10, docs/wire.md 2.12): buckets and sums as sent, a new
 * dump (part 0) replacing the CPU's last one, a continued dump (part 1)
 * adding to it and one whose start is missing left out, CPUs summed,
 * bucket ranges and percentile bounds, and every malformed body refused
 * with the histograms left as they were. The decoder hands type 10 to
 * the visitor and keeps its sequence numbers apart from other types'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/base/util.h"
#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/model/model.h"
#include "../../wire/wire.h"

#include "tap.h"

struct ent {
	uint64_t site, sum;
	unsigned n;
	uint8_t b[4];
	uint64_t c[4];
};

static size_t body(uint8_t *p, uint64_t part, const struct ent *e, unsigned n)
{
	struct wire_out o;

	wire_out_init(&o, p, 1024);
	wire_out_u8(&o, WIRE_HIST_DURATION);
	wire_out_varint(&o, part);
	wire_out_u8(&o, (uint8_t)n);
	for (unsigned i = 0; i < n; i++) {
		wire_out_varint(&o, e[i].site);
		wire_out_varint(&o, e[i].sum);
		wire_out_varint(&o, e[i].n);
		for (unsigned j = 0; j < e[i].n; j++) {
			wire_out_u8(&o, e[i].b[j]);
			wire_out_varint(&o, e[i].c[j]);
		}
	}
	return o.len;
}

static void test_model(void)
{
	static struct bt_hist h;
	struct bt_hist_fn s;
	uint8_t p[1024];
	uint64_t *sites, lo, hi;
	const struct ent a[] = {
		{ 7, 3 * 1536 + 100, 2, { 0, 11 }, { 1, 3 } },	/* 0 ticks once, 1024..2047 three times */
		{ 9, 5, 1, { 3 }, { 1 } },
	};
	const struct ent b1[] = { { 7, 1600, 1, { 11 }, { 1 } } };
	const struct ent b2[] = { { 9, 40, 1, { 6 }, { 2 } } };
	size_t n;

	bt_hist_init(&h);
	tap_ok(bt_hist_add_frame(&h, 0, p, body(p, 0, a, 2)) == 0 &&
	       bt_hist_of(&h, 0, 7) && bt_hist_of(&h, 0, 7)->calls == 4 &&
	       bt_hist_of(&h, 0, 7)->bucket[11] == 3 && bt_hist_of(&h, 0, 7)->bucket[0] == 1 &&
	       bt_hist_of(&h, 0, 7)->sum == 3 * 1536 + 100 && bt_hist_of(&h, 0, 9)->calls == 1,
	       "a dump's buckets, calls and sum as sent");
	tap_ok(bt_hist_add_frame(&h, 2, p, body(p, 0, b1, 1)) == 0 &&
	       bt_hist_add_frame(&h, 2, p, body(p, 1, b2, 1)) == 0 &&
	       bt_hist_of(&h, 2, 7)->calls == 1 && bt_hist_of(&h, 2, 9)->bucket[6] == 2,
	       "part 1 goes on with the dump part 0 began");
	bt_hist_sum(&h, 7, &s);
	tap_ok(s.calls == 5 && s.bucket[11] == 4 && s.cpus == 2 && s.sum == 3 * 1536 + 100 + 1600,
	       "CPUs summed: calls, buckets, sums, CPUs");
	n = bt_hist_sites(&h, &sites);
	tap_ok(n == 2 && sites[0] == 7 && sites[1] == 9, "sites with a histogram, each once");
	free(sites);
	tap_ok(bt_hist_add_frame(&h, 0, p, body(p, 0, b1, 1)) == 0 && !bt_hist_of(&h, 0, 9) &&
	       bt_hist_of(&h, 0, 7)->calls == 1, "a new dump (part 0) replaces the CPU's last one");
	tap_ok(bt_hist_add_frame(&h, 5, p, body(p, 1, b1, 1)) == 0 && !bt_hist_of(&h, 5, 7) &&
	       h.orphans == 1 && bt_hist_add_frame(&h, 0, p, body(p, 2, b2, 1)) == 0 &&
	       h.orphans == 2 && !bt_hist_of(&h, 0, 9),
	       "a part whose dump began elsewhere, or after a missing part, is left out and counted");
	tap_ok(bt_hist_add_frame(&h, 0, p, body(p, 0, NULL, 0)) == 0 && !bt_hist_of(&h, 0, 7),
	       "an empty dump (count 0) empties the CPU");

	/* Malformed: each refused, CPU 2 as it was. */
	const struct ent dup[] = { { 7, 1, 2, { 4, 4 }, { 1, 1 } } };
	const struct ent down[] = { { 7, 1, 2, { 5, 4 }, { 1, 1 } } };
	const struct ent big[] = { { 7, 1, 1, { 64 }, { 1 } } };
	const struct ent zero[] = { { 7, 1, 1, { 4 }, { 0 } } };
	const struct ent none[] = { { 7, 1, 0, { 0 }, { 0 } } };
	size_t len = body(p, 0, b1, 1);
	int bad = 0;

	bad += bt_hist_add_frame(&h, 2, p, body(p, 0, dup, 1)) == -1;
	bad += bt_hist_add_frame(&h, 2, p, body(p, 0, down, 1)) == -1;
	bad += bt_hist_add_frame(&h, 2, p, body(p, 0, big, 1)) == -1;
	bad += bt_hist_add_frame(&h, 2, p, body(p, 0, zero, 1)) == -1;
	bad += bt_hist_add_frame(&h, 2, p, body(p, 0, none, 1)) == -1;
	len = body(p, 0, b1, 1);
	bad += bt_hist_add_frame(&h, 2, p, len - 1) == -1;	/* cut in the last count */
	bad += bt_hist_add_frame(&h, 2, p, 2) == -1;
	p[0] = 2;						/* a kind not known */
	bad += bt_hist_add_frame(&h, 2, p, len) == -1;
	p[0] = WIRE_HIST_DURATION;
	p[2] = 200;						/* count over 127 */
	bad += bt_hist_add_frame(&h, 2, p, len) == -1;
	bad += bt_hist_add_frame(&h, BT_MAX_CPUS, p, body(p, 0, b1, 1)) == -1;
	tap_ok(bad == 10 && bt_hist_of(&h, 2, 7)->calls == 1 && bt_hist_of(&h, 2, 9)->calls == 2,
	       "repeated, descending, out-of-range and empty buckets, a zero count, a cut "
	       "body, an unknown kind, too many entries, a CPU past the wire's: refused, "
	       "nothing changed (%d of 10)", bad);
	bt_hist_free(&h);

	bt_hist_range(0, &lo, &hi);
	tap_ok(lo == 0 && hi == 0, "bucket 0 is a duration of 0 ticks");
	bt_hist_range(11, &lo, &hi);
	tap_ok(lo == 1024 && hi == 2047, "bucket 11 is 1024 .. 2047 ticks");
	bt_hist_range(63, &lo, &hi);
	tap_ok(lo == 1ull << 62 && hi == UINT64_MAX, "bucket 63 holds everything longer");
	struct bt_hist_fn f = { .calls = 100 };

	f.bucket[3] = 50, f.bucket[5] = 49, f.bucket[9] = 1;
	tap_ok(bt_hist_percentile(&f, 50) == 7 && bt_hist_percentile(&f, 99) == 31 &&
	       bt_hist_percentile(&f, 100) == 511, "percentile bounds: p50 <= 7, p99 <= 31, "
	       "p100 <= 511 ticks");
}

/* Kind 1 (a tracepoint field per key): the head's spec, event, field,
 * key field and other count kept, the keys as a bt_hist's sites, a
 * continued part, a spec past the reader's and a cut body refused. */
static void test_event_kind(void)
{
	/* kind 1, part 0, spec 2, event 7, field 1, key field 0 + 1, other 3,
	 * 2 keys: key 300 (varint ac 02), sum 10, {3: 2}; key 4, sum 1, {1: 1} */
	static const uint8_t b0[] = { 1, 0, 2, 7, 1, 1, 3, 2, 0xac, 0x02, 10, 1, 3, 2,
				      4, 1, 1, 1, 1 };
	/* part 1 of the same dump: key 5, sum 0, {0: 4} */
	static const uint8_t b1[] = { 1, 1, 2, 7, 1, 1, 3, 1, 5, 0, 1, 0, 4 };
	static const uint8_t far[] = { 1, 0, BT_HIST_EV_MAX, 7, 1, 1, 0, 0 };
	static struct bt_hist h;
	int bad = 0;

	bt_hist_init(&h);
	tap_ok(bt_hist_add_frame(&h, 1, b0, sizeof(b0)) == 0 &&
	       bt_hist_add_frame(&h, 1, b1, sizeof(b1)) == 0 && h.ev[2].used &&
	       h.ev[2].event == 7 && h.ev[2].field == 1 && h.ev[2].keyf == 1 &&
	       h.ev[2].other[1] == 3 && bt_hist_of(h.ev[2].keys, 1, 300)->bucket[3] == 2 &&
	       bt_hist_of(h.ev[2].keys, 1, 300)->sum == 10 &&
	       bt_hist_of(h.ev[2].keys, 1, 4)->calls == 1 &&
	       bt_hist_of(h.ev[2].keys, 1, 5)->bucket[0] == 4 && !h.cpu[1].n,
	       "kind 1: spec, event, field, key field, other and each key's buckets kept apart "
	       "from the function histograms, a continued part added");
	bad += bt_hist_add_frame(&h, 1, far, sizeof(far)) == -1;
	bad += bt_hist_add_frame(&h, 1, b0, sizeof(b0) - 1) == -1;
	bad += bt_hist_add_frame(&h, 1, b0, 6) == -1;		/* cut in the head */
	tap_ok(bad == 3 && bt_hist_of(h.ev[2].keys, 1, 5) && !h.ev[BT_HIST_EV_MAX - 1].used,
	       "kind 1: a spec past the reader's, a cut body, a cut head: refused, nothing "
	       "changed (%d of 3)", bad);
	bt_hist_free(&h);
}

static unsigned hists;

static void on_hist(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)d;
	hists += f->type == WIRE_FRAME_HIST;
}

static const struct bt_visitor visitor = { .hist = on_hist };
static uint8_t pl[4096];

static int feed(struct bt_decoder *d, unsigned type, uint64_t seq, const uint8_t *b, size_t n)
{
	return bt_dec_frame(d, pl, wire_frame_build(pl, sizeof(pl), type, 1, seq, b, n));
}

static void test_decoder(void)
{
	static struct bt_decoder d;
	uint8_t b[64];
	const struct ent e[] = { { 3, 10, 1, { 4 }, { 2 } } };
	size_t n = body(b, 0, e, 1);

	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	feed(&d, WIRE_FRAME_HIST, 0, b, n);
	feed(&d, WIRE_FRAME_COVERAGE, 5, b, n);
	feed(&d, WIRE_FRAME_HIST, 1, b, n);
	feed(&d, WIRE_FRAME_HIST, 3, b, n);
	tap_ok(hists == 3 && d.hist_frames == 3 && d.seq_gaps == 1,
	       "type 10 reaches the visitor; its seqs are its own (one gap, 1 to 3)");
	bt_dec_free(&d);
}

int main(void)
{
	test_model();
	test_event_kind();
	test_decoder();
	return tap_done();
}
