/* test/target/test_cpus.c: CPU ids, per-CPU exception state and stacks
 * after boot. */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "config.h"
#include "fault.h"
#include "ktest.h"
#include "percpu.h"
#include "target.h"

/* The CPUs that came up are exactly ids 0 .. smp_num_cpus() - 1, each
 * knowing its id, each with its own affinity: a CPU that failed to start
 * leaves no hole (test/run.py boots this with a DTB naming a CPU that
 * does not exist). */
KTEST(cpus_online_ids_are_dense)
{
	unsigned int n = smp_num_cpus();

	for (unsigned int c = 0; c < NR_CPUS; c++) {
		KT_EQ(t, READ_ONCE(cpu_data(c)->online), c < n);
		if (c >= n)
			continue;
		KT_EQ(t, cpu_data(c)->cpu, c);
		for (unsigned int d = 0; d < c; d++)
			KT_EXPECT(t, cpu_data(d)->mpidr != cpu_data(c)->mpidr);
	}
}

static unsigned int answered[NR_CPUS];	/* by id; each CPU writes its own */
static unsigned int answered_bad;

static void answer(void *arg)
{
	unsigned int id = smp_cpu_id();

	(void)arg;
	if (id < NR_CPUS)
		answered[id]++;
	if (id >= smp_num_cpus())
		__atomic_fetch_add(&answered_bad, 1, __ATOMIC_RELAXED);
}

/* Every running CPU answers a call to all, with an id below the count. */
KTEST(cpus_every_running_cpu_has_an_id_below_the_count)
{
	memset(answered, 0, sizeof(answered));
	answered_bad = 0;
	smp_call_others(answer, NULL);
	answer(NULL);
	KT_EQ(t, answered_bad, 0);
	for (unsigned int c = 0; c < smp_num_cpus(); c++)
		KT_EQ(t, answered[c], 1);
}

static uint64_t traced_on[NR_CPUS];

static void count_cpu(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		      struct trace_regs *regs)
{
	unsigned int id = this_cpu()->cpu;

	(void)ip, (void)parent, (void)ops, (void)regs;
	if (id < NR_CPUS)
		traced_on[id]++;
}

static struct trace_ops cpu_counter = { .func = count_cpu };

static void call_traced(void *arg)
{
	(void)arg;
	tt_alpha(1);
}

/* A traced function called on each CPU reaches the tracer once per CPU. */
KTEST(cpus_each_cpu_traces)
{
	unsigned int n = smp_num_cpus();

	memset(traced_on, 0, sizeof(traced_on));
	trace_ops_set_filter(&cpu_counter, "tt_alpha");
	KT_EQ(t, trace_ops_register(&cpu_counter), 0);
	call_traced(NULL);
	for (unsigned int c = 1; c < n; c++) {
		KT_EQ(t, smp_start(c, call_traced, NULL), 0);
		smp_wait(c);
	}
	KT_EQ(t, trace_ops_unregister(&cpu_counter), 0);
	for (unsigned int c = 0; c < n; c++)
		KT_EQ(t, traced_on[c], 1);
}

#define DAIF_A	(1UL << 8)

static unsigned long daif_seen[NR_CPUS];

static void read_daif(void *arg)
{
	(void)arg;
	daif_seen[smp_cpu_id()] = read_sysreg(daif) | 1;	/* | 1: was written */
}

/* In thread context SErrors are unmasked on every CPU (PSTATE.A clear),
 * so an asynchronous external abort is reported, not lost. */
KTEST(cpus_serror_unmasked_in_thread_context)
{
	unsigned int n = smp_num_cpus();

	memset(daif_seen, 0, sizeof(daif_seen));
	read_daif(NULL);
	for (unsigned int c = 1; c < n; c++) {
		KT_EQ(t, smp_start(c, read_daif, NULL), 0);
		smp_wait(c);
	}
	for (unsigned int c = 0; c < n; c++) {
		KT_EXPECT(t, daif_seen[c] & 1);
		KT_EQ(t, daif_seen[c] & DAIF_A, 0);
	}
}

/* Each CPU's stack slot: the guard page below the stack and the one
 * below the emergency stack fault; the stacks themselves do not. */
KTEST(cpus_stack_guard_pages_fault)
{
	extern uint8_t cpu_stack_area[];
	uint32_t v;

	for (unsigned int c = 0; c < NR_CPUS; c++) {
		uint8_t *slot = &cpu_stack_area[c * STACK_SLOT_SIZE];

		KT_EQ(t, fault_probe_write32(slot, 1), -1);
		KT_EQ(t, fault_probe_write32(slot + STACK_SLOT_STACK - 4, 1), -1);
		KT_EQ(t, fault_probe_read32(slot + STACK_SLOT_EMERGENCY - 4, &v), -1);
		KT_EQ(t, fault_probe_read32(slot + STACK_SLOT_STACK, &v), 0);
		KT_EQ(t, fault_probe_read32(slot + STACK_SLOT_EMERGENCY, &v), 0);
	}
	KT_EQ(t, this_cpu()->stack_top, (uintptr_t)&cpu_stack_area[STACK_SLOT_STACK + STACK_SIZE]);
}
