/*
 * examples/events/main.c: an application's own tracepoint, a probe of
 * its own, and the standard recorder.
 *
 *   make APP=examples/events run-direct
 *
 * The event is declared, defined and fired in this one file; in a larger
 * program TP_DECLARE goes in a header and TP_DEFINE in one .c file.
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

TP_DECLARE(app, reading);
TP_DEFINE(app, reading,
	  TP_FIELD(U32, channel, "%u"),
	  TP_FIELD(S32, millivolts, "%d"),
	  TP_STRING(unit, 4));

static int __attribute__((noinline)) sample(uint32_t channel)
{
	int mv = (int)(channel * 125) - 300;

	/* One NOP here until a probe attaches. */
	trace_event(app, reading, channel, mv, "mV");
	return mv;
}

static uint64_t low_readings;

/* A probe: fields[] holds the values in declaration order. Built without
 * FP/SIMD and attached so (TP_PROBE_NO_FPSIMD), the site calls it with
 * a direct BL; a probe attached with tp_probe_attach may use floating
 * point and is called through tp_iterate_fp, which keeps the caller's. */
static __attribute__((target("general-regs-only")))
void count_low(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev;
	if ((int32_t)fields[1] < 0)
		low_readings++;
}

int main(int argc, char **argv)
{
	const struct tp_event *ev = &tp_ev_app_reading;

	(void)argc, (void)argv;
	for (uint32_t ch = 0; ch < 8; ch++)
		sample(ch);	/* nothing attached: not counted */

	tp_probe_attach_flags(ev, count_low, TP_PROBE_NO_FPSIMD);	/* a direct BL */
	tp_set_filter("app:reading", "channel!=0");
	tp_enable("app:*", 1);			/* + the recorder: tp_iterate */
	for (uint32_t ch = 0; ch < 8; ch++)
		sample(ch);
	tp_enable("app:*", 0);
	tp_probe_detach(ev, count_low);

	printf("events: %lu low readings while the probe was attached "
	       "(7 of 8 readings recorded: channel 0 filtered out)\n",
	       (unsigned long)low_readings);
	return low_readings == 3 ? 0 : 1;
}
