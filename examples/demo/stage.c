/*
 * examples/demo/stage.c: the four stages one sample goes through.
 *
 *   acquire -> filter -> classify -> record
 *
 * Each stage is one function so a trace shows the pipeline's shape and
 * where its time goes. Only CPU 0 runs these, in thread context.
 */
#include <stdio.h>
#include <string.h>

#include "demo.h"

#define STAGE_POLL_US 1000	/* between looks until the tick runs */

/* Wait for the next sample: from the tick if it comes in time, else
 * produced here. Between looks the CPU waits for its next tick in WFI,
 * which is when a sample arrives: a spin would waste power, and under
 * QEMU -icount it would have to execute one instruction per nanosecond
 * of the wait. time_wait_tick() spins, bounded, until the tick is seen
 * to run, so a missing timer costs time, never a hang. Returns 0, or -1
 * if even the fallback produced nothing (the run is longer than the
 * sensor's limit). */
DEMO_FN int stage_acquire(struct pipeline *p, struct sample *out)
{
	uint64_t deadline = time_ns() + (uint64_t)p->wait_us * 1000;

	for (;;) {
		/* Read before the look: a tick (and its sample) after the
		 * look ends the wait below at once. */
		uint64_t tick = time_ticks();

		if (pipeline_poll(p, out) == 0)
			return 0;
		if (p->wait_us == 0) {
			/* Already fell back: make one and take it. */
			if (sensor_fallback() < 0)
				return -1;
			continue;
		}
		if (time_ns() >= deadline) {
			sensor_take_over();
			p->wait_us = 0;
			continue;
		}
		time_wait_tick(tick, STAGE_POLL_US);
	}
}

DEMO_FN milli_c stage_filter(struct pipeline *p, const struct sample *s)
{
	milli_c v = filter_apply(&p->filter, s->raw);

	if (p->done == 0 || v < p->min)
		p->min = v;
	if (p->done == 0 || v > p->max)
		p->max = v;
	p->filtered = v;
	return v;
}

DEMO_FN enum fsm_state stage_classify(struct pipeline *p, milli_c filtered)
{
	return fsm_step(&p->fsm, filtered);
}

/* Format the record and fold it into the run's checksums, as firmware
 * would before logging or sending it. */
DEMO_FN int stage_record(struct pipeline *p, const struct sample *s,
			 milli_c filtered, enum fsm_state state)
{
	char line[FMT_RECORD_MAX];
	int n = fmt_record(line, sizeof(line), s, filtered, state);

	if (n < 0)
		return -1;
	p->records_crc16_xor ^= csum_crc16(0xffff, line, (size_t)n);
	p->records_crc32 = csum_crc32(p->records_crc32, line, (size_t)n);
	memcpy(p->last_record, line, (size_t)n + 1);
	if (p->verbose)
		printf("demo: %s\n", line);
	return 0;
}
