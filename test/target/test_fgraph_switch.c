/*
 * test/target/test_fgraph_switch.c: function_graph under an application
 * that switches stacks (two coroutines, co_switch.S). Coroutine B calls
 * a hooked function that switches to coroutine A, which calls a hooked
 * function that switches back, so B's call returns while A's is still
 * open on the other stack: the shadow stack's order is not the calls'.
 * Each call must return to its own caller; tracing may stop, with a
 * message, but never sends a return elsewhere.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "tracers/fgraph.h"
#include "barrier.h"
#include "ktest.h"
#include "tracecheck.h"
#include "tracers/tracer.h"

#define CO __attribute__((noipa))
#define CO_STACK	8192

struct co_ctx {
	uint64_t x19_x29[11], x30, sp, d8_d15[8];
};
void co_switch(struct co_ctx *save, const struct co_ctx *load);

static struct co_ctx main_ctx, a_ctx, b_ctx;
static uint8_t co_stacks[2][CO_STACK] __attribute__((aligned(16)));
/* What each coroutine saw: its call's result, and whether a return
 * came back to A's caller before B had resumed (a wrong address). */
static volatile int a_result, b_result, b_back, a_wrong;

CO static int co_b_call(int x)
{
	co_switch(&b_ctx, &a_ctx);	/* to A; A switches back */
	return x + 1;
}

CO static int co_a_call(int x)
{
	co_switch(&a_ctx, &b_ctx);	/* back to B, still inside co_b_call */
	return x + 2;
}

CO static void co_b_main(void)
{
	b_result = co_b_call(10);
	b_back = 1;
	co_switch(&b_ctx, &a_ctx);	/* let A's call return */
	for (;;)
		;			/* never resumed */
}

CO static void co_a_main(void)
{
	int r = co_a_call(20);

	/* Reached before B resumed: B's return came here instead. */
	if (!b_back)
		a_wrong = 1;
	a_result = r;
	co_switch(&a_ctx, &main_ctx);	/* the test goes on */
	for (;;)
		;
}

static void co_start(struct co_ctx *c, void (*fn)(void), unsigned int stack)
{
	*c = (struct co_ctx){ 0 };
	c->x30 = (uintptr_t)fn;
	c->sp = (uintptr_t)(co_stacks[stack] + CO_STACK);
}

/* B on stack b_stack, A on the other. */
static void run_switch(struct ktest_ctx *t, unsigned int b_stack)
{
	check_reset();
	fgraph_reset();
	trace_set_tracer("function_graph");
	trace_set_filter("co_a_call co_b_call");
	KT_EQ(t, trace_start(), 0);
	a_result = b_result = b_back = a_wrong = 0;
	co_start(&b_ctx, co_b_main, b_stack);
	co_start(&a_ctx, co_a_main, !b_stack);
	/* Interrupts masked while off this CPU's stack: exception entry
	 * takes an SP outside it for an overflow (kernel/cpu/entry.S). */
	unsigned long flags = irq_save();

	co_switch(&main_ctx, &b_ctx);	/* comes back when A is done */
	irq_restore(flags);
	bool stopped = fgraph_stopped;

	trace_stop();
	trace_set_tracer("nop");
	fgraph_reset();
	KT_EQ(t, a_wrong, 0);		/* B's return did not land in A */
	KT_EQ(t, b_result, 11);
	KT_EQ(t, b_back, 1);
	KT_EQ(t, a_result, 22);
	KT_EXPECT(t, stopped);		/* hooking stopped, with a message */
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
}

/* A's stack above B's: A's entry takes B's open call for abandoned
 * (its SP is lower), and B's return finds no frame on the stack. */
KTEST(fgraph_stack_switch_b_below_returns_right)
{
	run_switch(t, 0);
}

/* B's stack above A's: B's return unwinds A's open call as abandoned,
 * and A's return later finds the shadow stack empty. */
KTEST(fgraph_stack_switch_b_above_returns_right)
{
	run_switch(t, 1);
}
