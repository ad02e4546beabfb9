/*
 * trace/tracers/unwind.c: what a backtrace needs to know about the code a
 * patch site calls, the trampolines of trace/core/ and the recorders here
 * (kernel/report/regdump.c asks through the hook that
 * trace/control/kernel_hooks.c registers).
 *
 * A site's BL leaves the traced function before its prologue: x29 is
 * still its caller's frame pointer, x30 = func + 8 and x9 = its return
 * address (the contracts at the top of trace/core/entry.S and
 * trace/tracers/rec_*.S). A walk of the frame records from x29 alone
 * would name the recorder, then the caller's caller: the traced function
 * and its caller would be missing. The registers name both.
 *
 * Which register holds what moves as the code runs (the recorders end
 * with x16 = func + 8 and x30 = the return address; trace_caller_both
 * swaps x9 and x30 through x17 before it enters a direct trampoline), so
 * the site is taken from the first register holding a site's func + 8,
 * and the return address from the first holding anything else. A return
 * address is never some function's func + 8: that is the return point of
 * a site's own BL, and the BL at func + 4 calls only the trace core.
 * trace_caller keeps x30 and x9 until it has linked its two frame
 * records (then the records say it all), and restores x30 before it
 * unlinks them; after the callback it reloads func + 8 into x9 last, so
 * in between the site is read back from its struct trace_regs.
 *
 * A hooked function that has returned into the graph tracer's return
 * trampoline is no longer on the stack, and its caller, to which it
 * returns, is what the records lack (see return_head).
 */
#include <stddef.h>
#include <stdint.h>

#include <baretrace_trace.h>

#include "exception.h"
#include "symbols.h"
#include "core/core.h"
#include "fgraph.h"
#include "tracer.h"

/* The code a site's BL enters (trace/core/entry.S, trace/tracers/rec_*.S). */
extern const char trace_caller[], trace_caller_both[], trace_caller_direct[];
extern const char trace_rec_function[], trace_rec_graph[], trace_rec_profile[];
/* Where a hooked function returns to (trace/tracers/fgraph_entry.S,
 * rec_graph.S); fgraph_return and profile_return are declared in
 * fgraph.h. */
extern const char fgraph_return_c[], fgraph_fast_exit[];

_Static_assert(sizeof(struct trace_regs) == 128, "REGS_SIZE in entry.S");
_Static_assert(offsetof(struct trace_regs, fp) == 80, "REGS_FP in entry.S");
_Static_assert(offsetof(struct trace_regs, record_fp) == 96, "REGS_RECORD_FP in entry.S");
_Static_assert(offsetof(struct trace_regs, pc) == 104, "REGS_PC in entry.S");

/* func + 8 of a patch site: the return point of its BL. */
static bool is_site_body(uintptr_t v)
{
	return v > 8 && !(v & 7) && trace_site_of(v - 8) >= 0;
}

/* The entry point of the trace core's code pc is in (one a site calls,
 * or one a hooked function returns to), or NULL. */
static const char *tramp_of(uintptr_t pc)
{
	static const char *const tramps[] = {
		trace_caller, trace_caller_both, trace_caller_direct,
		trace_rec_function, trace_rec_graph, trace_rec_profile,
		fgraph_return, fgraph_return_c, fgraph_fast_exit, profile_return,
	};
	uintptr_t off;

	if (!sym_lookup(pc, &off, NULL))
		return NULL;
	for (size_t i = 0; i < sizeof(tramps) / sizeof(tramps[0]); i++)
		if ((uintptr_t)tramps[i] == pc - off)
			return tramps[i];
	return NULL;
}

/*
 * The return trampoline, reached by a hooked function's RET: x29 is its
 * caller's frame pointer again, so the caller is what the records lack.
 * Until the shadow frame is popped x30 is still the hook, fgraph_return
 * or profile_return (which the kernel translates through the top frame);
 * fgraph_fast_exit and profile_return load the real address into x30
 * before they pop; fgraph_return_c gets it in x0
 * from fgraph_exit, which pops, and moves it to x30 next. Its own record
 * {caller's fp, 0} ends walks from inside fgraph_exit; from here the
 * records go on at the fp it saved.
 */
#define FGRAPH_C_RECORD	80	/* fgraph_return_c: stp x29, xzr, [sp, #80] */

static bool return_head(const struct exc_frame *f, const char *t, uintptr_t *ret, uintptr_t *fp)
{
	const uint64_t *rec = (const uint64_t *)f->x[29];
	uintptr_t off;

	*ret = f->x[30];
	if (t != fgraph_return_c)
		return true;
	if (sym_lookup(f->x[30], &off, NULL) && f->x[30] - off == (uintptr_t)fgraph_return_c)
		*ret = f->x[0];		/* fgraph_exit returned it */
	if (f->x[29] == f->sp + FGRAPH_C_RECORD && rec[1] == 0)
		*fp = rec[0];		/* its record: {caller's fp, 0} */
	return true;
}

/* At a site's own instructions or the body's first one (func + 0, 4,
 * 8): the prologue has not run and x30 is the return address (MOV X9, LR
 * copies it; a recorder or trace_caller puts it back). */
static bool at_site(uintptr_t pc)
{
	if (pc & 3)
		return false;
	if (pc & 4)
		return is_site_body(pc + 4);
	return is_site_body(pc + 8) || is_site_body(pc);
}

/* The first of x30, x9, x16 holding a site's func + 8, or 0. */
static uintptr_t site_in_regs(const uint64_t *x)
{
	if (is_site_body(x[30]))
		return x[30];
	if (is_site_body(x[9]))
		return x[9];
	return is_site_body(x[16]) ? x[16] : 0;
}

/* The first of x30, x9, x17 holding something else, or 0. */
static uintptr_t ret_in_regs(const uint64_t *x)
{
	if (x[30] && !is_site_body(x[30]))
		return x[30];
	if (x[9] && !is_site_body(x[9]))
		return x[9];
	return x[17] && !is_site_body(x[17]) ? x[17] : 0;
}

bool trace_unwind_head(const struct exc_frame *f, uintptr_t *func, uintptr_t *ret, uintptr_t *fp)
{
	const char *t = tramp_of(f->elr);
	/* trace_caller's saved registers, once it has lowered sp */
	const struct trace_regs *regs = (const struct trace_regs *)f->sp;
	uintptr_t site;

	*func = *ret = 0;
	if (t == fgraph_return || t == fgraph_return_c || t == fgraph_fast_exit ||
	    t == profile_return)
		return return_head(f, t, ret, fp);
	if (!t) {
		if (!at_site(f->elr))
			return false;
		*ret = f->x[30];
		return true;
	}
	if (t == trace_caller || t == trace_caller_both) {
		/* Its records, told from a caller's record that happens to
		 * sit at the same offset from sp by what they hold. */
		if (f->x[29] == (uintptr_t)&regs->record_fp &&
		    regs->record_fp == (uintptr_t)&regs->fp)
			return false;	/* both records linked: the walk has it */
		if (f->x[29] == (uintptr_t)&regs->fp && regs->lr == f->x[9] &&
		    is_site_body(f->x[30])) {
			/* Record A ({caller's fp, return address}) linked,
			 * record B not yet: only the function is missing. */
			*func = f->x[30] - 8;
			return true;
		}
	}
	site = site_in_regs(f->x);
	if (!site && (t == trace_caller || t == trace_caller_both) && is_site_body(regs->pc))
		site = regs->pc;	/* after the callback, before x9 is reloaded */
	*func = site ? site - 8 : 0;
	*ret = ret_in_regs(f->x);
	return site || *ret;
}
