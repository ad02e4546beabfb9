/*
 * trace/direct.c: direct trampolines. trace_direct_attach(func, tramp)
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
 * While ordinary ops also want the site, the site goes through
 * trace_caller and the ops, and the trampoline is not called; it gets
 * the site back when they let go. Only trampolines within BL range
 * (+-128 MiB) are taken for now.
 */
#include <stdlib.h>

#include <baretrace_trace.h>

#include "core.h"

uintptr_t *trace_site_direct;
uint8_t *trace_direct_want;

#define BL_RANGE (128L << 20)

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
	intptr_t off = (intptr_t)tramp - (intptr_t)(site_func((unsigned int)i) + 4);

	if (off < -BL_RANGE || off >= BL_RANGE || ((uintptr_t)tramp & 3))
		return TRACE_EINVAL;	/* the long path is not written yet */
	if (!trace_site_direct) {
		uintptr_t *d = calloc(trace_site_count(), sizeof(*d));
		uint8_t *w = calloc(trace_site_count(), 1);

		if (!d || !w) {
			free(d);
			free(w);
			return TRACE_ENOMEM;
		}
		spin_lock(&trace_lock);
		if (!trace_site_direct) {
			trace_site_direct = d;
			trace_direct_want = w;
			d = NULL, w = NULL;
		}
		spin_unlock(&trace_lock);
		free(d);
		free(w);
	}
	spin_lock(&trace_lock);
	int err = 0;

	if (trace_direct_want[i] || (bt_site_state[i].flags & SITE_DIRECT)) {
		err = TRACE_EBUSY;
	} else {
		trace_site_direct[i] = (uintptr_t)tramp;
		trace_direct_want[i] = 1;
		err = trace_sites_update();
		if (err)
			trace_direct_want[i] = 0;
	}
	spin_unlock(&trace_lock);
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
