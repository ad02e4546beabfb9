/* test/bench/hooks.c: -finstrument-functions hooks that return at once
 * while tracing is off, as such tracers do. */
#include <baretrace_trace.h>

#include "bench.h"

volatile int bench_instrument_on;
static unsigned long instrument_events;

#define HOOK __attribute__((no_instrument_function)) notrace

HOOK void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
	if (bench_instrument_on)
		instrument_events++;
}

HOOK void __cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
	if (bench_instrument_on)
		instrument_events++;
}
