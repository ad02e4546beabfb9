/*
 * examples/demo/sensor.c: sampling the sensor on the timer tick.
 *
 * The tick hook makes one sample per tick on CPU 0 and queues it for the
 * pipeline; if ticks never come, the pipeline calls sensor_take_over()
 * and produces the rest itself. What each reading is comes from
 * sensor_model.c and depends only on its sequence number, so the data is
 * the same on every run even though when it arrives is not.
 */
#include "demo.h"

enum sensor_mode { SENSOR_OFF, SENSOR_IRQ, SENSOR_THREAD };

/* Written by CPU 0 only (its tick interrupt or its thread, which never
 * run at once on one CPU); 'mode' is the hand-over between the two.
 * ticks[] slots are each written only by their own CPU. */
static struct {
	struct spsc_ring *ring;
	uint32_t seed;
	uint32_t next_seq;
	uint32_t limit;
	enum sensor_mode mode;
	struct sensor_stats stats;
} sensor;

/* Make the next sample and queue it. Returns 0, or -1 if the run is
 * complete or the ring is full (then the same sequence number is tried
 * again next time, so a drop never changes the data). */
DEMO_FN static int sensor_produce(void)
{
	struct sample s;

	if (sensor.next_seq >= sensor.limit)
		return -1;
	sensor_make_sample(sensor.seed, sensor.next_seq, &s);
	if (spsc_push(sensor.ring, &s) < 0) {
		sensor.stats.overruns++;
		return -1;
	}
	sensor.next_seq++;
	return 0;
}

/* The tick hook: interrupt context, every CPU. Kept to a counter and, on
 * CPU 0, one sample; no printing or allocation here. */
DEMO_FN static void sensor_tick(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	if (cpu < SENSOR_MAX_CPUS)
		demo_store_relaxed(&sensor.stats.ticks[cpu],
				   sensor.stats.ticks[cpu] + 1);
	if (cpu != 0 || demo_load_acquire(&sensor.mode) != SENSOR_IRQ)
		return;
	if (sensor_produce() == 0)
		sensor.stats.from_irq++;
}

DEMO_FN void sensor_init(struct spsc_ring *r, uint32_t seed,
			 uint32_t limit)
{
	sensor.ring = r;
	sensor.seed = seed;
	sensor.next_seq = 0;
	sensor.limit = limit;
	sensor.mode = SENSOR_OFF;
}

/* Start sampling on the tick. Returns -1 if no hook slot was free. The
 * hook stays registered (there is no way to remove one); sensor_stop()
 * turns it into a bare tick counter. */
DEMO_FN int sensor_start(void)
{
	static int hooked;

	if (!hooked && time_tick_hook(sensor_tick) < 0)
		return -1;
	hooked = 1;
	/* Release: the ring and limit set up above are visible to the
	 * interrupt before it sees SENSOR_IRQ. */
	demo_store_release(&sensor.mode, SENSOR_IRQ);
	return 0;
}

/* Called on CPU 0 in thread context: from now on the thread produces.
 * A tick on CPU 0 either ran entirely before this store or will see
 * SENSOR_THREAD, so the two never produce at once. */
DEMO_FN void sensor_take_over(void)
{
	demo_store_release(&sensor.mode, SENSOR_THREAD);
}

/* Thread-side production after sensor_take_over(). */
DEMO_FN int sensor_fallback(void)
{
	if (sensor_produce() < 0)
		return -1;
	sensor.stats.from_thread++;
	return 0;
}

DEMO_FN void sensor_stop(void)
{
	demo_store_release(&sensor.mode, SENSOR_OFF);
}

/* A snapshot for CPU 0 after sensor_stop(): the sample counters no
 * longer move, but other CPUs' tick counts still do, so those are read
 * one word at a time rather than as part of a struct copy. */
DEMO_FN void sensor_get_stats(struct sensor_stats *out)
{
	unsigned int i;

	out->from_irq = sensor.stats.from_irq;
	out->from_thread = sensor.stats.from_thread;
	out->overruns = sensor.stats.overruns;
	for (i = 0; i < SENSOR_MAX_CPUS; i++)
		out->ticks[i] = demo_load_relaxed(&sensor.stats.ticks[i]);
}
