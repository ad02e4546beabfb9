/*
 * trace/core/patch.c: applying a batch of site changes to text.
 *
 * A site's three words, by state (func = the function's address):
 *
 *   state         func-8 (literal)   func+0        func+4
 *   built         NOP NOP            NOP           NOP
 *   no ops        &trace_nop_ops     MOV X9, LR    NOP
 *   one ops       &ops               MOV X9, LR    BL trace_caller
 *     own entry   &ops               MOV X9, LR    BL ops->direct_call
 *   two or more   &bt_site_state[i]  MOV X9, LR    BL trace_caller
 *
 * Order, so that any CPU executing the site at any moment finds a valid
 * literal: all literal writes first, then all instruction writes. When a
 * site turns on, its literal is right before its BL appears; when it
 * turns off, its literal already names the nop ops while a CPU may still
 * run the old BL. Then one cache maintenance pass over the touched range
 * and one synchronisation round: an IPI after which every other CPU has
 * executed an ISB. The round is also the grace period for literals and
 * ops lists replaced in the batch (see trace/core/entry.S).
 *
 * Before anything is written every site is checked against the state the
 * core believes it is in; on any mismatch the whole batch is refused. A
 * text write that fails all the same (it cannot while trace_lock is held
 * and the check passed, but its result is checked) rolls back what the
 * batch wrote. Either way the batch still ends in a synchronisation
 * round, the grace period for what the caller published and takes back.
 * Called with trace_lock held.
 */
#include <stdint.h>

#include <baretrace_events.h>

#include "barrier.h"
#include "core.h"
#include "kprintf.h"
#include "percpu.h"
#include "smp.h"
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

/* The instruction at func + 4 for a route; 'lit' is the site's literal
 * in that state (SITE_ENTRY calls its direct_call, which never changes
 * while the ops is installed). */
static uint32_t site_insn(unsigned int i, bool enabled, unsigned int route,
			  const struct trace_ops *lit)
{
	uintptr_t to = route == SITE_DIRECT ? trace_direct_target(i) :
		       route == SITE_BOTH ? (uintptr_t)trace_caller_both :
		       route == SITE_ENTRY ? lit->direct_call : (uintptr_t)trace_caller;

	return enabled ? patch_insn_bl(site_func(i) + 4, to) : INSN_NOP;
}

