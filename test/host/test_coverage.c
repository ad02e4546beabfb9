/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/model/coverage.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/output/render/render_ext.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_coverage.c: the host tool's reading of coverage frames
 * (types 8 and 9, the agreed format of issue 28): bits set from 'first'
 * on, bits past 'nbits' in the last byte ignored, merging by OR (a
 * frame twice, a subset, two boots), sites past the image's counted
 * apart, and every malformed body refused with the bits left as they
 * were. The decoder: metadata versions 2 and 3 read, 4 refused, both
 * frame types reach the command's visitor, and a type-8 frame's
 * sequence number is kept apart from the other types'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/model/model.h"
#include "../../wire/wire.h"

#include "tap.h"

static size_t body(uint8_t *b, uint64_t first, uint64_t nbits, const uint8_t *bits, size_t n)
{
	size_t len = wire_varint_put(b, first);

	len += wire_varint_put(b + len, nbits);
	memcpy(b + len, bits, n);
	return len + n;
}

static uint64_t reached_list(const struct bt_cov *c, uint64_t *out, size_t max)
{
	uint64_t n = 0;

	for (uint64_t s = 0; s < c->nsites; s++)
		if (bt_cov_is_reached(c, s) && n < max)
			out[n++] = s;
	return n;
}

static void test_bits(void)
{
	struct bt_cov c;
	uint8_t b[64];
	uint64_t got[16];
	static const uint8_t bits[] = { 0x81, 0xff };	/* sites 8, 15, then 16..19 of 12 */
	static const uint8_t one[] = { 0x02 };

	bt_cov_init(&c, 40);
	tap_ok(bt_cov_add_frame(&c, b, body(b, 8, 12, bits, 2)) == 0 &&
	       reached_list(&c, got, 16) == 6 && got[0] == 8 && got[1] == 15 && got[2] == 16 &&
	       got[5] == 19, "bits from 'first' on; those past nbits in the last byte ignored");
	tap_ok(bt_cov_add_frame(&c, b, body(b, 8, 12, bits, 2)) == 0 && bt_cov_count(&c) == 6,
	       "the same frame again changes nothing");
	tap_ok(bt_cov_add_frame(&c, b, body(b, 32, 8, one, 1)) == 0 && bt_cov_count(&c) == 7 &&
	       bt_cov_is_reached(&c, 33), "a later frame ORs in");
	tap_ok(bt_cov_add_frame(&c, b, body(b, 40, 8, one, 1)) == 0 && bt_cov_count(&c) == 7 &&
	       c.beyond == 1, "a site past the image's count is counted apart, not stored");
	tap_ok(bt_cov_add_frame(&c, b, body(b, 0, 12, bits, 1)) == -1 &&
	       bt_cov_add_frame(&c, b, body(b, 0, 12, bits, 2) + 1) == -1 &&
	       bt_cov_add_frame(&c, b, 1) == -1 && bt_cov_add_frame(&c, b, 0) == -1 &&
	       bt_cov_add_frame(&c, b, body(b, 1ull << 40, 8, one, 1)) == -1 &&
	       bt_cov_count(&c) == 7 && c.frames == 4,
	       "bodies too short, too long, cut in a varint or out of range are refused, "
	       "the bits unchanged");
	bt_cov_free(&c);
}

static unsigned cov8, cov9;

static void on_coverage(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)d;
	cov8 += f->type == WIRE_FRAME_COVERAGE;
	cov9 += f->type == WIRE_FRAME_PREV_COVERAGE;
}

static const struct bt_visitor visitor = { .coverage = on_coverage };
static uint8_t pl[4096];

static int feed(struct bt_decoder *d, unsigned type, uint64_t seq, const uint8_t *b, size_t n)
{
	return bt_dec_frame(d, pl, wire_frame_build(pl, sizeof(pl), type, 0, seq, b, n));
}

static int meta_version(uint64_t version)
{
	static struct bt_decoder d;
	uint8_t meta[16], b[16];
	static const uint8_t one[] = { 0x01 };
	struct wire_out m;
	int rc;

	wire_out_init(&m, meta, sizeof(meta));
	wire_out_varint(&m, WIRE_META_VERSION);
	wire_out_varint(&m, version);
	bt_dec_init(&d, &visitor, NULL);
	d.quiet = 1;
	cov8 = cov9 = 0;
	rc = feed(&d, WIRE_FRAME_META, 0, meta, m.len);
	feed(&d, WIRE_FRAME_PREV_COVERAGE, 0, b, body(b, 0, 8, one, 1));
	feed(&d, WIRE_FRAME_COVERAGE, 0, b, body(b, 0, 8, one, 1));
	feed(&d, WIRE_FRAME_COVERAGE, 2, b, body(b, 0, 8, one, 1));
	if (!rc)	/* a stream refused is not read on (bt_decode_file stops) */
		tap_ok(cov8 == 2 && cov9 == 1 && d.coverage_frames == 3 && d.seq_gaps == 1,
		       "version %llu: types 8 and 9 reach the visitor, a gap in type 8's seqs "
		       "counted", (unsigned long long)version);
	bt_dec_free(&d);
	return rc;
}

int main(void)
{
	test_bits();
	tap_ok(meta_version(2) == 0, "metadata version 2 read");
	tap_ok(meta_version(3) == 0, "metadata version 3 (coverage) read");
	tap_ok(meta_version(4) == 0, "metadata version 4 (caller slots) read");
	tap_ok(meta_version(WIRE_VERSION_MAX + 1) == -1, "metadata of a later version refused");
	return tap_done();
}
