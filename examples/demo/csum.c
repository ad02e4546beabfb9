/*
 * examples/demo/csum.c: checksums for records and data blocks.
 *
 *   CRC-16/CCITT-FALSE  poly 0x1021, init 0xffff, not reflected: per text
 *                       record, as a serial link would append it.
 *   CRC-32 (IEEE)       poly 0xedb88320 reflected, table driven: blocks.
 *   Fletcher-32         16-bit little-endian words: a second, cheap
 *                       digest of the raw block.
 *
 * Each function works on a whole buffer: a per-byte function would make
 * a traced run record thousands of calls and bury the pipeline's shape.
 * Check values (from the algorithms' definitions) for "123456789":
 * CRC-16 0x29b1, CRC-32 0xcbf43926; Fletcher-32 of "abcde" 0xf04fc729.
 */
#include "demo.h"

/* Filled once by csum_init() on CPU 0 before any worker starts, then
 * read-only; smp_start() publishes it to the other CPUs with the job. */
static uint32_t csum_crc32_table[256];

DEMO_FN void csum_init(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xedb88320U : c >> 1;
		csum_crc32_table[i] = c;
	}
}

/* Start with crc = 0xffff; pass the result back in to continue. */
DEMO_FN uint16_t csum_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int k;

	while (len--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (k = 0; k < 8; k++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021)
					     : (uint16_t)(crc << 1);
	}
	return crc;
}

/* Start with crc = 0; pass the result back in to continue (the
 * inversions are inside, as in zlib's crc32()). */
DEMO_FN uint32_t csum_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--)
		crc = csum_crc32_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* An odd trailing byte counts as a word with a zero high byte. */
DEMO_FN uint32_t csum_fletcher32(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t a = 0xffff, b = 0xffff;
	size_t words = (len + 1) / 2;

	while (words) {
		/* 359 words is the most that cannot overflow 32 bits
		 * between reductions (from the sums' worst case). */
		size_t n = words < 359 ? words : 359;

		words -= n;
		while (n--) {
			uint32_t w = p[0];

			if (len > 1)
				w |= (uint32_t)p[1] << 8;
			p += 2;
			len = len > 1 ? len - 2 : 0;
			a += w;
			b += a;
		}
		a = (a & 0xffff) + (a >> 16);
		b = (b & 0xffff) + (b >> 16);
	}
	a = (a & 0xffff) + (a >> 16);
	b = (b & 0xffff) + (b >> 16);
	return b << 16 | a;
}

/* Check the three against their published check values, so a broken
 * table or a miscompile shows up as itself and not as "wrong digest". */
DEMO_FN int csum_selftest(void)
{
	static const char check[] = "123456789";

	if (csum_crc16(0xffff, check, 9) != 0x29b1 ||
	    csum_crc32(0, check, 9) != 0xcbf43926U ||
	    csum_fletcher32("abcde", 5) != 0xf04fc729U)
		return -1;
	return 0;
}
