/*
 * trace/tracers/retprobe.c: return probes, NAME=SYMBOL%return with
 * fetches of $retval, sp and memory at them (retprobe.h).
 *
 * Fetches: $retval, sp, memory at them and globals (@SYMBOL).
 *
 * No new mechanism: each return probe is an ops of its own on its
 * function's patch site, like the histograms. Its entry callback hooks
 * the return through the shadow stack (fgraph.c) with a frame owned by
 * FGRAPH_RETPROBE that carries the probe's number (in ts) and entry (in
 * aux); when the function returns, fgraph_exit calls retprobe_exit with
 * x0 as the function left it, which counts the hit and records the
 * fetches as a probe hit (subtype 5, docs/wire.md 2.6: the record of
 * an instruction probe, with the return probe's number). Planting and
 * removing are the patcher's register and unregister, safe while other
 * CPUs run the function (trace/core/patch.c); no instruction of the
 * function changes. So only functions with a patch site take one.
 *
 * A call left by a longjmp never returns through its hook: its frame is
 * unwound without a hit. A call the hook could not take (return hooks
 * stopped, the shadow stack full) is counted in 'missed'.
 *
 * Removal: the ops is unregistered (no CPU runs the entry callback any
 * more), but calls hooked before may still be open and return later.
 * Each CPU then clears the number in its own open frames of the probe
 * (an IPI, or directly on this CPU; interrupts masked, so never in the
 * middle of fgraph_exit or a push). A CPU that answered has no frame
 * left that names the probe, and no return it makes can read the entry
 * again: only then is the entry reused. A CPU that never answers (10 s)
 * keeps the entry out of use for good.
 *
 * Locking: 'plant_lock' serialises planting and removal (thread context;
 * held across the patcher's rounds, which take trace_lock themselves).
 * The entry callback and the exit read an entry written before its ops
 * is registered and rewritten only after the clearing above. The list
 * and the exporter read entries on any CPU without a lock: 'seq' is odd
 * while a planting writes one, as trace/core/probe.c's.
 */
#include <string.h>

#include <baretrace_trace.h>

#include "barrier.h"
#include "core/core.h"
#include "fgraph.h"
#include "kprintf.h"
#include "percpu.h"
#include "retprobe.h"
#include "smp.h"
#include "symbols.h"

struct retprobe {
	struct trace_ops ops;	/* data = this entry */
	uintptr_t func;		/* the function's entry; 0 while free */
	unsigned int site;
	uint32_t number;	/* on the wire; 0 while free */
	struct probe_spec spec;
	uint64_t hits;		/* returns seen (any CPU adds, atomically) */
	uint64_t unrecorded;	/* returns not recorded: no ring, or no room */
	uint32_t seq;
};

static struct retprobe rps[RETPROBE_MAX];
static struct spinlock plant_lock = SPINLOCK_INIT;
static unsigned int planted;	/* under plant_lock */
static uint64_t missed;		/* atomic adds */

/* The entry callback: interrupts masked, on the probed function's site. */
static void rp_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		     struct trace_regs *regs)
{
	struct retprobe *p = ops->data;
	struct fgraph_frame *f;

	(void)parent;
	if (trace_site_fast(ip) != p->site)
		return;		/* another function of the same name */
	f = fgraph_push(this_cpu()->fgraph, regs, p->site, FGRAPH_RETPROBE, 0);
	if (!f) {
		__atomic_fetch_add(&missed, 1, __ATOMIC_RELAXED);
		return;
	}
	f->ts = p->number;
	f->aux = (uint16_t)(p - rps);
}

/* From fgraph_exit: interrupts masked, the frame just popped. */
void retprobe_exit(struct fgraph_frame *f, uint64_t retval, uint64_t sp, bool returned)
{
	struct retprobe *p;

	if (!returned || f->aux >= RETPROBE_MAX)
		return;
	p = &rps[f->aux];
	if (!f->ts || f->ts != READ_ONCE(p->number))
		return;		/* its probe was removed (the number cleared) */
	__atomic_fetch_add(&p->hits, 1, __ATOMIC_RELAXED);
	/* A return probe's fetches read only $retval (x[0]) and sp. */
	if (!probe_record(p->number, &p->spec, &retval, sp, f->ret))
		__atomic_fetch_add(&p->unrecorded, 1, __ATOMIC_RELAXED);
}

/* On each CPU, interrupts masked: its open frames of probe 'arg' no longer
 * name it. */
static void forget_frames(void *arg)
{
	uint64_t number = *(const uint32_t *)arg;
	struct fgraph_stack *st = this_cpu()->fgraph;

	for (uint32_t k = 0; k < st->top; k++)
		if (st->frames[k].owner == FGRAPH_RETPROBE && st->frames[k].ts == number)
			st->frames[k].ts = 0;
}

#define FORGET_TRY_US	10000
#define FORGET_TRIES	1000	/* 10 s of CPUs that never answer */

