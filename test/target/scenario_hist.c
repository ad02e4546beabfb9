/*
 * test/target/scenario_hist.c: 'histwork', the run test/hist_frames.py
 * traces with function_graph and trace_hist= on the same function: every
 * CPU calls hs_work a known number of times (CPU c: 10 + 5c calls of
 * each of three durations), so the histograms sent at the end can be
 * checked against the calls made and the graph tracer's durations.
 *
 * 'histev', the run test/hist_frames.py records and histograms at once
 * (trace_event=histev:hit trace_hist=histev:hit:val:keys=key): CPU c
 * fires histev:hit 40 + 20c times, key i % 3, value (c + 1) * i * i.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <baretrace.h>

#include "barrier.h"
#include "ktime.h"
#include "percpu.h"
#include "target.h"
#include "tracers/hist.h"

/* Spins 'ticks' counter ticks. */
__attribute__((noipa)) uint64_t hs_work(uint64_t ticks)
{
	uint64_t t0 = counter_read(), t;

	while ((t = counter_read()) - t0 < ticks)
		;
	return t - t0;
}

/* What the scenario calls hs_work through: test/hist_frames.py's second
 * run traces this one with function_graph and hs_work with trace_hist=,
 * so hs_work has the histograms alone (their entry and return in
 * assembly) and the graph tracer still times the same calls, from one
 * level up. */
__attribute__((noipa)) uint64_t hs_work_call(uint64_t ticks)
{
	return hs_work(ticks);
}

/* About 5, 25 and 100 us, each in the middle of its bucket (test_hist.c
 * says why). */
static uint64_t work_ticks(unsigned int k)
{
	static const uint64_t us[] = { 5, 25, 100 };
	unsigned int b = hist_bucket(us[k] * time_counter_hz() / 1000000);

	return b >= 2 ? 3ULL << (b - 2) : 1;
}

static volatile uint64_t made[NR_CPUS];

static void work(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	for (unsigned int k = 0; k < 3; k++)
		for (unsigned int i = 0; i < 10 + 5 * cpu; i++) {
			hs_work_call(work_ticks(k));
			made[cpu] = made[cpu] + 1;
		}
}

/* "crash" after the work: the crash report sends the histograms. */
static int end(const char *opt)
{
	if (opt && !strcmp(opt, "crash"))
		return scenario_crash("null");
	return 0;
}

int scenario_histwork(const char *opt)
{
	unsigned int ncpus = smp_num_cpus();

	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, work, (void *)(uintptr_t)c);
	work((void *)0);
	for (unsigned int c = 1; c < ncpus; c++)
		smp_wait(c);
	for (unsigned int c = 0; c < ncpus; c++)
		printf("histwork: cpu %u made %lu calls\n", c, (unsigned long)made[c]);
	return end(opt);
}

static volatile uint64_t fired[NR_CPUS];

static void fire_some(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	for (unsigned int i = 0; i < 40 + 20 * cpu; i++) {
		hev_fire(i % 3, (uint64_t)(cpu + 1) * i * i);
		fired[cpu] = fired[cpu] + 1;
	}
}

int scenario_histev(const char *opt)
{
	unsigned int ncpus = smp_num_cpus();

	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, fire_some, (void *)(uintptr_t)c);
	fire_some((void *)0);
	for (unsigned int c = 1; c < ncpus; c++)
		smp_wait(c);
	for (unsigned int c = 0; c < ncpus; c++)
		printf("histev: cpu %u fired %lu\n", c, (unsigned long)fired[c]);
	return end(opt);
}
