/*
 * trace/events/tracepoint.c: attaching probes to tracepoints and patching their
 * sites (see include/baretrace_tracepoint.h for a site's two words).
 *
 * Probe arrays: each event has two (with fp_probes[], which of them may
 * use FP/SIMD and so are reached through tp_iterate_fp); tp_iterate reads probes[cur] with
 * interrupts masked, so once a synchronisation round has run after 'cur'
 * flipped (every other CPU took the IPI, hence left any tp_iterate) the
 * old array is free to be rewritten; until then it holds a trap probe
 * that counts stale calls (tp_stale_hits). The site's out-of-line block
 * masks interrupts around its BL too (include/baretrace_tracepoint.h),
 * so a probe called directly (a static call) is also finished on every
 * CPU when the round ends: a detached probe, or the recorder whose
 * filter tp_set_filter rewrites while it is detached, is not running. Every change here ends in one
 * patch_apply_insns batch, whose round is that grace period, even when
 * no instruction changes.
 *
 * Order within a change: the new array is published first, then the
 * instructions change. A CPU that still runs an old BL reaches a probe
 * that is still code (probes are never freed), or tp_iterate, which sees
 * the new array; so after a call returns, every hit on every CPU calls
 * exactly the probes attached.
 */
#include <stdlib.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "core/core.h"
#include "tracepoint.h"

struct tp_site_ent {		/* .bt_tp_sites: each a self-relative offset */
	int32_t ev, nop, label;
};
struct tp_call_ent {		/* .bt_tp_calls */
	int32_t ev, bl;
};

extern const struct tp_site_ent __bt_tp_sites_start[], __bt_tp_sites_end[];
extern const struct tp_call_ent __bt_tp_calls_start[], __bt_tp_calls_end[];

#define REL(field) ((uintptr_t)&(field) + (intptr_t)(field))

/* The words of one batch: room for every site word of the image (no
 * event can have more), allocated on the first change. Under trace_lock
 * once installed. */
static uintptr_t *batch_addr;
static uint32_t *batch_old, *batch_insn;

static unsigned int site_words(void)
{
	return (unsigned int)((__bt_tp_calls_end - __bt_tp_calls_start) +
			      (__bt_tp_sites_end - __bt_tp_sites_start));
}

/* Thread context, before trace_lock: 0 or TRACE_ENOMEM. */
static int batch_alloc(void)
{
	if (__atomic_load_n(&batch_addr, __ATOMIC_ACQUIRE))
		return 0;
	unsigned int n = site_words() + 1;
	uintptr_t *a = malloc(n * sizeof(*a));
	uint32_t *o = malloc(n * sizeof(*o)), *i = malloc(n * sizeof(*i));

	if (!a || !o || !i) {
		free(a), free(o), free(i);
		return TRACE_ENOMEM;
	}
	spin_lock(&trace_lock);
	if (!batch_addr) {
		batch_old = o, batch_insn = i;
		__atomic_store_n(&batch_addr, a, __ATOMIC_RELEASE);
		a = NULL, o = NULL, i = NULL;
	}
	spin_unlock(&trace_lock);
	free(a), free(o), free(i);
	return 0;
}

/* The BL's target for n probes, the first 'first', fp_probes saying
 * which may use FP/SIMD (include/baretrace_tracepoint.h). */
static uintptr_t call_target(unsigned int n, tp_probe_fn first, unsigned int fp_probes)
{
	if (fp_probes)
		return (uintptr_t)tp_iterate_fp;
	return n == 1 ? (uintptr_t)first : (uintptr_t)tp_iterate;
}

static uint32_t call_insn(uintptr_t bl, unsigned int n, tp_probe_fn first,
			  unsigned int fp_probes)
{
	return patch_insn_bl(bl, call_target(n, first, fp_probes));
}

/* Every BL of ev from 'from' to 'to', the sites' NOPs as they are: one
 * batch. trace_lock held. */
