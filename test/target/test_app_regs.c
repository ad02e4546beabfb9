/*
 * test/target/test_app_regs.c: TPIDR_EL0 is the application's (docs/applications.md,
 * "Registers and resources an application may use"). With the
 * application's own pointer in it, every ops callback and every recorder
 * in assembly (function, function_graph, profiler) still sees every
 * call, in thread context, from an interrupt and on every CPU, and the
 * register holds the application's value afterwards and inside its
 * callbacks. Each test puts the value it found back, so the rest of the
 * suite runs as before. And the value the kernel gives it: each CPU's
 * own copy of the _Thread_local variables (kernel/cpu/tls.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "config.h"
#include "tracers/fgraph.h"
#include "ktest.h"
#include "output/export.h"
#include "percpu.h"
#include "symbols.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/profile.h"

extern char trace_rec_function[], trace_rec_graph[], trace_rec_profile[], trace_caller[];

#define CALLS	100

/* What an application's thread pointer would point at: one block per
 * CPU, so each CPU's value is its own and none is zero. */
static uint64_t app_block[NR_CPUS][2];

static uint64_t app_tp(unsigned int cpu)
{
	return (uint64_t)(uintptr_t)&app_block[cpu];
}

/* An ops that counts its calls per CPU and the calls in which TPIDR_EL0
 * did not hold that CPU's application value. */
struct app_regs_counter {
	struct trace_ops ops;
	volatile uint64_t hits[NR_CPUS];
	volatile uint64_t tp_wrong[NR_CPUS];
};

static void app_regs_count(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		     struct trace_regs *regs)
{
	struct app_regs_counter *c = (struct app_regs_counter *)ops;
	unsigned int cpu = smp_cpu_id();

	(void)ip;
	(void)parent;
	(void)regs;
	c->hits[cpu]++;
	if (read_sysreg(tpidr_el0) != app_tp(cpu))
		c->tp_wrong[cpu]++;
}

static struct app_regs_counter counter = { .ops = { .func = app_regs_count } };

static void counter_clear(void)
{
	memset((void *)counter.hits, 0, sizeof(counter.hits));
	memset((void *)counter.tp_wrong, 0, sizeof(counter.tp_wrong));
}

KTEST(app_regs_ops_callback_sees_every_call_with_tpidr_el0_set)
{
	unsigned int cpu = smp_cpu_id();
	uint64_t saved = read_sysreg(tpidr_el0), after;

	counter_clear();
	KT_EQ(t, trace_ops_set_filter(&counter.ops, "tt_alpha"), 0);
	KT_EQ(t, trace_ops_register(&counter.ops), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_caller);
	write_sysreg(tpidr_el0, app_tp(cpu));
	for (int i = 0; i < CALLS; i++)
		tt_alpha(i);
	after = read_sysreg(tpidr_el0);
	write_sysreg(tpidr_el0, saved);
	KT_EQ(t, trace_ops_unregister(&counter.ops), 0);
	KT_EQ(t, counter.hits[cpu], CALLS);
	KT_EQ(t, counter.tp_wrong[cpu], 0);	/* the callback saw the app's value */
	KT_EQ(t, after, app_tp(cpu));
}

/* The records of 'site' this CPU's ring holds, by kind. */
static struct rec recs[CHECK_MAX];

static unsigned int count_kind(unsigned int n, int site, unsigned int kind)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		k += recs[i].kind == kind && recs[i].site == (uint64_t)site;
	return k;
}

/* Traces CALLS calls of tt_alpha with 'tracer' alone on the site, which
 * must then be 'recorder', and TPIDR_EL0 = the application's value;
 * returns how many records of tt_alpha this CPU's ring holds, *after =
 * TPIDR_EL0 after the calls. */
static unsigned int record_with_tp(struct ktest_ctx *t, const char *tracer,
				   const char *recorder, uint64_t *after)
{
	unsigned int cpu = smp_cpu_id();
	uint64_t saved = read_sysreg(tpidr_el0);
	unsigned int n;

	check_reset();
	export_hold();
	trace_set_tracer(tracer);
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)recorder);
	write_sysreg(tpidr_el0, app_tp(cpu));
	for (int i = 0; i < CALLS; i++)
		tt_alpha(i);
	*after = read_sysreg(tpidr_el0);
	write_sysreg(tpidr_el0, saved);
	trace_stop();
	trace_set_tracer("nop");
	n = check_collect(cpu, recs, CHECK_MAX);
	export_release();
	return n;
}

