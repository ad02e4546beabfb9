/*
 * examples/demo/pipeline.c: the sample loop on CPU 0.
 *
 * Runs a fixed number of samples, so the results do not depend on the
 * tick rate; the tick only decides when each sample arrives (about one
 * tick period apart, 10 ms at the default 100 Hz).
 */
#include <string.h>

#include "demo.h"

/* Wait this many tick periods for a sample before producing it here. */
#define PIPELINE_WAIT_TICKS 3

DEMO_FN void pipeline_init(struct pipeline *p, uint32_t samples, int verbose)
{
	memset(p, 0, sizeof(*p));
	spsc_init(&p->ring);
	filter_init(&p->filter);
	fsm_init(&p->fsm);
	p->want = samples;
	p->verbose = verbose;
}

DEMO_FN static uint32_t pipeline_wait_us(void)
{
	unsigned int hz = time_tick_hz();

	if (hz == 0)
		return 0;		/* no tick: produce samples at once */
	return PIPELINE_WAIT_TICKS * 1000000u / hz;
}

/* The consumer end of the ring; one call per look. The backlog it sees
 * shows how far the pipeline falls behind the tick, e.g. when printing
 * every record or when tracing slows it down. */
DEMO_FN int pipeline_poll(struct pipeline *p, struct sample *out)
{
	uint32_t waiting = spsc_count(&p->ring);

	if (waiting > p->ring_peak)
		p->ring_peak = waiting;
	return spsc_pop(&p->ring, out);
}

DEMO_FN static int pipeline_step(struct pipeline *p)
{
	struct sample s;
	milli_c v;
	enum fsm_state state;

	if (stage_acquire(p, &s) < 0)
		return -1;
	if (s.seq != p->done)
		return -1;	/* lost or reordered: the ring is broken */
	v = stage_filter(p, &s);
	state = stage_classify(p, v);
	if (stage_record(p, &s, v, state) < 0)
		return -1;
	p->done++;
	return 0;
}

/* Returns 0 when every sample went through, -1 on the first failure. */
DEMO_FN int pipeline_run(struct pipeline *p)
{
	int err = 0;

	p->wait_us = pipeline_wait_us();
	sensor_init(&p->ring, 0x5eed1234u, p->want);
	if (p->wait_us == 0 || sensor_start() < 0) {
		sensor_take_over();
		p->wait_us = 0;
	}
	while (p->done < p->want && err == 0)
		err = pipeline_step(p);
	sensor_stop();
	return err;
}
