/* test/target/test_direct.c: direct trampolines on a function's site. */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>

#include "core/core.h"
#include "ktest.h"
#include "symbols.h"
#include "target.h"
#include "text_alias.h"

volatile uint64_t dt_tramp_hits;
void dt_count_tramp(void);
void dt_fexit_tramp(void);

static int __attribute__((noipa)) dt_plus_one(int x) { return x + 1; }
static int __attribute__((noipa)) dt_double(int x) { return 2 * x; }

static uint32_t insn_at(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static uint64_t ops_hits;

static notrace void dt_ops_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			       struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	ops_hits++;
}

KTEST(direct_fentry_trampoline_is_a_bl_to_it)
{
	uintptr_t f = (uintptr_t)dt_plus_one;
	uint64_t h0 = dt_tramp_hits;
	int sum = 0;

	if (skip_while_covering(t))
		return;

	KT_EQ(t, trace_direct_attach(dt_plus_one, dt_count_tramp), 0);
	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)dt_count_tramp));
	KT_EQ(t, trace_direct_attach(dt_plus_one, dt_fexit_tramp), TRACE_EBUSY);
	for (int i = 0; i < 10; i++)
		sum += dt_plus_one(i);
	KT_EQ(t, sum, 55);
	KT_EQ(t, dt_tramp_hits - h0, 10);
	KT_EQ(t, trace_direct_detach(dt_plus_one), 0);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
	dt_plus_one(1);
	KT_EQ(t, dt_tramp_hits - h0, 10);
	KT_EQ(t, trace_direct_detach(dt_plus_one), TRACE_EINVAL);
}

KTEST(direct_fexit_trampoline_sees_the_return_value)
{
	KT_EQ(t, dt_double(21), 42);
	KT_EQ(t, trace_direct_attach(dt_double, dt_fexit_tramp), 0);
	KT_EQ(t, dt_double(21), 1042);
	KT_EQ(t, trace_direct_detach(dt_double), 0);
	KT_EQ(t, dt_double(21), 42);
}

/* Ops and a trampoline on one site: both run (trace_caller_both); the
 * trampoline gets the BL back when the ops let go. */
KTEST(direct_site_shared_with_ops)
{
	struct trace_ops ops = { .func = dt_ops_hit };
	uintptr_t f = (uintptr_t)dt_plus_one;
	uint64_t h0 = dt_tramp_hits;

	if (skip_while_covering(t))
		return;

	KT_EQ(t, trace_direct_attach(dt_plus_one, dt_count_tramp), 0);
	KT_EQ(t, trace_ops_set_filter(&ops, "dt_plus_one"), 0);
	KT_EQ(t, trace_ops_register(&ops), 0);
	extern char trace_caller_both[];

	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)trace_caller_both));
	ops_hits = 0;
	KT_EQ(t, dt_plus_one(4), 5);
	KT_EQ(t, ops_hits, 1);
	KT_EQ(t, dt_tramp_hits - h0, 1);
	KT_EQ(t, trace_direct_attach(dt_double, dt_fexit_tramp), 0);
	KT_EQ(t, trace_ops_set_filter(&ops, "dt_plus_one dt_double"), 0);
	KT_EQ(t, dt_double(21), 1042);	/* fexit still sees the value */
	KT_EQ(t, ops_hits, 2);
	KT_EQ(t, trace_direct_detach(dt_double), 0);
	KT_EQ(t, dt_double(21), 42);
	KT_EQ(t, ops_hits, 3);		/* the ops keep the site */
	KT_EQ(t, trace_ops_unregister(&ops), 0);
	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)dt_count_tramp));
	KT_EQ(t, dt_plus_one(4), 5);
	KT_EQ(t, ops_hits, 3);
	KT_EQ(t, dt_tramp_hits - h0, 2);
	KT_EQ(t, trace_direct_detach(dt_plus_one), 0);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
}

extern bool trace_direct_force_long;

/* The long path (trace_caller_direct and the literal's direct_call slot)
 * for a trampoline in range, forced: the same results as the BL. The
 * next test places one really beyond 128 MiB. */
KTEST(direct_long_path_gives_the_same_results)
{
	extern char trace_caller_direct[];
	uintptr_t f = (uintptr_t)dt_plus_one;
	uint64_t h0 = dt_tramp_hits;
	int sum = 0;

	if (skip_while_covering(t))
		return;

	trace_direct_force_long = true;
	KT_EQ(t, trace_direct_attach(dt_plus_one, dt_count_tramp), 0);
	KT_EQ(t, trace_direct_attach(dt_double, dt_fexit_tramp), 0);
	trace_direct_force_long = false;
	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)trace_caller_direct));
	for (int i = 0; i < 10; i++)
		sum += dt_plus_one(i);
	KT_EQ(t, sum, 55);
	KT_EQ(t, dt_tramp_hits - h0, 10);
	KT_EQ(t, dt_double(21), 1042);
	KT_EQ(t, trace_direct_detach(dt_plus_one), 0);
	KT_EQ(t, trace_direct_detach(dt_double), 0);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
	KT_EQ(t, dt_double(21), 42);
}

/* A trampoline really placed beyond branch range: a copy of
 * dt_fexit_tramp (position independent) in the far text page, hundreds
 * of GiB from the image. The site must take the long path and give the
 * same results as the in-range BL. */
KTEST(direct_trampoline_beyond_128_mib_takes_the_long_path)
{
	extern char trace_caller_direct[];
	uintptr_t f = (uintptr_t)dt_double, size = 0;

	if (skip_while_covering(t))
		return;

	KT_EXPECT(t, sym_lookup((uintptr_t)dt_fexit_tramp, NULL, &size) && size >= 16);
	void *far = far_text_place((const void *)(uintptr_t)dt_fexit_tramp, size);

	KT_EXPECT(t, far != NULL);
	if (!far)
		return;
	KT_EXPECT(t, (uintptr_t)far - f > (128UL << 20));
	KT_EQ(t, trace_direct_attach(dt_double, dt_fexit_tramp), 0);	/* in range */
	int near = dt_double(21);

	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)dt_fexit_tramp));
	KT_EQ(t, trace_direct_detach(dt_double), 0);
	KT_EQ(t, trace_direct_attach(dt_double, far), 0);		/* far */
	KT_EQ(t, insn_at(f + 4), patch_insn_bl(f + 4, (uintptr_t)trace_caller_direct));
	KT_EQ(t, dt_double(21), near);
	KT_EQ(t, near, 1042);
	KT_EQ(t, trace_direct_detach(dt_double), 0);
	KT_EQ(t, dt_double(21), 42);
}
