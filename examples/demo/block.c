/*
 * examples/demo/block.c: synthetic data blocks and their run-length code.
 *
 * A block stands in for a buffer of logged readings: runs of repeated
 * bytes whose values drift, so run-length coding shrinks it the way it
 * shrinks slowly changing sensor logs. The content comes from the seed
 * alone, so every CPU (and the check on CPU 0) builds the same block.
 *
 * RLE stream: pairs of (count 1..255, byte).
 */
#include "demo.h"

#define BLOCK_RUN_MAX 24

/* xorshift32 (Marsaglia): enough randomness for test data, one word of
 * state, and never zero for a non-zero seed. */
DEMO_FN static uint32_t block_rand(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

DEMO_FN void block_fill(uint32_t seed, uint8_t *buf, size_t len)
{
	uint32_t state = seed ? seed : 1;
	uint8_t value = (uint8_t)seed;
	size_t i = 0;

	while (i < len) {
		uint32_t r = block_rand(&state);
		size_t run = 1 + r % BLOCK_RUN_MAX;

		/* Small random walk: neighbouring runs have near values. */
		value = (uint8_t)(value + (int)((r >> 8) % 7) - 3);
		while (run-- && i < len)
			buf[i++] = value;
	}
}

/* Returns the encoded length, or 0 if 'cap' is too small. */
DEMO_FN size_t block_rle_encode(const uint8_t *in, size_t len, uint8_t *out,
				size_t cap)
{
	size_t i = 0, o = 0;

	while (i < len) {
		size_t run = 1;

		while (i + run < len && run < 255 && in[i + run] == in[i])
			run++;
		if (o + 2 > cap)
			return 0;
		out[o++] = (uint8_t)run;
		out[o++] = in[i];
		i += run;
	}
	return o;
}

/* Returns the decoded length, or 0 for a malformed stream or one that
 * does not fit in 'cap'. */
DEMO_FN size_t block_rle_decode(const uint8_t *in, size_t len, uint8_t *out,
				size_t cap)
{
	size_t i, o = 0;

	if (len % 2)
		return 0;
	for (i = 0; i < len; i += 2) {
		size_t run = in[i];

		if (run == 0 || o + run > cap)
			return 0;
		while (run--)
			out[o++] = in[i + 1];
	}
	return o;
}