KTEST(app_regs_function_recorder_records_with_tpidr_el0_set)
{
	uint64_t after = 0;
	unsigned int n = record_with_tp(t, "function", trace_rec_function, &after);
	int site = site_of("tt_alpha");

	KT_EQ(t, count_kind(n, site, WIRE_REC_FUNC) + count_kind(n, site, WIRE_REC_FUNC_CALLER),
	      CALLS);
	KT_EQ(t, after, app_tp(smp_cpu_id()));
}

KTEST(app_regs_graph_recorder_records_with_tpidr_el0_set)
{
	uint64_t after = 0;
	unsigned int n = record_with_tp(t, "function_graph", trace_rec_graph, &after);
	int site = site_of("tt_alpha");

	KT_EQ(t, count_kind(n, site, WIRE_REC_GRAPH_ENTRY), CALLS);
	KT_EQ(t, count_kind(n, site, WIRE_REC_EXIT), CALLS);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	KT_EQ(t, after, app_tp(smp_cpu_id()));
}

KTEST(app_regs_profiler_recorder_counts_with_tpidr_el0_set)
{
	unsigned int cpu = smp_cpu_id();
	uint64_t saved = read_sysreg(tpidr_el0), after;

	profile_reset();
	KT_EQ(t, trace_profile(true, "tt_alpha"), 0);
	KT_EQ(t, site_bl_target("tt_alpha"), (uintptr_t)trace_rec_profile);
	write_sysreg(tpidr_el0, app_tp(cpu));
	for (int i = 0; i < CALLS; i++)
		tt_alpha(i);
	after = read_sysreg(tpidr_el0);
	write_sysreg(tpidr_el0, saved);
	KT_EQ(t, trace_profile(false, NULL), 0);
	KT_EQ(t, profile_of(cpu)[site_of("tt_alpha")].calls, CALLS);
	KT_EQ(t, fgraph_stacks[cpu].top, 0);
	KT_EQ(t, after, app_tp(cpu));
}

/* ---- from an interrupt ------------------------------------------------ */

/* The tick hook stays registered (there is no unregistering); it works
 * only while a test arms it, on that test's CPU: it calls a traced
 * function and notes what TPIDR_EL0 held in the handler. */
static volatile int hook_cpu = -1;
static volatile uint32_t hook_calls, hook_tp_wrong;
static bool hook_registered;

static void app_regs_tick_hook(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	if ((int)cpu != hook_cpu)
		return;
	if (read_sysreg(tpidr_el0) != app_tp(cpu))
		hook_tp_wrong++;
	tt_beta(1);
	hook_calls++;
}

KTEST(app_regs_callback_from_an_interrupt_with_tpidr_el0_set)
{
	unsigned int cpu = smp_cpu_id();
	uint64_t saved = read_sysreg(tpidr_el0), after;

	if (!hook_registered) {
		if (time_tick_hook(app_regs_tick_hook)) {
			ktest_skip(t, "no free tick hook slot");
			return;
		}
		hook_registered = true;
	}
	counter_clear();
	hook_calls = 0;
	hook_tp_wrong = 0;
	KT_EQ(t, trace_ops_set_filter(&counter.ops, "tt_beta"), 0);
	KT_EQ(t, trace_ops_register(&counter.ops), 0);
	write_sysreg(tpidr_el0, app_tp(cpu));
	hook_cpu = (int)cpu;
	for (int i = 0; i < 5; i++)	/* five ticks, each calling tt_beta */
		time_wait_tick(time_ticks(), 1000000);
	hook_cpu = -1;
	after = read_sysreg(tpidr_el0);
	write_sysreg(tpidr_el0, saved);
	KT_EQ(t, trace_ops_unregister(&counter.ops), 0);
	KT_EXPECT(t, hook_calls >= 5);
	KT_EQ(t, counter.hits[cpu], hook_calls);
	KT_EQ(t, counter.tp_wrong[cpu], 0);
	KT_EQ(t, hook_tp_wrong, 0);	/* the interrupt did not change it either */
	KT_EQ(t, after, app_tp(cpu));
}

/* ---- on every CPU ----------------------------------------------------- */

