/*
 * test/target/scenario_reset.c: a run that resets itself in the middle of
 * traced work, for the trace kept across a reset (trace/output/prev.h;
 * test/reset_scenarios.py reads the capture).
 *
 * Booted with trace=function trace_filter=rs_*. The first boot (it finds
 * no previous trace) calls rs_alpha and rs_beta RS_CALLS times each on
 * CPU 0 while CPU 1 keeps calling rs_spin, then rs_last once, and resets
 * through PSCI SYSTEM_RESET at once (no drain, no end-of-stream frame:
 * what a watchdog does). The second boot knows it is the second from
 * what it found in the region, calls rs_after RS_CALLS times and powers
 * off. 'spoil=crc' or 'spoil=image' damages the header before the reset,
 * as a damaged region or another image would, and 'spoil=rings_off'
 * points its ring state 1 TiB away with the CRC made valid again, as a
 * scribble might, so the second boot must refuse it (and still reach
 * main); 'spoil=books' makes CPU 0's counters impossible (more
 * overwritten than stored), so the second boot must refuse CPU 0's ring
 * state alone and still send CPU 1's blocks; 'spoil=block' damages CPU 0's oldest complete block, which
 * the second boot must drop and count.
 */
#include <stdio.h>
#include <string.h>

#include <baretrace.h>

#include "barrier.h"
#include "power.h"
#include "output/prev.h"
#include "target.h"

#define RS_CALLS	300

static volatile int rs_sink;

int __attribute__((noinline)) rs_alpha(int x) { rs_sink += x; return rs_sink; }
int __attribute__((noinline)) rs_beta(int x) { rs_sink ^= x; return rs_sink; }
int __attribute__((noinline)) rs_spin(int x) { rs_sink = x; return x + 1; }
int __attribute__((noinline)) rs_last(int x) { rs_sink -= x; return rs_sink; }
int __attribute__((noinline)) rs_after(int x) { rs_sink |= x; return rs_sink; }

static volatile int spin_calls;

static void spin_forever(void *arg)
{
	int x = 0;

	(void)arg;
	for (;;) {
		x = rs_spin(x);
		WRITE_ONCE(spin_calls, spin_calls + 1);
	}
}

int scenario_reset(const char *opt)
{
	enum prev_found f = prev_found();

	if (f == PREV_NONE) {
		if (smp_num_cpus() > 1) {
			smp_start(1, spin_forever, NULL);
			/* CPU 1's records are in its ring before the reset,
			 * however the host schedules the two vCPUs. */
			while (READ_ONCE(spin_calls) < 100)
				;
		}
		for (int i = 0; i < RS_CALLS; i++) {
			rs_alpha(i);
			rs_beta(i);
		}
		if (opt && !strcmp(opt, "spoil=crc"))
			prev_spoil_for_test(PREV_SPOIL_CRC);
		else if (opt && !strcmp(opt, "spoil=image"))
			prev_spoil_for_test(PREV_SPOIL_IMAGE);
		else if (opt && !strcmp(opt, "spoil=rings_off"))
			prev_spoil_for_test(PREV_SPOIL_RINGS_OFF);
		else if (opt && !strcmp(opt, "spoil=books"))
			prev_spoil_for_test(PREV_SPOIL_BOOKS);
		else if (opt && !strcmp(opt, "spoil=block"))
			prev_spoil_for_test(PREV_SPOIL_BLOCK);
		printf("reset: first boot: %d calls each of rs_alpha and rs_beta, "
		       "rs_spin on CPU 1, then rs_last and a reset\n", RS_CALLS);
		rs_last(1);
		hw_reset();
		printf("reset: the reset returned\n");
		return 1;
	}
	printf("reset: second boot: previous boot %lu (%s)\n",
	       (unsigned long)prev_boot_number(), f == PREV_KEPT ? "kept" : "refused");
	for (int i = 0; i < RS_CALLS; i++)
		rs_after(i);
	return 0;
}
