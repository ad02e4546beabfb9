/*
 * test/target/test_wire_line.c: the exporter's one-pass frames
 * (wire_line_*) built on the target's CPU, where the CRC comes from the
 * CRC32 instructions (a word, then 4, 2 and 1 bytes for a piece's end:
 * paths the host's test of the same code never runs), against the
 * definition written out here: the CRC-32 bit by bit, the head's
 * varints, every byte XOR 0xE0, then STX, 02, 03 and 10 as DLE and the
 * byte XOR 20, ETX. Bodies of every length up to 300 and a few near a
 * ring block, cut in two pieces anywhere.
 */
#include <stdint.h>
#include <string.h>

#include "kprintf.h"
#include "ktest.h"
#include "wire.h"
#include "wire_crc.h"
#include "wire_line.h"
#include "../wire_line_ref.h"

#define BODY_MAX	1100

static uint8_t body[BODY_MAX + 8], pl[BODY_MAX + 32], want[WIRE_ESCAPED_MAX(BODY_MAX + 32)],
	got[WIRE_ESCAPED_MAX(BODY_MAX + 32)];
static uint64_t rng = 0x853c49e6748fea9bULL;

static uint32_t next_rand(void)
{
	return ref_rand(&rng);
}

static int one(size_t n, size_t off)
{
	uint8_t *p = body + off;
	struct wire_line l;
	uint64_t seq = next_rand() >> (next_rand() % 32);
	size_t cut = n ? next_rand() % (n + 1) : 0;

	for (size_t i = 0; i < n; i++) {
		uint32_t r = next_rand();

		/* Mostly small bytes, as records are; now and then one that
		 * is special on the line (e2, e3, f0) or next to one. */
		p[i] = (r & 0x700) ? (uint8_t)(r & 0x1f) : (uint8_t)(0xe0 + (r & 0x13));
	}
	size_t w = ref_line(want, pl, 1, 1, seq, p, n);

	if (wire_line_begin(&l, got, sizeof(got), 1, 1, seq, n))
		return 1;
	wire_line_add(&l, p, cut);
	wire_line_add(&l, p + cut, n - cut);
	return wire_line_end(&l) != w || memcmp(got, want, w) != 0;
}

KTEST(wire_line_on_this_cpu_matches_the_definition)
{
	static const size_t big[] = { 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1024, 1040 };
	unsigned int bad = 0, cases = 0;

#ifdef WIRE_CRC_INSN
	kprintf("    # CRC32 instructions: %s\n", wire_crc_insn_present() ? "yes" : "no");
#endif
	for (size_t n = 0; n <= 300; n++, cases++)
		bad += one(n, n % 8);
	for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++, cases++)
		bad += one(big[i], i % 8);
	kprintf("    # %u frames\n", cases);
	KT_EQ(t, bad, 0);
}
