/*
 * test/apps/probe_stress/sweep.c: a probe on each instruction of a
 * group's functions in turn (stress.h).
 *
 * For each function: its calls in one run of the slice, counted by an
 * ops of its own on its patch site (unprobed), then for each offset
 * from 0 to its end: plant a probe there with the planting check the
 * console and trace_probe= use (refused: the reason is printed and the
 * next offset tried); run the slice; the probe's hit count, read, and
 * the probe removed. The verdict is exact: the slice's digest equals
 * the unprobed run's on every CPU that ran it, the instruction is back,
 * and the rings hold exactly one record of that probe per hit (each with
 * the probed address as its pc and no faulted fetch). With every CPU
 * running the slice, a CPU that waits for a lock another holds hits a
 * probe in the wait loop for as long as the host leaves the holder's
 * thread unscheduled: a ring may fill. Then each hit the ring had no
 * room for must be counted as unrecorded by the probe and as dropped by
 * the ring, the books exact (records + unrecorded = hits); on one CPU,
 * and in groups without a lock, every hit must be recorded. One line per offset for the host
 * (test/probe_stress.py), which checks hits against the disassembly:
 *   ps GROUP FUNC OFF hits N [unrecorded N]
 *   ps GROUP FUNC OFF refused REASON
 *   ps-fail GROUP FUNC OFF WHAT
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "core/probe.h"
#include "kprintf.h"
#include "symbols.h"

#include "stress.h"

#define STRESS_FETCHES	"pc:x64,+0(sp):u8"
#define STRESS_TRIES	5	/* a stop that a busy host's vCPU missed */
#define CPUS_MAX	8

static uint64_t calls;

static void count_call(uintptr_t ip, uintptr_t parent_ip, struct trace_ops *ops,
		       struct trace_regs *regs)
{
	(void)ip, (void)parent_ip, (void)ops, (void)regs;
	__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
}

/* ---- running a slice on one CPU or on all at once ---- */

struct run {
	const struct stress_group *g;
	uint64_t digest[CPUS_MAX];
	volatile unsigned int ready;
	volatile int go;
};

static void run_here(struct run *r)
{
	unsigned int cpu = smp_cpu_id();

	__atomic_fetch_add(&r->ready, 1, __ATOMIC_RELAXED);
	while (!__atomic_load_n(&r->go, __ATOMIC_ACQUIRE))
		;
	r->digest[cpu] = r->g->slice();
}

static void run_other(void *arg)
{
	run_here(arg);
}

/* Runs g's slice on CPU 0 or on every CPU together; the number of runs,
 * 0 when a CPU could not be started. */
static unsigned int run_slice(const struct stress_group *g, bool all_cpus, struct run *r)
{
	unsigned int n = all_cpus ? smp_num_cpus() : 1;

	if (n > CPUS_MAX)
		n = CPUS_MAX;
	memset(r, 0, sizeof(*r));
	r->g = g;
	for (unsigned int k = 0; k < g->nshared; k++)
		g->shared[k] = 0;
	for (unsigned int c = 1; c < n; c++)
		if (smp_start(c, run_other, r))
			return 0;
	while (__atomic_load_n(&r->ready, __ATOMIC_RELAXED) != n - 1)
		;
	__atomic_store_n(&r->go, 1, __ATOMIC_RELEASE);
	r->digest[0] = g->slice();
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	return n;
}

/* The first CPU whose digest is not 'want', n + k for shared counter k
 * when it is wrong, or -1. */
static int run_differs(const struct stress_group *g, const struct run *r, unsigned int n,
		       uint64_t want)
{
	for (unsigned int c = 0; c < n; c++)
		if (r->digest[c] != want)
			return (int)c;
	for (unsigned int k = 0; k < g->nshared; k++)
		if (g->shared[k] != n * g->shared_per_run)
			return (int)(n + k);
	return -1;
}

/* ---- the exclusive windows ----
 * A probe between a load-exclusive and its store-exclusive would hang
 * the CPU that runs it (each BRK and ERET clears the monitor, so the
 * store never succeeds): the planting check must refuse every such
 * address (issue 39, item 1). One it accepts is removed at once, before
 * anything runs it, and fails the test. */

#define INSN_EXCL_MASK	0x3f800000U	/* LDXR, STXR, ... (o2 = 0) */
#define INSN_EXCL	0x08000000U
#define INSN_EXCL_LOAD	(1U << 22)	/* L */

/* Whether addr lies after a load-exclusive of [func, addr) with no
 * store-exclusive between them. */
static bool in_exclusive_window(uintptr_t func, uintptr_t addr)
{
	bool open = false;

	for (uintptr_t a = func; a < addr; a += 4) {
		uint32_t w = *(const volatile uint32_t *)a;

		if ((w & INSN_EXCL_MASK) == INSN_EXCL)
			open = (w & INSN_EXCL_LOAD) != 0;
	}
	return open && (*(const volatile uint32_t *)addr & INSN_EXCL_MASK) != INSN_EXCL;
}

/* ---- one offset ---- */

static int plant(const char *func, uintptr_t off, const char **why)
{
	char text[PROBE_SYM_MAX + 64];
	struct probe_spec s;
	int err = 0;

	ksnprintf(text, sizeof(text), "ps=%s+%lu,%s", func, (unsigned long)off, STRESS_FETCHES);
	if (probe_spec_parse(text, &s, why))
		return -100;
	for (unsigned int i = 0; i < STRESS_TRIES; i++) {
		err = probe_plant(&s, why, NULL);
		if (err != TRACE_EBUSY && !(err == TRACE_EPATCH && strstr(*why, "stop")))
			break;
	}
	return err;
}

