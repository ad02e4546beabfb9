/*
 * test/target/test_swap.c: changing the ring buffers (console `buffer`,
 * `clear`) while every other CPU writes into them through the graph
 * tracer's entry and return hooks, trace_printf and tracepoints. Before
 * the rings were switched by their own CPUs, a CPU still inside a hooked
 * function wrote into freed memory (a data abort in the return hook
 * under multi-threaded TCG).
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "kprintf.h"
#include "ktest.h"
#include "percpu.h"
#include "ring/ring.h"

#define SWAP_ROUNDS 30
#define TARGET __attribute__((noipa))

static volatile int swap_stop;
static uint64_t swap_calls[NR_CPUS], swap_wrong[NR_CPUS];	/* owner CPU writes */

TARGET int tt_swap_leaf(int x) { return x * 3; }
TARGET int tt_swap_mid(int x) { return tt_swap_leaf(x) + 1; }
TARGET int tt_swap_outer(int x)
{
	trace_printf("swap %d", x);
	return tt_swap_mid(x) + tt_swap_leaf(x);
}

static void swap_worker(void *arg)
{
	unsigned int me = smp_cpu_id();

	(void)arg;
	for (int i = 0; !READ_ONCE(swap_stop); i++) {
		if (tt_swap_outer(i) != 6 * i + 1)
			swap_wrong[me]++;
		swap_calls[me]++;
	}
}

KTEST(buffer_and_clear_while_every_cpu_writes)
{
	unsigned int n = smp_num_cpus();
	int errors = 0;

	if (n < 2)
		return ktest_skip(t, "needs 2 CPUs");
	/* Rings before the first start: the exporter stays off (the other
	 * suites read the rings themselves, test/target/tracecheck.c). */
	if (!ring_of(0))
		KT_EQ(t, ring_setup(8 * 1024, RING_OVERWRITE), 0);
	KT_EQ(t, trace_set_tracer("function_graph"), 0);
	KT_EQ(t, trace_set_filter("tt_swap_*"), 0);
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, tp_enable("irq:*,timer:tick", 1), 0);
	swap_stop = 0;
	for (unsigned int c = 1; c < n; c++) {
		swap_calls[c] = swap_wrong[c] = 0;
		smp_start(c, swap_worker, NULL);
	}
	for (int i = 0; i < SWAP_ROUNDS; i++) {
		if (i % 3 == 2)
			errors += trace_clear() != 0;
		else
			errors += trace_set_buffer(i % 2 ? 2048 : 8192, i % 4 == 1) != 0;
		/* Something to write between swaps. */
		tt_swap_outer(i);
	}
	WRITE_ONCE(swap_stop, 1);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	KT_EQ(t, tp_enable("irq:*,timer:tick", 0), 0);
	KT_EQ(t, trace_stop(), 0);
	KT_EQ(t, trace_set_buffer(64 * 1024, 0), 0);

	uint64_t calls = 0, wrong = 0;

	for (unsigned int c = 1; c < n; c++) {
		calls += swap_calls[c];
		wrong += swap_wrong[c];
	}
	KT_EQ(t, errors, 0);
	KT_EQ(t, wrong, 0);		/* the traced code computed right */
	KT_EXPECT(t, calls > 0);
	/* Every event each CPU produced is in one place, once. */
	for (unsigned int c = 0; c < n; c++) {
		struct ring_totals tt;

		ring_get_totals(c, &tt);
		KT_EXPECT(t, tt.in_ring <= tt.produced);
		KT_EXPECT(t, tt.overwritten + tt.dropped + tt.discarded <= tt.produced);
	}
	kprintf("    # %lu traced calls on %u CPUs across %d buffer changes\n",
		(unsigned long)calls, n - 1, SWAP_ROUNDS);
}
