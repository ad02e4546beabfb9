/*
 * test/target/test_fp_lazy.c: the lazy FP/SIMD save (kernel/cpu/entry.S,
 * kernel/cpu/exception.c fp_first_use, trace/base/tp_fp.S).
 *
 * Each test runs its work through cpu_call_fp_off, as code that never
 * used FP/SIMD on this CPU (CPACR_EL1.FPEN off), while a tick hook that
 * uses FP/SIMD itself, and fires a tracepoint whose probe clobbers every
 * vector register, FPCR and FPSR, interrupts it:
 *  - code whose first FP/SIMD instruction trapped (fp_hold.S) holds
 *    values in v0-v31, FPCR and FPSR across those interrupts: entry must
 *    see that it now has FP/SIMD on and save it (a save skipped wrongly
 *    leaves the hook's 0xa5 bytes and FPCR/FPSR);
 *  - code that never uses FP/SIMD still has it off after the handler's
 *    own FP use, and its first FP/SIMD instruction then finds a clean
 *    state (zero), not the handler's;
 *  - a tracepoint probe that uses FP/SIMD, called from code without it,
 *    leaves that code without it.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "exception.h"
#include "ktest.h"

#define NO_FP __attribute__((target("general-regs-only")))
#define FP_ON(cpacr) (((cpacr) >> CPACR_FPEN_EL1_BIT) & 1)

#define FPCR_HOLD	0x02400000ULL	/* DN, round towards +inf */
#define FPSR_HOLD	0x08000001ULL	/* QC, IOC */
#define FPCR_HOOK	0x01c00000ULL	/* FZ, round towards zero */
#define FPSR_HOOK	0x0000009fULL

TP_DECLARE(fplazy, tick);
TP_DEFINE(fplazy, tick, TP_FIELD(U32, n, "%u"));

/* Every vector register 0xa5, FPCR and FPSR the hook's. */
static void __attribute__((noinline)) lz_clobber(void)
{
	__asm__ volatile(
		".irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31\n"
		"	movi v\\n\\().16b, #0xa5\n"
		".endr\n"
		"	msr fpcr, %0\n"
		"	msr fpsr, %1\n"
		: : "r"(FPCR_HOOK), "r"(FPSR_HOOK)
		: "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",
		  "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20",
		  "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
		  "v31", "memory");
}

static volatile uint32_t lz_probe_hits;

/* Attached as one that may use FP/SIMD (the default): tp_iterate_fp. */
static void lz_probe(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev, (void)f;
	lz_clobber();
	lz_probe_hits++;
}

static void __attribute__((noinline)) lz_fire(uint32_t n)
{
	trace_event(fplazy, tick, n);
}

/* The hook works only while a test arms it, on that test's CPU. It
 * notes CPACR_EL1 only while the code under test runs (lz_window, set
 * and cleared by that code): a tick that lands after it returned, in
 * the test's own code, which has FP/SIMD on, is not its state. Where
 * that code sets lz_fresh as it runs, only the first hook after it is
 * noted: irq.c's loop takes every interrupt pending before it returns,
 * so a tick whose handler ran past the next tick (a host thread
 * descheduled under -accel tcg,thread=multi) takes that one too in
 * the same exception, with FP/SIMD on from the first one's use: that
 * is the handler's state, not what entry found (seen in 1 of 150 runs
 * there, FPEN on in lz_no_fp_then_first_use's window). */
static volatile int lz_hook_cpu = -1;
static volatile uint32_t lz_ticks;
static volatile bool lz_window, lz_fresh, lz_use_fresh;
static volatile uint64_t lz_hook_cpacr;	/* CPACR_EL1 as the hook started */
static volatile uint32_t lz_window_ticks;	/* hooks noted */
static bool lz_hook_registered;

static void lz_tick_hook(unsigned int cpu, uint64_t tick)
{
	if ((int)cpu != lz_hook_cpu)
		return;
	if (lz_window && (lz_fresh || !lz_use_fresh)) {
		lz_hook_cpacr = read_sysreg(cpacr_el1);
		lz_window_ticks++;
		lz_fresh = false;
	}
	lz_fire((uint32_t)tick);
	lz_clobber();
	lz_ticks++;
}

static bool lz_arm(struct ktest_ctx *t)
{
	if (!lz_hook_registered) {
		if (time_tick_hook(lz_tick_hook)) {
			ktest_skip(t, "no free tick hook slot");
			return false;
		}
		lz_hook_registered = true;
	}
	if (tp_probe_attach(&tp_ev_fplazy_tick, lz_probe)) {
		ktest_skip(t, "cannot attach the probe");
		return false;
	}
	lz_window_ticks = 0;
	lz_hook_cpu = (int)smp_cpu_id();
	return true;
}

static void lz_disarm(struct ktest_ctx *t)
{
	lz_hook_cpu = -1;
	KT_EQ(t, tp_probe_detach(&tp_ev_fplazy_tick, lz_probe), 0);
}

/* test_fp.c's fp_hold.S: v0-v31 byte i of vN = N * 8 + 1, FPCR, FPSR
 * held until *count == target. */
