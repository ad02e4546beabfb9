/*
 * trace/core/direct.c: direct trampolines. trace_direct_attach(func, tramp)
 * makes func's patch site call tramp itself:
 *
 *   func+0:  mov x9, x30
 *   func+4:  bl  tramp        (instead of NOP or bl trace_caller)
 *
 * so tramp runs with x30 = func + 8 and x9 = func's return address, the
 * arguments in x0-x7, as trace_caller does; it continues the function
 * with "mov x16, x30; mov x30, x9; br x16" or calls the body at x30 as
 * a function (with lr = its own return) to run code after it returns.
 *
 * While ordinary ops also want the site, the BL goes to
 * trace_caller_both, which calls the ops and then enters the trampoline
 * as the BL would have; the trampoline gets the BL back when they let
 * go. A trampoline within BL range (+-128 MiB) gets the BL itself; one further away is reached through
 * trace_caller_direct (trace/core/entry.S), which branches to the
 * direct_call slot of the site's literal: no PLT, no range limit.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <baretrace_trace.h>

#include "core.h"

uintptr_t *trace_site_direct;
uint8_t *trace_direct_want;
struct trace_ops **trace_direct_ops;
struct trace_ops **trace_direct_both;
bool trace_direct_force_long;	/* tests and benchmarks: take the long path */

extern char trace_caller_direct[];
extern char trace_direct_stale[];	/* trace/core/direct_stale.S */
extern struct trace_ops trace_nop_ops;

/* Uses of a freed direct ops (should stay 0; tests read it). */
volatile uint64_t trace_direct_stale_hits;

static void stale_func(uintptr_t ip, uintptr_t parent, struct trace_ops *op,
		       struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)op, (void)regs;
	__atomic_fetch_add(&trace_direct_stale_hits, 1, __ATOMIC_RELAXED);
}

static struct trace_ops stale_ops = { .func = stale_func };

/* Frees a pair (literal ops, shared ops) filled so that any later use
 * is counted in trace_direct_stale_hits rather than silent (malloc may
 * reuse the first words of the block). */
static void free_poisoned(struct trace_ops *pair)
{
	if (!pair)
		return;
	for (int k = 0; k < 2; k++) {
		pair[k].func = stale_func;
		pair[k].direct_call = (uintptr_t)trace_direct_stale;
		pair[k].data = &stale_ops;
	}
	free(pair);
}

#define BL_RANGE (128L << 20)

static bool in_range(unsigned int i, uintptr_t tramp)
{
	intptr_t off = (intptr_t)tramp - (intptr_t)(site_func(i) + 4);

	return off >= -BL_RANGE && off < BL_RANGE && !trace_direct_force_long;
}

/* The literal's func while ops share the site with a trampoline: the
 * ops that would be the literal on their own are in data. */
static void direct_both_func(uintptr_t ip, uintptr_t parent, struct trace_ops *op,
			     struct trace_regs *regs)
{
	struct trace_ops *inner = __atomic_load_n((struct trace_ops **)&op->data,
						  __ATOMIC_ACQUIRE);

	if (inner)
		inner->func(ip, parent, inner, regs);
}

/* Decided at attach time and fixed until detach (the patcher checks the
 * BL in text against it). trace_lock. */
uintptr_t trace_direct_target(unsigned int i)
{
	struct trace_ops *o = trace_direct_ops[i];

	return o->data ? (uintptr_t)trace_caller_direct : o->direct_call;
}

static int site_for(void *func)
{
	int i = trace_site_of((uintptr_t)func);

	return i >= 0 && site_func((unsigned int)i) == (uintptr_t)func ? i : -1;
}

int trace_direct_attach(void *func, void *tramp)
{
	int i = site_for(func);

	if (i < 0 || !tramp)
		return TRACE_EINVAL;
	if ((uintptr_t)tramp & 3)
		return TRACE_EINVAL;
	if (!trace_site_direct) {
		uintptr_t *d = calloc(trace_site_count(), sizeof(*d));
		uint8_t *w = calloc(trace_site_count(), 1);
		struct trace_ops **o = calloc(trace_site_count(), sizeof(*o));
		struct trace_ops **b = calloc(trace_site_count(), sizeof(*b));

		if (!d || !w || !o || !b) {
			free(d), free(w), free(o), free(b);
			return TRACE_ENOMEM;
		}
		spin_lock(&trace_lock);
		if (!trace_site_direct) {
			trace_direct_ops = o;
			trace_direct_both = b;
			trace_direct_want = w;
			trace_site_direct = d;
			d = NULL, w = NULL, o = NULL, b = NULL;
		}
		spin_unlock(&trace_lock);
		free(d), free(w), free(o), free(b);
	}
	/* The site's literal while the trampoline has it: func is never
	 * called (only trace_caller would, and it is not the BL target);
	 * data marks the long path. */
	struct trace_ops *ops = calloc(2, sizeof(*ops)), *both = ops + 1;

	if (!ops)
		return TRACE_ENOMEM;
	both->func = direct_both_func;
	both->direct_call = (uintptr_t)tramp;
	ops->func = trace_nop_ops.func;
	ops->direct_call = (uintptr_t)tramp;
	ops->data = in_range((unsigned int)i, (uintptr_t)tramp) ? NULL : ops;
	spin_lock(&trace_lock);
	int err = 0;

	if (trace_direct_want[i] || (bt_site_state[i].flags & SITE_DIRECT)) {
		err = TRACE_EBUSY;
	} else {
		struct trace_ops *old = trace_direct_ops[i], *old_both = trace_direct_both[i];

		trace_site_direct[i] = (uintptr_t)tramp;
		trace_direct_ops[i] = ops;
		trace_direct_both[i] = both;
		trace_direct_want[i] = 1;
		err = trace_sites_update();
		if (err) {
			trace_direct_want[i] = 0;
			trace_direct_ops[i] = old;
			trace_direct_both[i] = old_both;
		} else {
			/* Both halves: out of text since its detach's round,
			 * and every load of a literal is masked (the grace
			 * period, trace/core/entry.S). */
			free_poisoned(old);
		}
	}
	spin_unlock(&trace_lock);
	if (err)
		free(ops);
	return err;
}

/* Returns once no CPU can enter tramp through the site any more. */
int trace_direct_detach(void *func)
{
	int i = site_for(func), err;

	if (i < 0 || !trace_direct_want || !trace_direct_want[i])
		return TRACE_EINVAL;
	spin_lock(&trace_lock);
	trace_direct_want[i] = 0;
	err = trace_sites_update();
	if (err)
		trace_direct_want[i] = 1;
	spin_unlock(&trace_lock);
	return err;
}
