/*
 * trace/core/ops.c: registering ops and deciding each site's dispatch
 * (an ops' filters and the sites it wants: ops_filter.c).
 *
 * For every site the core counts the registered ops that want it:
 *   0   literal = nop ops, instruction NOP
 *   1   literal = that ops (called straight from the trampoline,
 *       whatever else is registered), instruction BL
 *   2+  literal = the site's own list ops, instruction BL
 * Every change recomputes the counts and patches only the sites whose
 * literal or instruction differs, in one batch with one sync round.
 */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "core.h"
#include "kprintf.h"

struct spinlock trace_lock = SPINLOCK_INIT;

/* Two ops lists: trace_live_ops points at one, the other is spare. Every
 * update ends with a sync round, so when the next update starts no CPU
 * can still be reading the spare one. Under trace_lock. */
static struct ops_list lists[2];
static bool force_list;
static struct patch_req *reqs;		/* bt_site_count entries */

/* Recomputes every site and patches those that change. trace_lock.
 * 'round' false only for trace_ops_retire (core.h says when). */
static int update_sites_round(bool round)
{
	const struct ops_list *l = trace_live_ops;
	unsigned int n = 0;

	for (unsigned int i = 0; i < bt_site_count; i++) {
		struct site_state *s = &bt_site_state[i];
		struct trace_ops *single = NULL;
		uint32_t count = 0;

		for (unsigned int k = 0; k < l->n; k++) {
			if (l->ops[k]->want && site_bit(l->ops[k]->want, i)) {
				count++;
				single = l->ops[k];
			}
		}
		/* A direct trampoline alone gets the BL; shared with ops, the
		 * site goes through trace_caller_both with a literal that calls
		 * the ops and names the trampoline (trace/core/direct.c). */
		bool has_direct = trace_direct_want && trace_direct_want[i];
		uint8_t route = !has_direct ? 0 : count ? SITE_BOTH : SITE_DIRECT;
		bool enable = count || has_direct;
		struct trace_ops *lit = !count ? &trace_nop_ops :
			count == 1 && !force_list ? trace_ops_literal(single) :
			(struct trace_ops *)s;

		struct trace_ops *inner = NULL;

		if (route == SITE_DIRECT)
			lit = trace_direct_ops[i];
		if (route == SITE_BOTH) {	/* the patcher publishes inner */
			inner = lit;
			lit = trace_direct_both[i];
		}

		/* A core tracer alone on the site: its recorder in assembly
		 * (TRACE_OPS_ENTRY), with no trampoline in between. */
		if (!route && count == 1 && lit == single && (single->flags & TRACE_OPS_ENTRY) &&
		    single->direct_call)
			route = SITE_ENTRY;

		s->wanting = count;
		s->flags = (uint8_t)(count ? s->flags | SITE_WANTED : s->flags & ~SITE_WANTED);

		if (lit != s->installed || enable != !!(s->flags & SITE_ENABLED) ||
		    route != (s->flags & SITE_ROUTE) ||
		    (inner && inner != trace_direct_both[i]->data))
			reqs[n++] = (struct patch_req){ i, lit, enable, route, inner, NULL };
	}
	return round ? patch_apply(reqs, n) : patch_apply_retire(reqs, n);
}

static int update_sites(void)
{
	return update_sites_round(true);
}

/* Publishes a copy of the live list with 'add' appended or 'remove'
 * taken out. trace_lock. */
static void publish_list(struct trace_ops *add, struct trace_ops *remove)
{
	const struct ops_list *live = trace_live_ops;
	struct ops_list *next = live == &lists[0] ? &lists[1] : &lists[0];
	unsigned int n = 0;

	for (unsigned int k = 0; k < live->n; k++)
		if (live->ops[k] != remove)
			next->ops[n++] = live->ops[k];
	if (add)
		next->ops[n++] = add;
	next->n = n;
	smp_store_release(&trace_live_ops, next);
}

/* The literal a site wanted by ops alone gets: the ops itself, or for
 * a callback that may use FP/SIMD its shim, whose func saves the
 * traced function's FP/SIMD state around ops->func (trace/core/fp_call.S).
 * The choice is in the literal, so a CPU never sees an application ops
 * without the save, however the patcher's writes interleave. */
struct trace_ops *trace_ops_literal(struct trace_ops *ops)
{
	return ops->fp_shim ? ops->fp_shim : ops;	/* decided at register */
}