static bool forget_everywhere(uint32_t number)
{
	uint64_t left = nr_cpus_online > 1 ? smp_others_mask() : 0;
	unsigned long flags = irq_save();

	forget_frames(&number);
	irq_restore(flags);
	for (unsigned int t = 0; left && t < FORGET_TRIES; t++)
		left &= ~smp_call_cpus_bounded(left, forget_frames, &number, FORGET_TRY_US);
	return !left;
}

static int find(const char *name)
{
	for (int i = 0; i < RETPROBE_MAX; i++)
		if (rps[i].func && rps[i].spec.name[0] && !strcmp(rps[i].spec.name, name))
			return i;
	return -1;
}

static int plant_locked(const struct probe_spec *s, const char **why)
{
	uintptr_t func = sym_address(s->sym), off, size;
	int site, err;
	unsigned int i;

	if (!s->ret)
		return *why = "not a return probe (SYMBOL%return)", TRACE_EINVAL;
	if (strpbrk(s->sym, "*?[]!"))
		return *why = "a function's name, not a pattern", TRACE_EINVAL;
	if (!func || !sym_lookup(func, &off, &size) || off)
		return *why = "no function of that name", TRACE_EINVAL;
	if ((site = trace_site_of(func)) < 0)
		return *why = "the function has no patch site (the trace core, exception "
			      "entry and the console path are not probed)", TRACE_EINVAL;
	if (find(s->name) >= 0)
		return *why = "a return probe of that name exists", TRACE_EINVAL;
	for (i = 0; i < RETPROBE_MAX && rps[i].func; i++)
		;
	if (i == RETPROBE_MAX)
		return *why = "every return probe entry is taken", TRACE_EBUSY;

	struct retprobe *p = &rps[i];
	uint32_t number;

	spin_lock(&trace_lock);
	number = probe_take_number();
	spin_unlock(&trace_lock);
	/* Interrupts masked while seq is odd: an exporter on this CPU would
	 * wait for it for ever. */
	unsigned long flags = irq_save();

	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* odd before the new fields */
	p->spec = *s;
	p->site = (unsigned int)site;
	p->number = number;
	p->hits = p->unrecorded = 0;
	p->func = func;
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELEASE);
	irq_restore(flags);

	p->ops = (struct trace_ops){ .func = rp_entry, .data = p, .flags = TRACE_OPS_NO_FPSIMD };
	if ((err = trace_ops_set_filter(&p->ops, s->sym)) ||
	    (err = trace_ops_register(&p->ops))) {
		trace_ops_release(&p->ops);
		WRITE_ONCE(p->number, 0);	/* never registered: no frame names it */
		WRITE_ONCE(p->func, 0);
		return *why = err == TRACE_ENOMEM ? "out of memory" :
			      "the patcher refused (a CPU did not answer, or too many ops)", err;
	}
	planted++;
	return 0;
}

int retprobe_plant(const struct probe_spec *s, const char **why)
{
	struct probe_spec r = *s;
	int err;

	if (probe_resolve(&r, why))
		return TRACE_EINVAL;
	spin_lock(&plant_lock);
	err = plant_locked(&r, why);
	spin_unlock(&plant_lock);
	return err;
}

int retprobe_remove(const char *name, const char **why)
{
	int i, err = 0;

	spin_lock(&plant_lock);
	i = find(name);
	if (i < 0) {
		*why = "no probe of that name";
		err = TRACE_EINVAL;
	} else if ((err = trace_ops_unregister(&rps[i].ops))) {
		*why = "the patcher refused (a CPU did not answer); the probe stays";
	} else {
		struct retprobe *p = &rps[i];

		trace_ops_release(&p->ops);
		if (!forget_everywhere(p->number)) {
			/* Keep the entry (and its number) out of use. */
			kprintf("retprobe: %s: a CPU did not answer; the entry is not reused\n",
				name);
			p->spec.name[0] = '\0';
		} else {
			WRITE_ONCE(p->number, 0);
			WRITE_ONCE(p->func, 0);
		}
		planted--;
	}
	spin_unlock(&plant_lock);
	return err;
}

bool retprobe_get(unsigned int i, struct probe_view *out)
{
	const struct retprobe *p;

	if (i >= RETPROBE_MAX)
		return false;
	p = &rps[i];
	/* A free entry, the common case, without copying its spec (the
	 * exporter asks for every entry at each metadata frame). */
	if (!__atomic_load_n(&p->func, __ATOMIC_RELAXED))
		return false;
	for (;;) {
		uint32_t seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);

		if (seq & 1)
			continue;	/* a planting is writing it */
		out->addr = READ_ONCE(p->func);
		out->spec = p->spec;
		out->number = READ_ONCE(p->number);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);	/* the copy before the check */
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	if (!out->addr || !out->number || !out->spec.name[0])
		return false;
	out->insn = 0;
	out->hits = __atomic_load_n(&p->hits, __ATOMIC_RELAXED);
	out->unrecorded = __atomic_load_n(&p->unrecorded, __ATOMIC_RELAXED);
	return true;
}

unsigned int retprobe_count(void)
{
	return READ_ONCE(planted);
}

uint64_t retprobe_missed(void)
{
	return __atomic_load_n(&missed, __ATOMIC_RELAXED);
}
