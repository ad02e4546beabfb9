/*
 * test/target/scenario_busy.c: busy MS, a CPU-bound application.
 *
 * CPU 0 (main) computes for MS milliseconds of counter time, calling
 * traced functions, and never waits; the other CPUs stay idle (in WFI)
 * and take only their ticks. Then it prints how many ticks each CPU
 * took meanwhile, read by test/icount_runs.py:
 *   busy: N calls in MS ms, sum S
 *   busy: ticks per CPU in MS ms: T0 T1 T2 T3
 * Under QEMU 7.2's -icount one such CPU used to starve the next one in
 * QEMU's round-robin of every tick (issue 39; kernel/smp/time.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <baretrace.h>

#include "barrier.h"
#include "percpu.h"
#include "target.h"

#define NOIPA __attribute__((noipa))

/* Traced, small and pure: the work is calls, as an application's.
 * busy_round is called about a hundred times a millisecond of counter
 * time (shift=4), busy_step and busy_mix 256 times as often. */
NOIPA uint32_t busy_mix(uint32_t x) { return x * 2654435761u + (x >> 13); }
NOIPA uint32_t busy_step(uint32_t acc, uint32_t i) { return busy_mix(acc ^ i) + (uint32_t)tt_alpha((int)i); }

NOIPA uint32_t busy_round(uint32_t acc, uint32_t base)
{
	for (uint32_t k = 0; k < 256; k++)
		acc = busy_step(acc, base + k);
	return acc;
}

int scenario_busy(const char *ms_arg)
{
	char *end;
	unsigned long ms = strtoul(ms_arg, &end, 0);
	unsigned int n = smp_num_cpus();
	uint64_t before[NR_CPUS], calls = 0;
	uint32_t acc = 1;

	if (*end || ms == 0 || ms > 600000) {
		printf("busy: bad duration '%s' (milliseconds, 1 to 600000)\n", ms_arg);
		return 2;
	}
	for (unsigned int c = 0; c < n; c++)
		before[c] = READ_ONCE(cpu_data(c)->ticks);
	uint64_t stop = time_ns() + (uint64_t)ms * 1000000;

	for (; time_ns() < stop; calls += 256)
		acc = busy_round(acc, (uint32_t)calls);
	printf("busy: %lu calls in %lu ms, sum %08x\n", (unsigned long)calls, ms, acc);
	printf("busy: ticks per CPU in %lu ms:", ms);
	for (unsigned int c = 0; c < n; c++)
		printf(" %lu", (unsigned long)(READ_ONCE(cpu_data(c)->ticks) - before[c]));
	printf("\n");
	return 0;
}
