/*
 * trace/core/list.c: the list ops, called for a site that two or more ops
 * want (or every wanted site in forced list mode). The literal of such a
 * site points at the site's own state, whose first field is this
 * function, so the site index comes from the pointer, not a search.
 */
#include <stdint.h>

#include "barrier.h"
#include "core.h"

/* Published with a release store under trace_lock; the previous list is
 * reused only after a sync round (trace/core/ops.c). */
struct ops_list *trace_live_ops;

void trace_list_func(uintptr_t ip, uintptr_t parent_ip, struct trace_ops *op,
		     struct trace_regs *regs)
{
	unsigned int site = (unsigned int)((struct site_state *)op - bt_site_state);
	const struct ops_list *l = smp_load_acquire(&trace_live_ops);
	uint64_t bit = 1ULL << (site % 64);

	if (!l)
		return;
	for (unsigned int i = 0; i < l->n; i++) {
		struct trace_ops *o = l->ops[i];
		const uint64_t *want = READ_ONCE(o->want);

		if (!want || !(want[site / 64] & bit))
			continue;
		if (!o->fp_shim)	/* TRACE_OPS_NO_FPSIMD when registered */
			o->func(ip, parent_ip, o, regs);
		else	/* an application's: keep the FP/SIMD state */
			trace_fp_call(ip, parent_ip, o, regs);
	}
}