int trace_ops_register(struct trace_ops *ops)
{
	if (!ops || !ops->func)
		return TRACE_EINVAL;
	if (!trace_live_ops)
		return TRACE_ENOMEM;	/* trace_init failed */
	if (patch_round_missed())
		return TRACE_EBUSY;	/* a CPU may hold the spare list (patch.c) */
	uint64_t *want = trace_ops_want(ops);
	struct trace_ops *shim = NULL;

	if (!(ops->flags & TRACE_OPS_NO_FPSIMD))
		shim = calloc(1, sizeof(*shim));
	if (!want || (!shim && !(ops->flags & TRACE_OPS_NO_FPSIMD))) {
		free(want);
		free(shim);
		return TRACE_ENOMEM;
	}
	if (shim) {
		shim->func = trace_fp_shim_func;
		shim->data = ops;
		shim->flags = TRACE_OPS_NO_FPSIMD;
	}
	spin_lock(&trace_lock);
	if (ops->registered || trace_live_ops->n == TRACE_OPS_MAX) {
		spin_unlock(&trace_lock);
		free(want);
		free(shim);
		return TRACE_EBUSY;
	}
	ops->want = want;
	ops->fp_shim = shim;
	publish_list(ops, NULL);
	int err = update_sites();

	if (err) {	/* nothing was patched: take it back out */
		publish_list(NULL, ops);
		update_sites();		/* a no-op batch: its round is the grace period */
		ops->want = NULL;
		ops->fp_shim = NULL;
		free(want);
		free(shim);
	} else {
		ops->registered = true;
	}
	spin_unlock(&trace_lock);
	return err;
}

int trace_ops_unregister(struct trace_ops *ops)
{
	if (!ops)
		return TRACE_EINVAL;
	if (patch_round_missed())
		return TRACE_EBUSY;	/* sites stay as they are (patch.c) */
	spin_lock(&trace_lock);
	if (!ops->registered) {
		spin_unlock(&trace_lock);
		return TRACE_EBUSY;
	}
	publish_list(NULL, ops);
	int err = update_sites();	/* ends with the grace-period round */

	if (err) {
		publish_list(ops, NULL);
		update_sites();
		spin_unlock(&trace_lock);
		return err;
	}
	if (patch_round_missed()) {
		/* The round missed a CPU, which may still read want and
		 * shim: they stay, for good (the run is ending). */
		ops->registered = false;
		spin_unlock(&trace_lock);
		return 0;
	}
	uint64_t *want = ops->want;
	struct trace_ops *shim = ops->fp_shim;	/* out of every literal since the round */

	ops->want = NULL;
	ops->fp_shim = NULL;
	ops->registered = false;
	spin_unlock(&trace_lock);
	free(want);
	free(shim);
	return 0;
}

int trace_ops_register_each(struct trace_ops *first, size_t stride, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		int err = trace_ops_register((struct trace_ops *)((char *)first + i * stride));

		if (err) {
			while (i--)
				trace_ops_unregister((struct trace_ops *)((char *)first + i * stride));
			return err;
		}
	}
	return 0;
}

int trace_force_list(bool on)
{
	if (!trace_live_ops)
		return TRACE_ENOMEM;
	spin_lock(&trace_lock);
	force_list = on;
	int err = update_sites();

	spin_unlock(&trace_lock);
	return err;
}

void trace_init(void)
{
	reqs = malloc((bt_site_count + 1) * sizeof(*reqs));
	if (!reqs) {
		kprintf("trace: no memory for the patch queue; tracing off\n");
		return;
	}
	trace_live_ops = &lists[0];
	trace_sites_init();
}

int trace_sites_update(void)
{
	return update_sites();
}

/*
 * Sites leave a registered ops' want in place: each word is cleared with
 * an atomic AND, so trace_list_func, reading it without the lock, sees
 * each bit either set (the ops is called once more, which a retiring
 * ops must take) or clear. Then one batch without a round: every literal
 * and ops a CPU can still reach through an old BL or literal of these
 * sites (this ops, the site's list state, another registered ops, the
 * nop ops) stays valid, since nothing is unpublished or freed here, and
 * each CPU fetches the new instructions at its next context
 * synchronisation (its next interrupt or exception return at the
 * latest; until then it runs the old BL, NOP and BL both being words
 * the architecture lets one CPU replace while another executes them).
 * A later register, unregister or filter change ends in its own round,
 * which covers these writes too before anything is freed.
 *
 * Any context, interrupts masked included: the lock is only tried, never
 * waited for (a thread on this CPU may hold it), and no CPU is waited
 * for. TRACE_EBUSY when the lock is taken or ops is not registered.
 */
int trace_ops_retire(struct trace_ops *ops, const uint64_t *sites)
{
	bool any = false;

	if (patch_round_missed() || !spin_trylock(&trace_lock))
		return TRACE_EBUSY;	/* nothing is patched once a round missed a CPU */
	if (!ops->registered || !ops->want) {
		spin_unlock(&trace_lock);
		return TRACE_EBUSY;
	}
	for (unsigned int w = 0; w < site_bitmap_words(); w++) {
		uint64_t drop = __atomic_load_n(&sites[w], __ATOMIC_RELAXED) & ops->want[w];

		if (drop) {
			__atomic_fetch_and(&ops->want[w], ~drop, __ATOMIC_RELAXED);
			any = true;
		}
	}
	int err = any ? update_sites_round(false) : 0;

	spin_unlock(&trace_lock);
	return err;
}