static bool site_as_expected(const struct patch_req *r)
{
	const struct site_state *s = &bt_site_state[r->site];
	const volatile uint64_t *lit = (const volatile uint64_t *)(site_func(r->site) - 8);
	const volatile uint32_t *insn = (const volatile uint32_t *)site_func(r->site);

	if (*lit == (uintptr_t)s->installed && insn[0] == INSN_MOV_X9_LR &&
	    insn[1] == site_insn(r->site, s->flags & SITE_ENABLED,
				  s->flags & SITE_ROUTE, s->installed))
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

/*
 * How long a round waits. While the run goes on, a round waits for
 * every CPU however long it takes (a CPU that masks interrupts for a
 * while delays the patcher, never the other way round): it asks the
 * CPUs that have not answered again every ROUND_TRY_US, and between two
 * tries looks whether the run is ending. Once it is (patch_end_of_run),
 * a round gives up on a CPU that does not answer within ROUND_END_US:
 * a CPU spinning with interrupts masked must not keep the run from
 * ending (issue 22).
 *
 * The rule for a CPU a round did not reach (round_missed): it may still
 * execute the instructions the batch replaced (it ran no ISB) and hold
 * any literal, ops list or ops memory the batch took out of use (the
 * round was no grace period for it). Both are safe only if nothing is
 * reused or freed after it: so from then on every register and
 * unregister is refused before it touches anything (trace_ops_register,
 * trace_ops_unregister), and an unregister whose own round missed one
 * keeps its ops' memory for good. At the end of a run the caller first
 * probes (patch_end_of_run) and, if a CPU does not answer, leaves every
 * site as it is: the tracer stays attached, and the rings stop it
 * recording instead (ring_end), which needs no cross-CPU round. An
 * instruction a CPU did not resynchronise after is still one the patcher
 * wrote as a whole (NOP or BL, which the architecture lets one CPU write
 * while another executes it), so that CPU runs the old or the new one,
 * and both are valid while nothing is freed.
 */
#define ROUND_TRY_US	10000	/* a try of a round while the run goes on */
/* A round once the run is ending: as long as the crash path waits for
 * a CPU to stop. Not shorter: an emulator or a hypervisor that runs the
 * CPUs in turn can leave a healthy one without a turn for tens of
 * milliseconds of the machine's time (QEMU's single-threaded TCG under
 * -icount runs each vCPU for a slice of the time to its next timer). */
#define ROUND_END_US	SMP_STOP_US

/* Set once, by the CPU that ends the run; read by a patcher between
 * two tries of its round (on any CPU). */
static volatile bool run_ending;
/* The CPUs a round at the end of the run did not reach; bits are only
 * ever added (atomically: the ending CPU's probe and a patcher's round
 * may add at once). */
static uint64_t round_missed;

static void missed(uint64_t cpus, const char *what)
{
	__atomic_fetch_or(&round_missed, cpus, __ATOMIC_RELAXED);
	smp_name_silent(cpus, what, ROUND_END_US);
}

void patch_sync_round(void)
{
	uint64_t left = nr_cpus_online > 1 ? smp_others_mask() : 0;

	while (left) {
		bool ending = READ_ONCE(run_ending);

		left &= ~smp_call_cpus_bounded(left, isb_here, NULL,
					       ending ? ROUND_END_US : ROUND_TRY_US);
		if (left && ending) {
			missed(left, "the patcher's synchronisation round");
			break;
		}
	}
	stat_add(&stats.rounds, 1);
}

uint64_t patch_end_of_run(bool probe)
{
	uint64_t others, silent;

	WRITE_ONCE(run_ending, true);
	if (!probe || nr_cpus_online < 2)
		return 0;
	others = smp_others_mask();
	silent = others & ~smp_call_cpus_bounded(others, isb_here, NULL, ROUND_END_US);
	if (silent) {
		missed(silent, "the end of the run's patch round");
		kprintf("trace: tracers stay attached (a CPU that did not answer may still "
			"run their sites); the rings stop recording instead\n");
	}
	return silent;
}

bool patch_round_missed(void)
{
	return __atomic_load_n(&round_missed, __ATOMIC_RELAXED) != 0;
}

/* Puts back what a batch wrote before a text write failed: the first
 * 'lits' literals and 'insns' instructions of reqs, and every shared
 * site's inner ops. Reports what it cannot undo. */
static void roll_back(const struct patch_req *reqs, unsigned int n, unsigned int lits,
		      unsigned int insns)
{
	for (unsigned int k = 0; k < insns; k++) {
		const struct site_state *s = &bt_site_state[reqs[k].site];
		uint32_t was = site_insn(reqs[k].site, s->flags & SITE_ENABLED,
					 s->flags & SITE_ROUTE, s->installed);
		uint32_t now = site_insn(reqs[k].site, reqs[k].enable, reqs[k].route, reqs[k].literal);

		if (now != was && text_write32((void *)(site_func(reqs[k].site) + 4), now, was))
			kprintf("trace: site %s: cannot put its instruction back\n",
				trace_site_name(reqs[k].site));
	}
	for (unsigned int k = 0; k < lits; k++) {
		const struct site_state *s = &bt_site_state[reqs[k].site];

		if (reqs[k].literal != s->installed &&
		    text_write64((void *)(site_func(reqs[k].site) - 8),
				 (uintptr_t)reqs[k].literal, (uintptr_t)s->installed))
			kprintf("trace: site %s: cannot put its literal back\n",
				trace_site_name(reqs[k].site));
	}
	for (unsigned int k = 0; k < n; k++)
		if (reqs[k].route == SITE_BOTH)
			__atomic_store_n(&trace_direct_both[reqs[k].site]->data,
					 reqs[k].old_inner, __ATOMIC_RELEASE);
}

static void __attribute__((noinline, cold)) write_failed(unsigned int site, int err)
{
	kprintf("trace: writing site %s failed (error %d); batch rolled back\n",
		trace_site_name(site), err);
}

/*
 * A refused or failed batch still ends in a synchronisation round: the
 * caller published state for it (an ops list, a want bitmap) that it
 * now takes back, and may reuse only once no CPU can hold it.
 *
 * With 'round' false (patch_apply_retire) there is none: see core.h for
 * the one kind of batch that may skip it.
 */
static int apply(struct patch_req *reqs, unsigned int n, bool round)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	unsigned int k, lits = 0, insns = 0;
	int err = 0;

	for (k = 0; k < n; k++) {
		if (!site_as_expected(&reqs[k])) {
			stat_add(&stats.refused, 1);
			if (round)
				patch_sync_round();
			return TRACE_EPATCH;
		}
	}
	/* Accepted. A shared site's inner ops first: its literal may be
	 * live already, and a new one must be valid before it is. */
	for (k = 0; k < n; k++) {
		if (reqs[k].route != SITE_BOTH)
			continue;
		struct trace_ops *both = trace_direct_both[reqs[k].site];

		reqs[k].old_inner = both->data;
		__atomic_store_n(&both->data, reqs[k].inner, __ATOMIC_RELEASE);
	}
	for (; lits < n && !err; lits++) {
		const struct site_state *s = &bt_site_state[reqs[lits].site];
		uintptr_t f = site_func(reqs[lits].site);

		if (reqs[lits].literal != s->installed)
			err = text_write64((void *)(f - 8), (uintptr_t)s->installed,
					   (uintptr_t)reqs[lits].literal);
		lo = f - 8 < lo ? f - 8 : lo;
		hi = f + 8 > hi ? f + 8 : hi;
	}
	dsb_ish();	/* literals are visible before any new BL can be */
	for (; insns < n && !err; insns++) {
		const struct site_state *s = &bt_site_state[reqs[insns].site];
		uint32_t old = site_insn(reqs[insns].site, s->flags & SITE_ENABLED,
					 s->flags & SITE_ROUTE, s->installed);
		uint32_t insn = site_insn(reqs[insns].site, reqs[insns].enable, reqs[insns].route,
					 reqs[insns].literal);

		if (insn != old)
			err = text_write32((void *)(site_func(reqs[insns].site) + 4), old, insn);
	}
	if (err) {	/* the word that failed was not written */
		unsigned int bad = insns ? insns - 1 : lits - 1;

		write_failed(reqs[bad].site, err);
		roll_back(reqs, n, insns ? lits : lits - 1, insns ? insns - 1 : 0);
		dsb_ish();
		if (lo <= hi)
			text_sync(lo, hi);
		if (round)
			patch_sync_round();
		stat_add(&stats.refused, 1);
		return TRACE_EPATCH;
	}
	for (k = 0; k < n; k++) {
		struct site_state *s = &bt_site_state[reqs[k].site];

		s->installed = reqs[k].literal;
		s->flags = (uint8_t)((s->flags & ~(SITE_ENABLED | SITE_ROUTE)) |
				     (reqs[k].enable ? SITE_ENABLED : 0) | reqs[k].route);
	}
	if (n)
		text_sync(lo, hi);
	if (round)
		patch_sync_round();
	stat_add(&stats.batches, 1);
	stat_add(&stats.sites, n);
	trace_event(trace, patch, n, 0);
	return 0;
}

