/*
 * trace/output/export_close.c: closing every CPU's current block so the
 * exporter can send it: during a run (export_flush, the break key) and at
 * its end (export_close), where every wait is bounded (issue 22). The
 * comment above export_close_all says how.
 */
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "export_int.h"
#include "irq.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "ring/ring.h"
#include "smp.h"

/* The end of a run: how long export_close_all watches a CPU that does
 * not answer, once it is the only one left with a block open. */
#define WATCH_US	100000

static void close_here(void *arg)
{
	(void)arg;
	ring_close_block();
}

static bool can_call_others(void)
{
	return !irq_in_interrupt() && (read_sysreg(daif) & (1 << 7)) == 0;
}

/*
 * Closes every CPU's current block: this one's here, running CPUs' in a
 * cross-CPU call (when interrupts are on), stopped CPUs' from here (they
 * run no more). A CPU inside a reservation keeps its block open; it is
 * asked again until 'us' passed. With 'final', the rings stop recording
 * first, so nothing is written after the last close (not even the
 * call's own irq events).
 *
 * Every wait here ends by 'us' (the end of a run must end, issue 22). A
 * CPU that does not answer the call (interrupts masked) is not asked
 * again, nor, with 'final', one the end's patch round already named.
 * With 'final' it is named on the console, and its block is closed from
 * here at the deadline if it wrote nothing in the second half of the
 * wait, which is WATCH_US once such CPUs are the only ones left with a
 * block open (ring_close_stuck: once the rings have ended it
 * writes no more, traced calls or not, but for the one block it may
 * have been opening). Its blocks then go out like every other CPU's; an
 * open block left (a writer caught inside a reservation) is counted in
 * the end frame's totals as still in its ring.
 */
void export_close_all(bool final, uint64_t us)
{
	uint64_t hz = time_counter_hz(), start = counter_read(), end = start + us * hz / 1000000;
	uint64_t ask_end = start + (end - start) / 2, mark_at = ask_end;
	bool ipi = can_call_others(), marked = false;
	/* At the end, the CPUs already named as not answering (the end's
	 * patch round) are not asked again: they had their second. */
	uint64_t silent = final ? smp_silent_mask() : 0, marks[NR_CPUS];

	if (final)
		ring_end();
	for (;;) {
		bool open = false, open_asked = false;
		uint64_t now = counter_read();

		/* What each writer's ring looks like at mark_at, to tell at the
		 * deadline whether it still moves. Not at once: a writer that
		 * was opening a block when the rings ended fills that one block
		 * first (ring_pause). */
		if (!marked && now >= mark_at) {
			for (unsigned int c = 0; c < smp_num_cpus(); c++)
				marks[c] = ring_writer_mark(c);
			marked = true;
		}

		ring_close_block();
		/* Calls only until ask_end: the rest of the wait is for the
		 * writers that did not answer to show whether they still move. */
		uint64_t ask = smp_others_mask() & ~silent;

		if (ipi && now < ask_end && ask) {
			uint64_t no = ask & ~smp_call_cpus_bounded(ask, close_here, NULL,
								   (ask_end - now) * 1000000 / hz);

			if (no && final)
				smp_name_silent(no, "the exporter's request to close its trace "
						"block", us / 2);
			silent |= no;
		}
		for (unsigned int c = 0; c < smp_num_cpus(); c++) {
			if (export_cpu_stopped(c))
				ring_close_block_of(c);
			/* Without a call (interrupt context, a crash), running
			 * CPUs close their blocks only at the end of the run. */
			if (!ring_is_closed(c) && (ipi || final || c == cpu_id() || export_cpu_stopped(c))) {
				open = true;
				open_asked |= !(silent & (1ULL << c));
			}
		}
		if (!open)
			return;
		/* Only CPUs that do not answer hold a block open: asking the
		 * others again is no use; watch those for WATCH_US instead of
		 * waiting out the rest of 'us'. */
		if (final && ipi && !open_asked && !marked && now < ask_end) {
			start = counter_read();
			if (end > start + WATCH_US * hz / 1000000)
				end = start + WATCH_US * hz / 1000000;
			ask_end = start;
			mark_at = start + (end - start) / 2;
		}
		if (counter_read() > end)
			break;
		/* A reservation lasts a few instructions: ask again soon
		 * (a plain wait: the kernel's delay has a patch site). */
		for (uint64_t t = counter_read() + hz / 10000; counter_read() < t;)
			cpu_relax();
	}
	if (!final || !marked)
		return;
	for (unsigned int c = 0; c < smp_num_cpus(); c++)
		if (c != cpu_id() && !ring_is_closed(c) && !ring_close_stuck(c, marks[c]))
			kprintf("cpu%u: its last trace block stays open (it is still "
				"writing, or inside a record); counted as lost\n", c);
}
