/* test/target/test_api_mem.c: the MMIO accessors on RAM (every width, in
 * little-endian order), data cache maintenance ranges
 * (include/baretrace/cache.h) and the delays. The accessors on a real
 * device: test_api_device.c. */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>

#include "api_cache.h"
#include "barrier.h"
#include "ktest.h"

KTEST(api_mmio_widths_and_byte_order)
{
	static uint64_t cell[2];
	volatile uint8_t *p = (volatile uint8_t *)cell;
	uint8_t bytes[16];

	bt_write64(0x8877665544332211ULL, p);
	bt_write32_relaxed(0xddccbbaaU, p + 8);
	bt_write16(0xeeffU, p + 12);
	bt_write8(0x99, p + 14);
	bt_write8_relaxed(0, p + 15);
	memcpy(bytes, cell, sizeof(bytes));	/* the memory, read another way */
	static const uint8_t want[16] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
					  0xaa, 0xbb, 0xcc, 0xdd, 0xff, 0xee, 0x99, 0x00 };
	KT_EXPECT(t, !memcmp(bytes, want, sizeof(want)));

	KT_EQ(t, bt_read8(p + 3), 0x44);
	KT_EQ(t, bt_read16(p + 2), 0x4433);
	KT_EQ(t, bt_read32(p + 4), 0x88776655U);
	KT_EQ(t, bt_read64(p), 0x8877665544332211ULL);
	KT_EQ(t, bt_read8_relaxed(p + 14), 0x99);
	KT_EQ(t, bt_read16_relaxed(p + 12), 0xeeff);
	KT_EQ(t, bt_read32_relaxed(p + 8), 0xddccbbaaU);
	KT_EQ(t, bt_read64_relaxed(p + 8), 0x0099eeffddccbbaaULL);
}

KTEST(api_dcache_line_is_ctr_el0_dminline)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	KT_EQ(t, bt_dcache_line(), 4UL << ((ctr >> 16) & 0xf));
	KT_EXPECT(t, bt_dcache_line() >= 16 && bt_dcache_line() <= 2048);
}

KTEST(api_dcache_range_edges)
{
	struct cache_range r;

	/* Aligned: no partial line. */
	KT_EQ(t, cache_range_lines(0x1000, 128, 64, &r), 0);
	KT_EQ(t, r.first, 0x1000);
	KT_EQ(t, r.end, 0x1080);
	KT_EXPECT(t, !r.head_partial && !r.tail_partial);
	/* Unaligned both ends: 0x1010..0x1090 touches 0x1000, 0x1040, 0x1080. */
	KT_EQ(t, cache_range_lines(0x1010, 128, 64, &r), 0);
	KT_EQ(t, r.first, 0x1000);
	KT_EQ(t, r.end, 0x1090);
	KT_EXPECT(t, r.head_partial && r.tail_partial);
	/* Inside one line. */
	KT_EQ(t, cache_range_lines(0x1004, 8, 64, &r), 0);
	KT_EXPECT(t, r.head_partial && r.tail_partial && r.end - r.first < 64);
	/* Wraps: refused. */
	KT_EQ(t, cache_range_lines(UINTPTR_MAX - 8, 64, 64, &r), -1);
	KT_EQ(t, bt_dcache_inval((void *)(UINTPTR_MAX - 8), 64), -1);
	KT_EQ(t, bt_dcache_clean(NULL, 0), 0);
}

/* On a board with caches (the Pi), a plain DC IVAC on the partial first
 * and last lines would throw away the neighbours' dirty bytes; the API
 * cleans those lines instead. QEMU models no data cache, so there this
 * shows only that the calls keep memory intact. */
KTEST(api_dcache_inval_keeps_partial_line_neighbours)
{
	static uint8_t buf[512] __attribute__((aligned(256)));
	size_t line = bt_dcache_line();
	uint8_t *mid = buf + line + 8;
	size_t len = 2 * line;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)i;
	KT_EQ(t, bt_dcache_clean(buf, sizeof(buf)), 0);	/* in memory now */
	mid[-1] = 0xa5;		/* dirty neighbours in the partial lines */
	mid[len] = 0x5a;
	KT_EQ(t, bt_dcache_inval(mid, len), 0);
	KT_EQ(t, mid[-1], 0xa5);
	KT_EQ(t, mid[len], 0x5a);
	for (size_t i = 0; i < len; i++)
		if (mid[i] != (uint8_t)(mid - buf + i))
			return (void)KT_EQ(t, mid[i], (uint8_t)(mid - buf + i));
	KT_EQ(t, bt_dcache_clean_inval(buf, sizeof(buf)), 0);
	KT_EQ(t, buf[100], 100);
}

/* Each delay lasts at least what was asked, by the generic counter. */
KTEST(api_delays_last_at_least_what_was_asked)
{
	static const uint64_t us[] = { 1, 7, 100, 1500 };
	uint64_t hz = time_counter_hz();

	for (unsigned int i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		uint64_t c0 = time_counter();

		time_delay_us(us[i]);
		uint64_t took = time_counter() - c0;

		if (!KT_EXPECT(t, took * 1000000 >= us[i] * hz))
			return;
	}
	uint64_t c0 = time_counter();

	time_delay_ms(3);
	KT_EXPECT(t, (time_counter() - c0) * 1000 >= 3 * hz);
	time_delay_us(0);	/* returns */
}
