/*
 * trace/patch.c: applying a batch of site changes to text.
 *
 * A site's three words, by state (func = the function's address):
 *
 *   state         func-8 (literal)   func+0        func+4
 *   built         NOP NOP            NOP           NOP
 *   no ops        &trace_nop_ops     MOV X9, LR    NOP
 *   one ops       &ops               MOV X9, LR    BL trace_caller
 *   two or more   &bt_site_state[i]  MOV X9, LR    BL trace_caller
 *
 * Order, so that any CPU executing the site at any moment finds a valid
 * literal: all literal writes first, then all instruction writes. When a
 * site turns on, its literal is right before its BL appears; when it
 * turns off, its literal already names the nop ops while a CPU may still
 * run the old BL. Then one cache maintenance pass over the touched range
 * and one synchronisation round: an IPI after which every other CPU has
 * executed an ISB. The round is also the grace period for literals and
 * ops lists replaced in the batch (see trace/entry.S).
 *
 * Before anything is written every site is checked against the state the
 * core believes it is in; on any mismatch the whole batch is refused.
 * Called with trace_lock held.
 */
#include <stdint.h>

#include <baretrace_events.h>

#include "barrier.h"
#include "core.h"
#include "kprintf.h"
#include "percpu.h"
#include "text_alias.h"

extern char trace_caller[];

/* Written only under trace_lock, one word at a time with atomic
 * stores (stat_add); read without the lock by trace_patch_stats, which
 * must never wait for trace_lock: a patcher holding it waits for every
 * CPU's IPI, and a reader spinning with interrupts masked never takes
 * it (a deadlock). */
static struct trace_patch_stats stats;

static void stat_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, *c + n, __ATOMIC_RELAXED);	/* the only writer */
}

uint32_t patch_insn_bl(uintptr_t from, uintptr_t to)
{
	int64_t off = (int64_t)(to - from) >> 2;

	return 0x94000000U | ((uint32_t)off & 0x03ffffffU);
}

extern char trace_caller_both[];

static uint32_t site_insn(unsigned int i, bool enabled, unsigned int route)
{
	uintptr_t to = route == SITE_DIRECT ? trace_direct_target(i) :
		       route == SITE_BOTH ? (uintptr_t)trace_caller_both : (uintptr_t)trace_caller;

	return enabled ? patch_insn_bl(site_func(i) + 4, to) : INSN_NOP;
}

static bool site_as_expected(const struct patch_req *r)
{
	const struct site_state *s = &bt_site_state[r->site];
	const volatile uint64_t *lit = (const volatile uint64_t *)(site_func(r->site) - 8);
	const volatile uint32_t *insn = (const volatile uint32_t *)site_func(r->site);

	if (*lit == (uintptr_t)s->installed && insn[0] == INSN_MOV_X9_LR &&
	    insn[1] == site_insn(r->site, s->flags & SITE_ENABLED,
				  s->flags & (SITE_DIRECT | SITE_BOTH)))
		return true;
	kprintf("trace: site %s at %p is not as expected (literal %lx, insns %08x %08x); "
		"batch refused, nothing written\n", trace_site_name(r->site),
		(void *)site_func(r->site), (unsigned long)*lit, insn[0], insn[1]);
	return false;
}

static void isb_here(void *arg)
{
	(void)arg;
	isb();	/* the ERET from the IPI also synchronises; be explicit */
}

void patch_sync_round(void)
{
	if (nr_cpus_online > 1)
		smp_call_others(isb_here, NULL);
	stat_add(&stats.rounds, 1);
}

int patch_apply(const struct patch_req *reqs, unsigned int n)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	for (unsigned int k = 0; k < n; k++) {
		if (!site_as_expected(&reqs[k])) {
			stat_add(&stats.refused, 1);
			return TRACE_EPATCH;
		}
	}
	for (unsigned int k = 0; k < n; k++) {
		struct site_state *s = &bt_site_state[reqs[k].site];
		uintptr_t f = site_func(reqs[k].site);

		if (reqs[k].literal != s->installed)
			text_write64((void *)(f - 8), (uintptr_t)s->installed,
				     (uintptr_t)reqs[k].literal);
		s->installed = reqs[k].literal;
		lo = f - 8 < lo ? f - 8 : lo;
		hi = f + 8 > hi ? f + 8 : hi;
	}
	dsb_ish();	/* literals are visible before any new BL can be */
	for (unsigned int k = 0; k < n; k++) {
		struct site_state *s = &bt_site_state[reqs[k].site];
		bool was = s->flags & SITE_ENABLED;
		uint32_t old = site_insn(reqs[k].site, was, s->flags & (SITE_DIRECT | SITE_BOTH));
		uint32_t insn = site_insn(reqs[k].site, reqs[k].enable, reqs[k].route);

		if (insn != old)
			text_write32((void *)(site_func(reqs[k].site) + 4), old, insn);
		s->flags = (uint8_t)((s->flags & ~(SITE_ENABLED | SITE_DIRECT | SITE_BOTH)) |
				     (reqs[k].enable ? SITE_ENABLED : 0) | reqs[k].route);
	}
	if (n)
		text_sync(lo, hi);
	patch_sync_round();
	stat_add(&stats.batches, 1);
	stat_add(&stats.sites, n);
	trace_event(trace, patch, n, 0);
	return 0;
}

/*
 * Plain instruction words, for sites that are not function entries (the
 * tracepoints' NOP <-> B and their static-call BLs). Same discipline as
 * patch_apply: every word is checked against 'old' before any is
 * written, then all are written in the order given (callers list the
 * words a new path needs before the word that opens it), one cache pass
 * over the range and one synchronisation round, which is also the grace
 * period for anything the old instructions could reach. trace_lock held.
 */
int patch_apply_insns(const uintptr_t *addr, const uint32_t *old,
		      const uint32_t *insn, unsigned int n)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	for (unsigned int k = 0; k < n; k++) {
		if (*(const volatile uint32_t *)addr[k] != old[k]) {
			kprintf("trace: instruction at %p is %08x, expected %08x; "
				"batch refused, nothing written\n", (void *)addr[k],
				*(const volatile uint32_t *)addr[k], old[k]);
			stat_add(&stats.refused, 1);
			return TRACE_EPATCH;
		}
	}
	for (unsigned int k = 0; k < n; k++) {
		if (old[k] != insn[k] && text_write32((void *)addr[k], old[k], insn[k]))
			return TRACE_EPATCH;	/* not text: checked above, cannot race */
		lo = addr[k] < lo ? addr[k] : lo;
		hi = addr[k] + 4 > hi ? addr[k] + 4 : hi;
	}
	if (n)
		text_sync(lo, hi);
	patch_sync_round();
	stat_add(&stats.batches, 1);
	stat_add(&stats.sites, n);
	trace_event(trace, patch, n, 1);
	return 0;
}

uint32_t patch_insn_b(uintptr_t from, uintptr_t to)
{
	int64_t off = (int64_t)(to - from) >> 2;

	return 0x14000000U | ((uint32_t)off & 0x03ffffffU);
}

/* Each counter is exact; the four may come from different moments. */
void trace_patch_stats(struct trace_patch_stats *out)
{
	out->batches = __atomic_load_n(&stats.batches, __ATOMIC_RELAXED);
	out->sites = __atomic_load_n(&stats.sites, __ATOMIC_RELAXED);
	out->rounds = __atomic_load_n(&stats.rounds, __ATOMIC_RELAXED);
	out->refused = __atomic_load_n(&stats.refused, __ATOMIC_RELAXED);
}
