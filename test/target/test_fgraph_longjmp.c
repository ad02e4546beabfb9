/*
 * test/target/test_fgraph_longjmp.c: function_graph across newlib's
 * longjmp. The inner functions of a traced chain are left by longjmp, so
 * their return hooks never run; the tracer must unwind their shadow
 * frames, return each later function to its own caller, and keep tracing.
 */
#include <setjmp.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "tracers/fgraph.h"
#include "ktest.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/tracer.h"

#define LJ __attribute__((noipa))

static jmp_buf lj_env;
static struct rec recs[CHECK_MAX];

LJ static int lj_inner(int x)
{
	longjmp(lj_env, x);	/* leaves lj_inner and lj_mid */
	return -1;
}

/* Work after the call, so a return into the abandoned lj_mid would
 * show in the result (-1) instead of going unnoticed. */
LJ static int lj_mid(int x)
{
	int r = lj_inner(x + 1);

	return r < 0 ? r : -1;
}

LJ static int lj_outer(int x)
{
	volatile int got = setjmp(lj_env);

	if (got)
		return got * 2;	/* lj_mid(20): lj_inner(21) jumps back with 21 */
	return lj_mid(x);
}

/* setjmp in a loop: every round abandons two frames that no return
 * unwinds until the next call (more rounds than the shadow stack holds). */
LJ static int lj_loop(int rounds)
{
	volatile int done = 0;

	if (setjmp(lj_env))
		done++;
	if (done < rounds)
		lj_mid(done);
	return done;
}

static int graph_on(const char *filter)
{
	check_reset();
	fgraph_reset();
	trace_set_tracer("function_graph");
	trace_set_filter(filter);
	return trace_start();
}

static void graph_off(void)
{
	trace_stop();
	trace_set_tracer("nop");
}

static unsigned int count(unsigned int n, unsigned int kind, int site)
{
	unsigned int c = 0;

	for (unsigned int i = 0; i < n; i++)
		c += recs[i].kind == kind && recs[i].site == (uint64_t)site;
	return c;
}

KTEST(fgraph_longjmp_returns_to_the_setjmp_caller)
{
	uint64_t unwound = fgraph_unwound;

	KT_EQ(t, graph_on("lj_* tt_outer tt_inner"), 0);
	int r = lj_outer(20);
	int after = tt_outer(1);	/* traced after the longjmp */

	graph_off();
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, r, 42);
	KT_EQ(t, after, (1 ^ 0x55) + 1);
	KT_EXPECT(t, !fgraph_stopped);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].graph_depth, 0);
	KT_EQ(t, fgraph_unwound - unwound, 2);	/* lj_inner, lj_mid */
	/* Every entry has its exit: the abandoned two unwound at lj_outer's
	 * return, then tt_outer and tt_inner at depth 0 and 1 again. */
	const char *names[] = { "lj_outer", "lj_mid", "lj_inner", "tt_outer", "tt_inner" };

	for (unsigned int i = 0; i < 5; i++) {
		KT_EQ(t, count(n, WIRE_REC_GRAPH_ENTRY, site_of(names[i])), 1);
		KT_EQ(t, count(n, WIRE_REC_EXIT, site_of(names[i])), 1);
	}
	KT_EQ(t, n, 10);
	if (n == 10) {
		KT_EQ(t, recs[6].kind, WIRE_REC_GRAPH_ENTRY);	/* tt_outer */
		KT_EQ(t, recs[6].depth, 0);
		KT_EQ(t, recs[7].depth, 1);			/* tt_inner */
	}
}

KTEST(fgraph_longjmp_in_a_loop_does_not_fill_the_shadow_stack)
{
	uint64_t unwound = fgraph_unwound;

	KT_EQ(t, graph_on("lj_*"), 0);
	int r = lj_loop(FGRAPH_DEPTH);

	graph_off();
	KT_EQ(t, r, FGRAPH_DEPTH);
	KT_EXPECT(t, !fgraph_stopped);
	KT_EQ(t, fgraph_stacks[smp_cpu_id()].top, 0);
	KT_EQ(t, fgraph_unwound - unwound, 2 * FGRAPH_DEPTH);
}
