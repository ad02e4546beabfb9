/*
 * examples/demo/sensor_model.c: what the synthetic sensor reads.
 *
 * A reading depends only on its sequence number and the seed: a scripted
 * temperature profile plus hash noise plus an occasional glitch. No
 * state, so any context may call it and a dropped or repeated sample
 * number always gives the same reading.
 */
#include "demo.h"

/* The profile: level goes linearly from 'from' to 'to' over the samples
 * before 'until'. Tuned so the filtered value walks the state machine
 * through every state once and ends idle. */
struct sensor_segment {
	uint32_t until;
	milli_c from, to;
};
static const struct sensor_segment sensor_profile[] = {
	{  8, 22000, 22000 },	/* idle at room temperature */
	{ 16, 22000, 62000 },	/* heater on: warming */
	{ 24, 62000, 62000 },	/* stable: measuring */
	{ 30, 92000, 92000 },	/* runaway: alarm */
	{ 36, 50000, 50000 },	/* heater cut: cooldown */
	{ UINT32_MAX, 21000, 21000 },	/* back to idle */
};

#define SENSOR_GLITCH_EVERY 9	/* one-sample spike, for the median */
#define SENSOR_GLITCH	    30000
#define SENSOR_NOISE	    300		/* +/- milli-degrees */

/* A 32-bit integer mixer: every input bit flips about half the output.
 * The constants are the published "lowbias32" pair from Chris Wellons'
 * hash prospector (public domain). */
DEMO_FN static uint32_t sensor_hash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

DEMO_FN static milli_c sensor_wave(uint32_t seq)
{
	const struct sensor_segment *g = sensor_profile;
	uint32_t start = 0;

	while (seq >= g->until) {
		start = g->until;
		g++;
	}
	if (g->from == g->to)
		return g->from;
	return g->from + (g->to - g->from) * (int32_t)(seq - start) /
			 (int32_t)(g->until - start);
}

DEMO_FN static milli_c sensor_noise(uint32_t seed, uint32_t seq)
{
	uint32_t h = sensor_hash(seed ^ (seq * 0x9e3779b9U));

	return (milli_c)(h % (2 * SENSOR_NOISE + 1)) - SENSOR_NOISE;
}

/* The reading number 'seq' of the sensor with this seed. */
DEMO_FN void sensor_make_sample(uint32_t seed, uint32_t seq,
				struct sample *out)
{
	milli_c v = sensor_wave(seq) + sensor_noise(seed, seq);

	if (seq % SENSOR_GLITCH_EVERY == SENSOR_GLITCH_EVERY - 1)
		v += SENSOR_GLITCH;
	out->seq = seq;
	out->raw = v;
}