static int tp_calls_move(const struct tp_event *ev, uintptr_t from, uintptr_t to)
{
	uintptr_t *addr = batch_addr;
	uint32_t *old = batch_old, *insn = batch_insn;
	unsigned int n = 0;

	for (const struct tp_call_ent *c = __bt_tp_calls_start; c < __bt_tp_calls_end; c++) {
		if ((const struct tp_event *)REL(c->ev) != ev)
			continue;
		addr[n] = REL(c->bl);
		old[n] = patch_insn_bl(addr[n], from);
		insn[n] = patch_insn_bl(addr[n], to);
		n++;
	}
	return patch_apply_insns(addr, old, insn, n);
}

/*
 * Rewrites ev's sites from 'was' probes (first one 'was_first') to the
 * published array. Before and after, per site:
 *
 *   words            none attached    one (P)          several
 *   site NOP         NOP              B out_of_line    B out_of_line
 *   out-of-line BL   BL tp_iterate    BL P             BL tp_iterate
 *
 * with BL tp_iterate_fp in place of the BL while any attached probe may
 * use FP/SIMD. trace_lock held.
 */
static int tp_patch(const struct tp_event *ev, unsigned int was, tp_probe_fn was_first,
		    unsigned int was_fp)
{
	uintptr_t *addr = batch_addr;
	uint32_t *old = batch_old, *insn = batch_insn;
	struct tp_state *s = ev->state;
	tp_probe_fn first = s->probes[s->cur][0];
	unsigned int n = 0;

	for (const struct tp_call_ent *c = __bt_tp_calls_start; c < __bt_tp_calls_end; c++) {
		if ((const struct tp_event *)REL(c->ev) != ev)
			continue;
		addr[n] = REL(c->bl);
		old[n] = call_insn(addr[n], was, was_first, was_fp);
		insn[n] = call_insn(addr[n], s->nprobes, first, s->fp_probes[s->cur]);
		n++;
	}
	for (const struct tp_site_ent *t = __bt_tp_sites_start; t < __bt_tp_sites_end; t++) {
		if ((const struct tp_event *)REL(t->ev) != ev)
			continue;
		uintptr_t nop = REL(t->nop), b = patch_insn_b(nop, REL(t->label));

		addr[n] = nop;
		old[n] = was ? b : INSN_NOP;
		insn[n] = s->nprobes ? b : INSN_NOP;
		n++;
	}
	return patch_apply_insns(addr, old, insn, n);
}

bool tp_site_word(uintptr_t addr)
{
	for (const struct tp_call_ent *c = __bt_tp_calls_start; c < __bt_tp_calls_end; c++)
		if (REL(c->bl) == addr)
			return true;
	for (const struct tp_site_ent *t = __bt_tp_sites_start; t < __bt_tp_sites_end; t++)
		if (REL(t->nop) == addr)
			return true;
	return false;
}

/* What a retired probe array holds until it is reused: a CPU still
 * reading it past the grace period is counted here (tests assert 0). */
volatile uint64_t tp_stale_hits;

static void tp_stale_probe(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
	__atomic_fetch_add(&tp_stale_hits, 1, __ATOMIC_RELAXED);
}

/*
 * Publishes 'next' (n probes, fp bit i: next[i] may use FP/SIMD) as
 * ev's array and patches. A CPU still at the old BL reads the new array
 * until the BL changes, and only tp_iterate_fp keeps the caller's
 * FP/SIMD state: so before an array with a probe that may use it is
 * published, the BLs move to tp_iterate_fp first (one batch more, under
 * the old array, which tp_iterate_fp calls as well as the old target
 * did). trace_lock.
 */