int patch_apply(struct patch_req *reqs, unsigned int n)
{
	return apply(reqs, n, true);
}

int patch_apply_retire(struct patch_req *reqs, unsigned int n)
{
	return apply(reqs, n, false);
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
			patch_sync_round();	/* the caller takes back what it published */
			return TRACE_EPATCH;
		}
	}
	for (unsigned int k = 0; k < n; k++) {
		int err = old[k] != insn[k] ? text_write32((void *)addr[k], old[k], insn[k]) : 0;

		lo = addr[k] < lo ? addr[k] : lo;
		hi = addr[k] + 4 > hi ? addr[k] + 4 : hi;
		if (err) {	/* checked above under trace_lock: not expected */
			kprintf("trace: writing the instruction at %p failed (error %d); "
				"batch rolled back\n", (void *)addr[k], err);
			while (k--)
				if (old[k] != insn[k] && text_write32((void *)addr[k], insn[k], old[k]))
					kprintf("trace: cannot put back the instruction at %p\n",
						(void *)addr[k]);
			text_sync(lo, hi);
			patch_sync_round();
			stat_add(&stats.refused, 1);
			return TRACE_EPATCH;
		}
	}
	if (n)
		text_sync(lo, hi);
	patch_sync_round();
	stat_add(&stats.batches, 1);
	stat_add(&stats.sites, n);
	trace_event(trace, patch, n, 1);
	return 0;
}

/* Whether a B at 'from' reaches 'to': its byte offset is a signed 28-bit
 * number (+-128 MiB), i.e. survives sign-extension from bit 27. */
bool patch_b_reaches(uintptr_t from, uintptr_t to)
{
	int64_t off = (int64_t)(to - from);

	return (int64_t)((uint64_t)off << 36) >> 36 == off;
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