struct fp_hold {
	uint64_t fpcr, fpsr;
	volatile uint32_t *count;
	uint32_t target;
	volatile uint32_t ready;
	uint8_t q[32][16];
	uint64_t fpcr_out, fpsr_out;
};
void fp_hold(struct fp_hold *h);

struct lz_run {
	struct fp_hold h;
	uint64_t cpacr_before, cpacr_after;
	uint64_t fpcr_first, fpsr_first, v0_first, v31_first;
	uint32_t probe_hits;
};

static NO_FP long lz_hold_first_use(void *arg)
{
	struct lz_run *r = arg;

	r->cpacr_before = read_sysreg(cpacr_el1);
	lz_window = true;
	r->h.target = lz_ticks + 2;
	fp_hold(&r->h);		/* its first instruction, msr fpcr, traps */
	lz_window = false;
	r->cpacr_after = read_sysreg(cpacr_el1);
	return 0;
}

KTEST(fp_lazy_first_use_state_survives_tick_and_probe)
{
	if (!lz_arm(t))
		return;
	struct lz_run r = { .h = { .fpcr = FPCR_HOLD, .fpsr = FPSR_HOLD, .count = &lz_ticks } };
	uint32_t hits = lz_probe_hits;

	cpu_call_fp_off(lz_hold_first_use, &r);
	lz_disarm(t);
	unsigned int bad = 0;

	for (unsigned int n = 0; n < 32; n++)
		for (unsigned int i = 0; i < 16; i++)
			bad += r.h.q[n][i] != (uint8_t)(n * 8 + 1);
	KT_EQ(t, FP_ON(r.cpacr_before), 0);	/* the lazy path was taken */
	KT_EQ(t, FP_ON(r.cpacr_after), 1);	/* granted at the first use */
	KT_EXPECT(t, lz_window_ticks >= 1);
	KT_EQ(t, FP_ON(lz_hook_cpacr), 1);	/* entry saw it on */
	KT_EXPECT(t, lz_probe_hits - hits >= 2);
	KT_EQ(t, bad, 0);
	KT_EQ(t, r.h.fpcr_out, FPCR_HOLD);
	KT_EQ(t, r.h.fpsr_out, FPSR_HOLD);
}

static NO_FP long lz_no_fp_then_first_use(void *arg)
{
	struct lz_run *r = arg;
	uint32_t start = lz_ticks;

	r->cpacr_before = read_sysreg(cpacr_el1);
	lz_use_fresh = true;
	lz_window = true;
	while (lz_ticks - start < 2) {	/* the hook and its probe use FP */
		lz_fresh = true;
		cpu_relax();
	}
	lz_window = false;
	lz_use_fresh = false;
	r->cpacr_after = read_sysreg(cpacr_el1);
	/* The first FP/SIMD instructions here: a clean state. */
	__asm__ volatile("mrs %0, fpcr\n\tmrs %1, fpsr\n\tfmov %2, d0\n\tfmov %3, d31"
			 : "=r"(r->fpcr_first), "=r"(r->fpsr_first), "=r"(r->v0_first),
			   "=r"(r->v31_first));
	return 0;
}

KTEST(fp_lazy_handler_fp_stays_out_of_code_without_fp)
{
	if (!lz_arm(t))
		return;
	struct lz_run r = { 0 };
	uint32_t hits = lz_probe_hits;

	cpu_call_fp_off(lz_no_fp_then_first_use, &r);
	lz_disarm(t);
	KT_EQ(t, FP_ON(r.cpacr_before), 0);
	KT_EXPECT(t, lz_window_ticks >= 1);
	KT_EQ(t, FP_ON(lz_hook_cpacr), 0);	/* entry left it off ... */
	KT_EXPECT(t, lz_probe_hits - hits >= 2);	/* ... the handler trapped */
	KT_EQ(t, FP_ON(r.cpacr_after), 0);	/* and the way out put it back */
	KT_EQ(t, r.fpcr_first, 0);
	KT_EQ(t, r.fpsr_first, 0);
	KT_EQ(t, r.v0_first, 0);
	KT_EQ(t, r.v31_first, 0);
}

static NO_FP long lz_probe_from_code_without_fp(void *arg)
{
	struct lz_run *r = arg;
	uint32_t hits = lz_probe_hits;

	r->cpacr_before = read_sysreg(cpacr_el1);
	lz_fire(1);
	r->cpacr_after = read_sysreg(cpacr_el1);
	r->probe_hits = lz_probe_hits - hits;
	return 0;
}

KTEST(fp_lazy_probe_leaves_code_without_fp_without_it)
{
	struct lz_run r = { 0 };

	KT_EQ(t, tp_probe_attach(&tp_ev_fplazy_tick, lz_probe), 0);
	cpu_call_fp_off(lz_probe_from_code_without_fp, &r);
	KT_EQ(t, tp_probe_detach(&tp_ev_fplazy_tick, lz_probe), 0);
	KT_EQ(t, r.probe_hits, 1);
	KT_EQ(t, FP_ON(r.cpacr_before), 0);
	KT_EQ(t, FP_ON(r.cpacr_after), 0);
}
