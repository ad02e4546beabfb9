/* test/target/test_trace.c: ops, filters, dispatch and the patcher. */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "core/core.h"
#include "kprintf.h"
#include "ktest.h"
#include "target.h"
#include "symbols.h"
#include "text_alias.h"

struct counter {
	struct trace_ops ops;
	volatile uint64_t hits;
	uintptr_t last_ip;
};

static void count_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		      struct trace_regs *regs)
{
	struct counter *c = (struct counter *)ops;

	(void)parent;
	(void)regs;
	c->hits++;
	c->last_ip = ip;
}

#define COUNTER { .ops = { .func = count_hit } }

static uint32_t insn_at(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

static uintptr_t literal_of(void *fn)
{
	return *(volatile uint64_t *)((uintptr_t)fn - 8);
}

KTEST(trace_three_filters_count_exact_hits)
{
	struct counter a = COUNTER, b = COUNTER, c = COUNTER, late = COUNTER;

	KT_EQ(t, trace_ops_set_filter(&a.ops, "tt_alp*"), 0);	/* alpha, alpine */
	KT_EQ(t, trace_ops_set_filter(&b.ops, "tt_beta tt_gamma"), 0);
	KT_EQ(t, trace_ops_set_filter(&c.ops, "*ta"), 0);	/* beta only */
	KT_EQ(t, trace_ops_register(&a.ops), 0);
	KT_EQ(t, trace_ops_register(&b.ops), 0);
	KT_EQ(t, trace_ops_register(&c.ops), 0);
	for (int i = 0; i < 10; i++) {
		tt_alpha(i);
		tt_beta(i);
	}
	tt_alpine(1);
	tt_gamma(1);
	KT_EQ(t, trace_ops_set_filter(&late.ops, "tt_gamma"), 0);
	KT_EQ(t, trace_ops_register(&late.ops), 0);
	for (int i = 0; i < 7; i++)
		tt_gamma(i);
	KT_EQ(t, trace_ops_unregister(&late.ops), 0);
	tt_gamma(0);
	KT_EQ(t, trace_ops_unregister(&a.ops), 0);
	KT_EQ(t, trace_ops_unregister(&b.ops), 0);
	KT_EQ(t, trace_ops_unregister(&c.ops), 0);
	tt_alpha(0);
	tt_beta(0);
	KT_EQ(t, a.hits, 11);
	KT_EQ(t, b.hits, 10 + 1 + 7 + 1);
	KT_EQ(t, c.hits, 10);
	KT_EQ(t, late.hits, 7);
	KT_EQ(t, c.last_ip, (uintptr_t)&tt_beta);
}

KTEST(trace_glob_filters_select_the_right_sites)
{
	struct trace_ops o = { .func = count_hit };
	static const struct { const char *pat; const char *yes, *no; } cases[] = {
		{ "tt_*", "tt_alpha", "symbol_probe_function" },
		{ "*_alpha", "tt_alpha", "tt_alpine" },
		{ "*lpi*", "tt_alpine", "tt_alpha" },
		{ "tt_alp?ne", "tt_alpine", "tt_alpha" },
		{ "tt_[ab]*", "tt_beta", "tt_gamma" },
		{ "tt_[!ab]*", "tt_gamma", "tt_alpha" },
		{ "tt_* !tt_beta", "tt_gamma", "tt_beta" },
		{ "!tt_beta", "tt_alpha", "tt_beta" },
		{ "tt_alpha,tt_gamma", "tt_gamma", "tt_beta" },
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		KT_EQ(t, trace_ops_set_filter(&o, cases[k].pat), 0);
		int yes = trace_site_of(sym_address(cases[k].yes));
		int no = trace_site_of(sym_address(cases[k].no));

		KT_EXPECT(t, yes >= 0 && no >= 0);
		if (yes < 0 || no < 0)
			continue;
		if (!KT_EXPECT(t, o.filter_bits && (o.filter_bits[yes / 64] >> (yes % 64)) & 1) ||
		    !KT_EXPECT(t, !((o.filter_bits[no / 64] >> (no % 64)) & 1)))
			kprintf("    # pattern \"%s\"\n", cases[k].pat);
	}
	/* Invalid patterns: an error, and the previous filter stays. */
	uint64_t before = o.filter_bits[0];

	KT_EQ(t, trace_ops_set_filter(&o, "tt_[ab"), TRACE_EINVAL);
	KT_EQ(t, trace_ops_set_filter(&o, "tt_* !"), TRACE_EINVAL);
	KT_EQ(t, trace_ops_set_filter(&o, "tt_\\"), TRACE_EINVAL);
	KT_EQ(t, o.filter_bits[0], before);
	KT_EQ(t, trace_ops_set_filter(&o, ""), 0);
	KT_EXPECT(t, o.filter_bits == NULL);	/* every function */
}

KTEST(trace_site_dispatch_0_1_2_1_0)
{
	struct counter a = COUNTER, b = COUNTER;
	uintptr_t f = (uintptr_t)&tt_alpha;
	int site = trace_site_of(f);

	KT_EXPECT(t, site >= 0);
	trace_ops_set_filter(&a.ops, "tt_alpha");
	trace_ops_set_filter(&b.ops, "tt_alpha");
	/* count_hit only increments an integer: a may skip the FP/SIMD
	 * save; b keeps the default and is reached through its shim. */
	a.ops.flags = TRACE_OPS_NO_FPSIMD;
	/* 0 ops */
	KT_EQ(t, insn_at(f), INSN_MOV_X9_LR);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
	KT_EQ(t, literal_of(&tt_alpha), (uintptr_t)&trace_nop_ops);
	/* 1 ops: called directly */
	trace_ops_register(&a.ops);
	KT_EQ(t, literal_of(&tt_alpha), (uintptr_t)&a.ops);
	KT_EQ(t, insn_at(f + 4) >> 26, 0x25);	/* BL */
	tt_alpha(1);
	KT_EQ(t, a.hits, 1);
	/* 2 ops: the site's list ops */
	trace_ops_register(&b.ops);
	KT_EQ(t, literal_of(&tt_alpha), (uintptr_t)&bt_site_state[site]);
	KT_EQ(t, bt_site_state[site].wanting, 2);
	tt_alpha(1);
	KT_EQ(t, a.hits, 2);
	KT_EQ(t, b.hits, 1);
	/* back to 1: b directly */
	trace_ops_unregister(&a.ops);
	KT_EXPECT(t, b.ops.fp_shim != NULL);
	KT_EQ(t, literal_of(&tt_alpha), (uintptr_t)b.ops.fp_shim);
	KT_EQ(t, (uintptr_t)b.ops.fp_shim->data, (uintptr_t)&b.ops);
	tt_alpha(1);
	KT_EQ(t, a.hits, 2);
	KT_EQ(t, b.hits, 2);
	/* back to 0 */
	trace_ops_unregister(&b.ops);
	KT_EQ(t, insn_at(f + 4), INSN_NOP);
	KT_EQ(t, literal_of(&tt_alpha), (uintptr_t)&trace_nop_ops);
	KT_EQ(t, bt_site_state[site].wanting, 0);
	tt_alpha(1);
	KT_EQ(t, b.hits, 2);
}

static long seen_args[3];

static void change_args(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			struct trace_regs *regs)
{
	(void)ip;
	(void)parent;
	(void)ops;
	memcpy(seen_args, regs->x, sizeof(seen_args));
	regs->x[1] = 9;		/* b becomes 9 */
}

KTEST(trace_callback_reads_and_changes_arguments)
{
	struct trace_ops o = { .func = change_args };

	KT_EQ(t, tt_args(1, 2, 3), 123);
	trace_ops_set_filter(&o, "tt_args");
	trace_ops_register(&o);
	long r = tt_args(4, 5, 6);

	trace_ops_unregister(&o);
	KT_EQ(t, seen_args[0], 4);
	KT_EQ(t, seen_args[1], 5);
	KT_EQ(t, seen_args[2], 6);
	KT_EQ(t, r, 496);
	KT_EQ(t, tt_args(4, 5, 6), 456);
}

KTEST(trace_patcher_refuses_unexpected_text)
{
	struct counter a = COUNTER;
	uintptr_t f = (uintptr_t)&tt_gamma;
	struct trace_patch_stats s0, s1;

	if (skip_while_covering(t))
		return;

	/* Someone else changed the site: its +4 NOP is now a different NOP
	 * form (HINT #1, YIELD), which the core did not write. */
	KT_EQ(t, text_write32((void *)(f + 4), INSN_NOP, 0xd503203fU), 0);
	text_sync(f, f + 8);
	trace_patch_stats(&s0);
	trace_ops_set_filter(&a.ops, "tt_gamma");
	KT_EQ(t, trace_ops_register(&a.ops), TRACE_EPATCH);
	trace_patch_stats(&s1);
	KT_EQ(t, s1.refused, s0.refused + 1);
	KT_EQ(t, insn_at(f + 4), 0xd503203fU);
	KT_EQ(t, literal_of(&tt_gamma), (uintptr_t)&trace_nop_ops);
	KT_EXPECT(t, !a.ops.registered);
	tt_gamma(1);
	KT_EQ(t, a.hits, 0);
	/* Restore and the same ops now works. */
	KT_EQ(t, text_write32((void *)(f + 4), 0xd503203fU, INSN_NOP), 0);
	text_sync(f, f + 8);
	KT_EQ(t, trace_ops_register(&a.ops), 0);
	tt_gamma(1);
	trace_ops_unregister(&a.ops);
	KT_EQ(t, a.hits, 1);
}

KTEST(trace_enabling_every_site_is_one_round)
{
	struct counter all = COUNTER;
	struct trace_patch_stats s0, s1, s2;

	if (skip_while_covering(t))
		return;

	trace_patch_stats(&s0);
	KT_EQ(t, trace_ops_register(&all.ops), 0);
	trace_patch_stats(&s1);
	KT_EQ(t, s1.batches - s0.batches, 1);
	KT_EQ(t, s1.rounds - s0.rounds, 1);
	KT_EQ(t, s1.sites - s0.sites, trace_site_count());
	KT_EQ(t, trace_ops_unregister(&all.ops), 0);
	trace_patch_stats(&s2);
	KT_EQ(t, s2.rounds - s1.rounds, 1);
	KT_EQ(t, s2.sites - s1.sites, trace_site_count());
	KT_EXPECT(t, all.hits > 0);
}

static struct counter rec_outer = COUNTER;

static void calls_traced(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			 struct trace_regs *regs)
{
	count_hit(ip, parent, ops, regs);
	tt_inner(1);	/* traced too, but inside a callback: not re-entered */
}

KTEST(trace_callback_calling_traced_code_does_not_recurse)
{
	rec_outer.ops.func = calls_traced;
	trace_ops_set_filter(&rec_outer.ops, "tt_outer tt_inner");
	trace_ops_register(&rec_outer.ops);
	tt_outer(3);		/* outer hit; its callback's tt_inner is not */
	trace_ops_unregister(&rec_outer.ops);
	/* tt_outer's own call of tt_inner is traced: 2 hits, not 3 or more. */
	KT_EQ(t, rec_outer.hits, 2);
}
