/*
 * test/target/test_unwind.c: backtraces of code a patch site called before
 * the traced function built its frame record (issue 25): the recorder or
 * trampoline, then the traced function, then its caller, then what the
 * frame records hold. Each case hands regdump_walk a saved frame as an
 * interrupt would leave it in that code (the registers its contract
 * names, trace/core/entry.S and trace/tracers/rec_*.S), with frame
 * records made here, and checks every entry by name and offset.
 */
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>

#include "exception.h"
#include "kprintf.h"
#include "ktest.h"
#include "regdump.h"
#include "symbols.h"
#include "target.h"

extern const char trace_rec_function[], trace_rec_graph[], trace_caller[];
extern const char fgraph_return_c[], fgraph_fast_exit[];

/* A return address inside the traced function's caller, and one inside
 * the caller's caller (the frame record at x29 holds it). Any function
 * long enough does. */
#define CALLER_RET	((uintptr_t)sym_lookup + 0x10)
#define OUTER_RET	((uintptr_t)regdump_walk + 0x20)

static struct exc_frame f;
/* trace_caller's saved registers, then the caller's frame records above
 * them, as on a stack. */
static struct {
	struct trace_regs regs;
	uint64_t rec[2][2];
} __attribute__((aligned(16))) stack;

static void frame_at(uintptr_t pc)
{
	memset(&f, 0, sizeof(f));
	memset(&stack, 0, sizeof(stack));
	stack.rec[0][0] = (uintptr_t)stack.rec[1];
	stack.rec[0][1] = OUTER_RET;
	f.elr = pc;
	f.x[29] = (uintptr_t)stack.rec[0];	/* the caller's frame pointer */
	f.sp = (uintptr_t)&stack.regs;
}

/* The backtrace of f is want[0..n), each "name+offset". */
static void expect_walk(struct ktest_ctx *t, const uintptr_t *want, unsigned int n)
{
	uintptr_t got[BACKTRACE_MAX];
	unsigned int k = regdump_walk(&f, got);

	KT_EQ(t, k, n);
	for (unsigned int i = 0; i < n && i < k; i++) {
		if (!KT_EQ(t, got[i], want[i])) {
			uintptr_t og = 0, ow = 0;
			const char *g = sym_lookup(got[i], &og, NULL);
			const char *w = sym_lookup(want[i], &ow, NULL);

			kprintf("#   entry %u: %s+0x%lx, wanted %s+0x%lx\n", i, g ? g : "?",
				(unsigned long)og, w ? w : "?", (unsigned long)ow);
		}
	}
}

KTEST(unwind_recorder_names_traced_function_and_caller)
{
	uintptr_t site = (uintptr_t)tt_alpha;
	uintptr_t pc = (uintptr_t)trace_rec_function + 4;
	const uintptr_t want[] = { pc, site + 4, CALLER_RET - 4, OUTER_RET - 4 };

	/* Entered: x30 = func + 8, x9 = its return address. */
	frame_at(pc);
	f.x[30] = site + 8;
	f.x[9] = CALLER_RET;
	expect_walk(t, want, 4);
	/* Leaving (ret x16): x16 = func + 8, x30 = the return address. */
	f.x[16] = site + 8;
	f.x[30] = CALLER_RET;
	f.x[9] = 0x1234;
	expect_walk(t, want, 4);
}

KTEST(unwind_graph_recorder_names_traced_function)
{
	uintptr_t site = (uintptr_t)tt_beta, pc = (uintptr_t)trace_rec_graph + 8;
	const uintptr_t want[] = { pc, site + 4, CALLER_RET - 4, OUTER_RET - 4 };

	frame_at(pc);
	f.x[30] = site + 8;
	f.x[9] = CALLER_RET;
	expect_walk(t, want, 4);
}

KTEST(unwind_trampoline_before_and_after_its_records)
{
	uintptr_t site = (uintptr_t)tt_alpha, pc = (uintptr_t)trace_caller + 8;
	const uintptr_t want[] = { pc, site + 4, CALLER_RET - 4, OUTER_RET - 4 };

	/* Nothing linked yet: as the recorder. */
	frame_at(pc);
	f.x[30] = site + 8;
	f.x[9] = CALLER_RET;
	expect_walk(t, want, 4);
	/* Record A {caller's fp, return address} linked, B not yet. */
	stack.regs.fp = (uintptr_t)stack.rec[0];
	stack.regs.lr = CALLER_RET;
	f.x[29] = (uintptr_t)&stack.regs.fp;
	expect_walk(t, want, 4);
	/* Both linked: the records alone give the same, and nothing twice. */
	stack.regs.record_fp = (uintptr_t)&stack.regs.fp;
	stack.regs.pc = site + 8;
	f.x[29] = (uintptr_t)&stack.regs.record_fp;
	expect_walk(t, want, 4);
}

KTEST(unwind_at_site_and_first_instruction_uses_lr)
{
	uintptr_t site = (uintptr_t)tt_alpha;

	for (uintptr_t off = 0; off <= 8; off += 4) {
		const uintptr_t want[] = { site + off, CALLER_RET - 4, OUTER_RET - 4 };

		frame_at(site + off);
		f.x[30] = CALLER_RET;
		f.x[9] = CALLER_RET;
		expect_walk(t, want, 3);
	}
}

KTEST(unwind_elsewhere_follows_frame_records_only)
{
	uintptr_t pc = (uintptr_t)sym_lookup + 8;
	const uintptr_t want[] = { pc, OUTER_RET - 4 };

	frame_at(pc);
	f.x[30] = (uintptr_t)tt_alpha + 8;	/* looks like a site: not used here */
	f.x[9] = CALLER_RET;
	expect_walk(t, want, 2);
}

KTEST(unwind_return_trampoline_names_the_caller_returned_to)
{
	uintptr_t pc = (uintptr_t)fgraph_fast_exit + 0x40;
	const uintptr_t want[] = { pc, CALLER_RET - 4, OUTER_RET - 4 };

	/* The fast exit has loaded the real return address into x30. */
	frame_at(pc);
	f.x[30] = CALLER_RET;
	expect_walk(t, want, 3);

	/* The C exit: fgraph_exit returned it in x0, x30 still points
	 * after the call, x29 at the record {caller's fp, 0} at sp + 80. */
	uint64_t *saved = (uint64_t *)&stack.regs;	/* as its 96 bytes */

	pc = (uintptr_t)fgraph_return_c + 0x34;
	frame_at(pc);
	saved[10] = (uintptr_t)stack.rec[0];
	saved[11] = 0;
	f.x[29] = (uintptr_t)&saved[10];
	f.x[30] = pc;
	f.x[0] = CALLER_RET;
	const uintptr_t want_c[] = { pc, CALLER_RET - 4, OUTER_RET - 4 };

	expect_walk(t, want_c, 3);
}