static uint64_t tp_after[NR_CPUS];

static void calls_with_own_tp(void *arg)
{
	unsigned int cpu = smp_cpu_id();
	uint64_t saved = read_sysreg(tpidr_el0);

	(void)arg;
	write_sysreg(tpidr_el0, app_tp(cpu));
	for (int i = 0; i < CALLS; i++)
		tt_alpha(i);
	tp_after[cpu] = read_sysreg(tpidr_el0);
	write_sysreg(tpidr_el0, saved);
}

/* Every CPU at once, each with its own value: the guard is per CPU. */
KTEST(app_regs_every_cpu_keeps_its_own_tpidr_el0)
{
	unsigned int n = smp_num_cpus();

	counter_clear();
	memset(tp_after, 0, sizeof(tp_after));
	KT_EQ(t, trace_ops_set_filter(&counter.ops, "tt_alpha"), 0);
	KT_EQ(t, trace_ops_register(&counter.ops), 0);
	for (unsigned int c = 1; c < n; c++)
		KT_EQ(t, smp_start(c, calls_with_own_tp, NULL), 0);
	calls_with_own_tp(NULL);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	KT_EQ(t, trace_ops_unregister(&counter.ops), 0);
	for (unsigned int c = 0; c < n; c++) {
		KT_EQ(t, counter.hits[c], CALLS);
		KT_EQ(t, counter.tp_wrong[c], 0);
		KT_EQ(t, tp_after[c], app_tp(c));
	}
}

/* ---- _Thread_local: one copy per CPU ---------------------------------- */

/* One initialised (.tdata) and one zero (.tbss) variable; 'tls_seed' is
 * used through its address too, as an application would. */
static _Thread_local uint64_t tls_seed = 0x5eed0001;
static _Thread_local uint64_t tls_zero[4];

struct tls_seen {
	uint64_t tp, seed, zero, addr, after;
};
static struct tls_seen tls_seen[NR_CPUS];
static volatile uint32_t tls_written;	/* CPUs that wrote their copy */

/* Reads the initial values, writes its own, waits until every CPU wrote
 * its copy, then reads its own back: a shared copy would show the last
 * writer's value. */
static void tls_visit(void *arg)
{
	unsigned int cpu = smp_cpu_id(), n = *(unsigned int *)arg;
	struct tls_seen *s = &tls_seen[cpu];
	uint64_t t0;

	s->tp = read_sysreg(tpidr_el0);
	if (!s->tp)	/* no thread pointer: an access would fault at ~0 */
		return;
	s->seed = tls_seed;
	s->zero = tls_zero[0] | tls_zero[1] | tls_zero[2] | tls_zero[3] | 1;
	s->addr = (uintptr_t)&tls_seed;
	tls_seed = 0xc0de0000 + cpu;
	tls_zero[3] = cpu + 1;
	__atomic_fetch_add(&tls_written, 1, __ATOMIC_SEQ_CST);
	t0 = time_counter();
	while (__atomic_load_n(&tls_written, __ATOMIC_SEQ_CST) < n &&
	       time_counter() - t0 < time_counter_hz())	/* at most 1 s */
		;
	s->after = tls_seed ^ (tls_zero[3] << 32);
}

KTEST(app_regs_thread_local_is_per_cpu)
{
	unsigned int n = smp_num_cpus();

	memset(tls_seen, 0, sizeof(tls_seen));
	tls_written = 0;
	for (unsigned int c = 1; c < n; c++)
		KT_EQ(t, smp_start(c, tls_visit, &n), 0);
	tls_visit(&n);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	KT_EQ(t, tls_written, n);
	for (unsigned int c = 0; c < n; c++) {
		const struct tls_seen *s = &tls_seen[c];

		KT_EXPECT(t, s->tp != 0);
		KT_EQ(t, s->seed, 0x5eed0001);		/* .tdata copied */
		KT_EQ(t, s->zero, 1);			/* .tbss zeroed */
		KT_EQ(t, s->addr, s->tp + 16);		/* variant 1: TP + TCB */
		KT_EQ(t, s->after, (0xc0de0000 + c) ^ ((uint64_t)(c + 1) << 32));
		for (unsigned int d = 0; d < c; d++)
			KT_EXPECT(t, s->tp != tls_seen[d].tp);
	}
}
