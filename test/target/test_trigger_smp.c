/*
 * test/target/test_trigger_smp.c: a counted trigger hit from every CPU
 * at once fires exactly its count (the count is claimed atomically).
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "ktest.h"
#include "target.h"
#include "tracers/tracer.h"
#include "tracers/trigger.h"

#define TRIG_COUNT	20000
#define TRIG_COUNT_STR	"20000"
#define HITS_PER_CPU	10000

static volatile int trig_go;
static volatile unsigned int trig_ready;

static void hit_beta(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&trig_ready, 1, __ATOMIC_RELAXED);
	while (!READ_ONCE(trig_go))
		cpu_relax();
	for (int i = 0; i < HITS_PER_CPU; i++)
		tt_beta(i);
}

KTEST(trigger_count_is_exact_when_hit_from_every_cpu)
{
	unsigned int n = smp_num_cpus();

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	/* No tracer: the firing records go nowhere, so the CPUs spend their
	 * time on the count itself. */
	KT_EQ(t, trace_set_triggers("tt_beta:traceon:" TRIG_COUNT_STR), 0);
	trig_go = 0, trig_ready = 0;
	for (unsigned int c = 1; c < n; c++)
		smp_start(c, hit_beta, NULL);
	while (trig_ready < n - 1)
		cpu_relax();
	WRITE_ONCE(trig_go, 1);
	hit_beta(NULL);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	KT_EQ(t, trigger_fired(0), TRIG_COUNT);
	KT_EQ(t, trace_set_triggers(""), 0);
}
