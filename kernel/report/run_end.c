/*
 * kernel/report/run_end.c: ending a run that does not end by itself.
 *
 *  - watchdog=SECONDS[,reset] (kernel parameter): SECONDS after main()
 *    starts, the first CPU whose timer tick still runs reports every
 *    CPU (as the break key does), dumps the trace and ends the run with
 *    RUN_HANG; with ",reset" it resets the board as a hardware watchdog
 *    would (RUN_WATCHDOG, "(watchdog)" on the final line, and the next
 *    boot says so: persist.h).
 *  - The host's end request (docs/serial-line.md): the console's receive
 *    interrupt calls run_end_request, which does the same with the
 *    outcome the host named (RUN_INTERRUPT for Ctrl-C, RUN_HANG for the
 *    host's time limit).
 *
 * One report at a time (hang_report_begin): a request that finds a
 * break or lockup report running is left pending, and the next tick on
 * any CPU takes it. Built without patch sites: it runs in every tick.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>
#include "barrier.h"
#include "bootargs.h"
#include "hang.h"
#include "hooks.h"
#include "kfmt.h"
#include "kprintf.h"
#include "ktime.h"
#include "power.h"

#define WATCHDOG_MAX_S	86400

static unsigned long watchdog_s;	/* 0: off */
static bool watchdog_reset;
/* Counter value at which the watchdog fires: set once at KINIT_LATE. */
static uint64_t watchdog_at;
/* enum run_outcome of a request not yet served, 0 for none (RUN_EXIT is
 * never asked for): set by the receive interrupt, taken by whoever
 * reports (compare-and-swap, so exactly once). */
static unsigned int pending;

static int param_watchdog(const char *val)
{
	unsigned long v = 0;
	const char *p = val;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && v <= WATCHDOG_MAX_S)
		v = v * 10 + (unsigned long)(*p++ - '0');
	if (v == 0 || v > WATCHDOG_MAX_S)
		return -1;
	if (*p == ',') {
		const char *w = "reset";

		for (p++; *w && *p == *w; p++, w++)
			;
		if (*w)
			return -1;
		watchdog_reset = true;
	}
	if (*p)
		return -1;
	watchdog_s = v;
	return 0;
}
KERNEL_PARAM("watchdog", param_watchdog,
	     "SECONDS[,reset]: end the run as a hang (reset: a watchdog reset) that long "
	     "after main() starts, with a report of every CPU and the trace");

/* Takes the pending request, if any: its outcome, else 0. */
static unsigned int take_pending(void)
{
	unsigned int o = __atomic_load_n(&pending, __ATOMIC_ACQUIRE);

	while (o && !__atomic_compare_exchange_n(&pending, &o, 0, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
		;
	return o;
}

static void serve(unsigned int outcome)
{
	hang_end_run((enum run_outcome)outcome, outcome == RUN_HANG ? "hang" : "interrupt",
		     outcome == RUN_HANG ? "the host's time limit passed (end request)" :
		     "the host asked the run to end (end request)", false);
}

void run_end_request(enum run_outcome outcome)
{
	if ((outcome != RUN_HANG && outcome != RUN_INTERRUPT) || power_ending())
		return;
	__atomic_store_n(&pending, (unsigned int)outcome, __ATOMIC_RELEASE);
	if (!hang_report_begin())
		return;		/* a report runs: the next tick serves it */
	unsigned int o = take_pending();

	if (o)
		serve(o);
	hang_report_end();
}

static void run_end_tick(unsigned int cpu, uint64_t tick)
{
	static bool fired;	/* the watchdog: set once, by the reporter */

	(void)cpu;
	(void)tick;
	bool due = watchdog_at && !READ_ONCE(fired) && counter_read() >= watchdog_at;

	if ((!due && !__atomic_load_n(&pending, __ATOMIC_RELAXED)) || power_ending())
		return;
	if (!hang_report_begin())
		return;		/* another report runs: a later tick */
	unsigned int o = take_pending();

	if (o)
		serve(o);
	if (due && !fired) {
		char why[64];

		fired = true;
		ksnprintf(why, sizeof(why), "no end within watchdog=%lu s", watchdog_s);
		hang_end_run(watchdog_reset ? RUN_WATCHDOG : RUN_HANG, "watchdog", why,
			     watchdog_reset);
	}
	hang_report_end();
}

static void run_end_init(void)
{
	if (watchdog_s)
		watchdog_at = counter_read() + watchdog_s * time_counter_hz();
	time_tick_hook(run_end_tick);
}
KERNEL_INIT(run_end_init, KINIT_LATE);
