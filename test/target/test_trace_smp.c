/* test/target/test_trace_smp.c: tracing while other CPUs run, and
 * backtraces through the trampoline. */
#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "kprintf.h"
#include "ktest.h"
#include "percpu.h"
#include "symbols.h"
#include "target.h"

#define STRESS_ROUNDS 1000

static volatile int stress_stop;
static uint64_t stress_calls[NR_CPUS];	/* each written by its own CPU */

/* 'always' is registered for the whole run: it must see every call.
 * 'flicker' is registered and unregistered STRESS_ROUNDS times: it may
 * only ever fire while flicker_window is open (set before register,
 * cleared after unregister returns). */
static uint64_t always_hits[NR_CPUS], flicker_hits[NR_CPUS];
static volatile int flicker_window;
static volatile uint64_t flicker_outside;

static void on_always(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		      struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	always_hits[this_cpu()->cpu]++;
}

static void on_flicker(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		       struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	flicker_hits[this_cpu()->cpu]++;
	if (!flicker_window)
		flicker_outside++;
}

static struct trace_ops always = { .func = on_always };
static struct trace_ops flicker = { .func = on_flicker };

static void stress_worker(void *arg)
{
	unsigned int cpu = smp_cpu_id();

	(void)arg;
	while (!READ_ONCE(stress_stop)) {
		tt_beta(1);
		tt_gamma(2);
		stress_calls[cpu] += 2;
		/* YIELD lets single-threaded QEMU switch to the CPU that waits
		 * for this one's IPI acknowledgement; on hardware it is a hint. */
		cpu_relax();
	}
}

KTEST(trace_stress_register_while_other_cpus_call)
{
	unsigned int n = smp_num_cpus();

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	trace_ops_set_filter(&always, "tt_beta tt_gamma");
	trace_ops_set_filter(&flicker, "tt_gamma tt_alpha");
	KT_EQ(t, trace_ops_register(&always), 0);
	stress_stop = 0;
	for (unsigned int c = 1; c < n; c++)
		smp_start(c, stress_worker, NULL);
	int errors = 0;

	for (int i = 0; i < STRESS_ROUNDS; i++) {
		flicker_window = 1;
		errors += trace_ops_register(&flicker) != 0;
		if (i % 2)
			errors += trace_ops_set_filter(&flicker, i % 4 == 1 ? "tt_beta" : "tt_gamma tt_alpha") != 0;
		errors += trace_ops_unregister(&flicker) != 0;
		flicker_window = 0;
	}
	WRITE_ONCE(stress_stop, 1);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	KT_EQ(t, trace_ops_unregister(&always), 0);

	uint64_t calls = 0, hits = 0, fl = 0;

	for (unsigned int c = 1; c < n; c++) {
		calls += stress_calls[c];
		hits += always_hits[c];
		fl += flicker_hits[c];
	}
	KT_EQ(t, errors, 0);
	KT_EQ(t, hits, calls);		/* always on: not one call missed */
	KT_EQ(t, flicker_outside, 0);	/* never outside its window */
	KT_EXPECT(t, calls > 0);
	kprintf("    # %lu calls on %u CPUs, flicker fired %lu times\n",
		(unsigned long)calls, n - 1, (unsigned long)fl);
}

static const char *bt_names[6];

static void record_backtrace(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			     struct trace_regs *regs)
{
	const uint64_t *fp = __builtin_frame_address(0);

	(void)ip, (void)parent, (void)ops, (void)regs;
	for (int i = 0; i < 6 && fp; i++) {
		bt_names[i] = sym_lookup(fp[1] - 4, NULL, NULL);
		fp = (const uint64_t *)fp[0];
	}
}

static int __attribute__((noipa)) bt_caller(void)
{
	return tt_inner(5);
}

KTEST(trace_backtrace_shows_traced_function_and_caller)
{
	struct trace_ops o = { .func = record_backtrace };

	trace_ops_set_filter(&o, "tt_inner");
	trace_ops_register(&o);
	bt_caller();
	trace_ops_unregister(&o);
	/* callback <- trace_fp_call (an application ops: its FP/SIMD save)
	 * <- trace_caller (return into tt_inner) <- bt_caller */
	KT_STREQ(t, bt_names[0], "trace_fp_call");
	KT_STREQ(t, bt_names[1], "trace_caller");
	KT_STREQ(t, bt_names[2], "tt_inner");
	KT_STREQ(t, bt_names[3], "bt_caller");
}
