/*
 * test/apps/probe_stress/work_demo.c: the demo's group (stress.h): what
 * its pipeline does to one sensor's 48 samples (examples/demo: sample,
 * queue, filter, state machine, text record, checksums), and one data
 * block filled, run-length coded and decoded, as its workers do. Every
 * value lives on the caller's stack, so CPUs may run it together.
 */
#include <stdint.h>
#include <string.h>

#include "demo.h"

#include "stress.h"

#define DEMO_SEED	0x5eedu
#define DEMO_SAMPLES	48	/* the demo's: its sensor profile's length */
#define DEMO_BLOCK	256

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

static uint64_t demo_slice(void)
{
	struct spsc_ring ring;
	struct filter filter;
	struct fsm fsm;
	struct sample s, o;
	char text[FMT_RECORD_MAX];
	uint8_t blk[DEMO_BLOCK], rle[2 * DEMO_BLOCK], back[DEMO_BLOCK];	/* RLE: 2x at worst */
	uint32_t crc32 = 0;
	uint16_t crc16 = 0;
	uint64_t h = 0xcbf29ce484222325ull;

	spsc_init(&ring);
	filter_init(&filter);
	fsm_init(&fsm);
	for (uint32_t seq = 0; seq < DEMO_SAMPLES; seq++) {
		sensor_make_sample(DEMO_SEED, seq, &s);
		h = mix(h, (uint64_t)spsc_push(&ring, &s));
		h = mix(h, (uint64_t)spsc_pop(&ring, &o));
		milli_c f = filter_apply(&filter, o.raw);
		enum fsm_state st = fsm_step(&fsm, f);
		int n = fmt_record(text, sizeof(text), &o, f, st);

		h = mix(mix(mix(h, (uint32_t)o.raw), (uint32_t)f), (uint64_t)st);
		if (n > 0) {
			crc32 = csum_crc32(crc32, text, (size_t)n);
			crc16 ^= csum_crc16(0xffff, text, (size_t)n);
		}
	}
	h = mix(mix(mix(h, crc32), crc16), fsm.transitions | (uint64_t)fsm.visited << 32);
	block_fill(DEMO_SEED, blk, sizeof(blk));
	size_t len = block_rle_encode(blk, sizeof(blk), rle, sizeof(rle));
	size_t got = block_rle_decode(rle, len, back, sizeof(back));

	h = mix(mix(h, len), got);
	h = mix(h, csum_fletcher32(blk, sizeof(blk)));
	h = mix(h, csum_crc32(0, rle, len));
	return mix(h, (uint64_t)(got == sizeof(blk) && !memcmp(blk, back, sizeof(blk))));
}

static const char *const demo_funcs[] = {
	"sensor_make_sample", "sensor_hash", "sensor_wave", "sensor_noise",
	"spsc_push", "spsc_pop",
	"filter_apply", "filter_median", "filter_sort_window", "filter_moving_avg", "filter_iir",
	"fsm_step", "fsm_enter", "fsm_on_idle", "fsm_on_warming", "fsm_on_measuring",
	"fsm_on_alarm", "fsm_on_cooldown", "fsm_state_name",
	"fmt_fixed", "fmt_record",
	"csum_crc16", "csum_crc32", "csum_fletcher32",
	"block_rand", "block_fill", "block_rle_encode", "block_rle_decode",
	NULL,
};

const struct stress_group stress_demo = {
	.name = "demo", .slice = demo_slice, .setup = csum_init, .funcs = demo_funcs,
};