static int tp_publish(const struct tp_event *ev, const tp_probe_fn *next, unsigned int n,
		      unsigned int fp)
{
	struct tp_state *s = ev->state;
	unsigned int was = s->nprobes, spare = s->cur ^ 1;
	tp_probe_fn was_first = s->probes[s->cur][0];
	unsigned int was_fp = s->fp_probes[s->cur];
	uintptr_t was_target = call_target(was, was_first, was_fp);
	bool moved = fp && !was_fp;

	if (moved) {
		int err = tp_calls_move(ev, was_target, (uintptr_t)tp_iterate_fp);

		if (err)
			return err;
		was_fp = fp;	/* the BLs' target is now what fp says */
	}
	memset(s->probes[spare], 0, sizeof(s->probes[spare]));
	memcpy(s->probes[spare], next, n * sizeof(*next));
	s->fp_probes[spare] = (unsigned char)fp;
	__atomic_store_n(&s->cur, spare, __ATOMIC_RELEASE);
	s->nprobes = n;
	int err = tp_patch(ev, was, was_first, was_fp);

	if (err) {	/* nothing was written: the old array is still right */
		__atomic_store_n(&s->cur, spare ^ 1, __ATOMIC_RELEASE);
		s->nprobes = was;
		patch_sync_round();	/* no tp_iterate still reads 'spare' */
		if (moved)	/* best effort: the BLs back where the old array says */
			tp_calls_move(ev, (uintptr_t)tp_iterate_fp, was_target);
		return err;
	}
	/* Past the batch's round no CPU reads the old array: poison it until
	 * the next change rewrites it. */
	for (unsigned int i = 0; i < TP_MAX_PROBES; i++)
		s->probes[spare ^ 1][i] = tp_stale_probe;
	return 0;
}

static int tp_change(const struct tp_event *ev, tp_probe_fn probe, bool attach,
		     unsigned int flags)
{
	tp_probe_fn next[TP_MAX_PROBES];
	unsigned int n = 0, found = 0, fp = 0;
	int err = 0;

	if (!ev || !probe)
		return TRACE_EINVAL;
	if (batch_alloc())
		return TRACE_ENOMEM;
	spin_lock(&trace_lock);
	struct tp_state *s = ev->state;

	for (unsigned int i = 0; i < s->nprobes; i++) {
		if (s->probes[s->cur][i] == probe) {
			found = 1;
			continue;
		}
		fp |= ((s->fp_probes[s->cur] >> i) & 1u) << n;
		next[n++] = s->probes[s->cur][i];
	}
	if (attach && !found && n < TP_MAX_PROBES) {
		fp |= (flags & TP_PROBE_NO_FPSIMD ? 0u : 1u) << n;
		next[n++] = probe;
	} else if (attach)
		err = found ? TRACE_EBUSY : TRACE_ENOMEM;
	else if (!found)
		err = TRACE_EINVAL;
	if (!err)
		err = tp_publish(ev, next, n, fp);
	spin_unlock(&trace_lock);
	return err;
}

int tp_probe_attach(const struct tp_event *ev, tp_probe_fn probe)
{
	return tp_change(ev, probe, true, 0);
}

int tp_probe_attach_flags(const struct tp_event *ev, tp_probe_fn probe, unsigned int flags)
{
	return tp_change(ev, probe, true, flags);
}

int tp_probe_detach(const struct tp_event *ev, tp_probe_fn probe)
{
	return tp_change(ev, probe, false, 0);
}

/* For tests: the first NOP and first BL of ev's sites (0 if none). */
uintptr_t tp_first_site(const struct tp_event *ev, bool call)
{
	if (call) {
		for (const struct tp_call_ent *c = __bt_tp_calls_start; c < __bt_tp_calls_end; c++)
			if ((const struct tp_event *)REL(c->ev) == ev)
				return REL(c->bl);
		return 0;
	}
	for (const struct tp_site_ent *t = __bt_tp_sites_start; t < __bt_tp_sites_end; t++)
		if ((const struct tp_event *)REL(t->ev) == ev)
			return REL(t->nop);
	return 0;
}