static bool view(struct probe_view *v)
{
	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if (probe_get(i, v) && !strcmp(v->spec.name, "ps"))
			return true;
	return false;
}

#define FAIL(...) (kprintf("ps-fail %s %s 0x%lx ", g->name, func, (unsigned long)off), \
		   kprintf(__VA_ARGS__), kprintf("\n"), t->failures++, false)

static bool sweep_offset(const struct stress_group *g, const char *func, uintptr_t fn,
			 uintptr_t off, uint64_t want, bool all_cpus, struct stress_totals *t)
{
	static struct run r;
	uintptr_t addr = fn + off;
	uint32_t word = *(const volatile uint32_t *)addr;
	bool excl = in_exclusive_window(fn, addr);
	const char *why = "";
	struct probe_view v;
	uint64_t records, bad;
	int err, cpu;

	t->offsets++;
	err = plant(func, off, &why);
	if (err) {
		kprintf("ps %s %s 0x%lx refused %s\n", g->name, func, (unsigned long)off, why);
		t->refused++;
		if (err == -100 || err == TRACE_EBUSY || err == TRACE_EPATCH)
			return FAIL("planting failed (%d), not refused: %s", err, why);
		return true;
	}
	t->accepted++;
	if (!view(&v))
		return FAIL("planted, but not in the list");
	if (excl) {	/* never run it: it would hang */
		probe_remove("ps", &why);
		return FAIL("accepted inside an exclusive window");
	}
	unsigned int n = run_slice(g, all_cpus, &r);

	if (!view(&v))
		return FAIL("the probe left the list while the slice ran");
	err = probe_remove("ps", &why);
	if (err)
		return FAIL("not removed: %s", why);
	uint64_t dropped = stress_count_records(v.number, addr, &records, &bad);

	t->hits += v.hits;
	t->unrecorded += v.unrecorded;
	kprintf("ps %s %s 0x%lx hits %lu", g->name, func, (unsigned long)off,
		(unsigned long)v.hits);
	kprintf(v.unrecorded ? " unrecorded %lu\n" : "\n", (unsigned long)v.unrecorded);
	if (!n)
		return FAIL("a CPU could not be started");
	if ((cpu = run_differs(g, &r, n, want)) >= 0)
		return cpu >= (int)n ?
		       FAIL("shared counter %d is %lu after %u runs, not %lu", cpu - (int)n,
			    (unsigned long)g->shared[cpu - (int)n], n,
			    (unsigned long)(n * g->shared_per_run)) :
		       FAIL("CPU %d's result 0x%lx is not the unprobed run's 0x%lx", cpu,
			    (unsigned long)r.digest[cpu], (unsigned long)want);
	if (*(const volatile uint32_t *)addr != word)
		return FAIL("the instruction is 0x%08x after removal, not 0x%08x",
			    *(const volatile uint32_t *)addr, word);
	if (records + v.unrecorded != v.hits || dropped != v.unrecorded || bad ||
	    (v.unrecorded && !(all_cpus && g->nshared)))
		return FAIL("%lu hits, %lu unrecorded, %lu records in the rings (%lu bad), "
			    "%lu dropped by the rings", (unsigned long)v.hits,
			    (unsigned long)v.unrecorded, (unsigned long)records,
			    (unsigned long)bad, (unsigned long)dropped);
	return true;
}

/* ---- a group ---- */

bool stress_group_sweep(const struct stress_group *g, bool all_cpus, struct stress_totals *t)
{
	static struct run r;
	static struct trace_ops ops = { .func = count_call };
	unsigned long fails = t->failures;
	uint64_t want, t0 = time_counter();
	unsigned int n;

	if (g->setup)
		g->setup();
	want = g->slice();	/* the reference: unprobed, CPU 0 alone */
	n = run_slice(g, all_cpus, &r);
	kprintf("ps-group %s digest 0x%lx runs %u\n", g->name, (unsigned long)want, n);
	if (!n || run_differs(g, &r, n, want) >= 0) {
		kprintf("ps-fail %s - - unprobed runs disagree\n", g->name);
		return t->failures++, false;
	}
	for (const char *const *f = g->funcs; *f; f++) {
		uintptr_t fn = sym_address(*f), o, size;

		t->funcs++;
		if (!fn || !sym_lookup(fn, &o, &size) || o) {
			kprintf("ps-fail %s %s - no such function\n", g->name, *f);
			t->failures++;
			continue;
		}
		calls = 0;
		if (trace_ops_set_filter(&ops, *f) || trace_ops_register(&ops)) {
			kprintf("ps-fail %s %s - its calls cannot be counted\n", g->name, *f);
			t->failures++;
			continue;
		}
		n = run_slice(g, all_cpus, &r);
		trace_ops_unregister(&ops);
		kprintf("ps-func %s %s 0x%lx size %lu calls %lu\n", g->name, *f,
			(unsigned long)fn, (unsigned long)size, (unsigned long)calls);
		for (uintptr_t off = 0; off < size; off += 4)
			sweep_offset(g, *f, fn, off, want, all_cpus, t);
	}
	kprintf("ps-group-end %s %lu us\n", g->name,
		(unsigned long)((time_counter() - t0) * 1000000 / time_counter_hz()));
	return t->failures == fails;
}
