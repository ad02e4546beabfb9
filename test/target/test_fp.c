/*
 * test/target/test_fp.c: application floating point survives the trace
 * core, interrupts and application hooks (ARCHITECTURE.md 7a): a trace
 * callback, a tick hook, an smp_call function and a tracepoint probe
 * that clobber every FP/SIMD register, FPCR and FPSR change nothing the
 * traced or interrupted code holds.
 *
 * This file is application code, built with FP/SIMD (only the kernel
 * and trace core are -mgeneral-regs-only), so the compiler uses vector
 * registers here freely: the struct copy in fp_clobber_all is the
 * reviewer's reproduction, a q-register copy.
 */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "ktest.h"
#include "tracecheck.h"

/* FPCR: RMode (23:22), FZ (24), DN (25). FPSR: the cumulative flags. */
#define FPCR_THREAD	0x02400000ULL	/* DN, round towards +inf */
#define FPCR_HOOK	0x01c00000ULL	/* FZ, round towards zero */
#define FPCR_RMODE	0x00c00000ULL
#define FPSR_THREAD	0x08000001ULL	/* QC, IOC */
#define FPSR_HOOK	0x0000009fULL	/* IDC, IXC, UFC, OFC, DZC, IOC */

static uint64_t fpcr_read(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, fpcr" : "=r"(v));
	return v;
}

static uint64_t fpsr_read(void)
{
	uint64_t v;

	__asm__ volatile("mrs %0, fpsr" : "=r"(v));
	return v;
}

static void fp_ctl_write(uint64_t fpcr, uint64_t fpsr)
{
	__asm__ volatile("msr fpcr, %0\n\tmsr fpsr, %1" : : "r"(fpcr), "r"(fpsr));
}

struct fp_blob {
	uint64_t w[16];
};
static struct fp_blob fp_blob_src = { { 0x1111, 0x2222, 0x3333, 0x4444, 5, 6, 7, 8,
					9, 10, 11, 12, 13, 14, 15, 16 } };
struct fp_blob fp_blob_dst;

/* What a careless hook does: a struct copy (q registers), every vector
 * register written, a rounding mode and exception flags set. Under the
 * AAPCS64 the compiler saves d8-d15 for it; the upper halves of v8-v15
 * and everything else are the caller's problem. */
static void __attribute__((noinline)) fp_clobber_all(void)
{
	fp_blob_dst = fp_blob_src;
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

/* ---- trace callbacks -------------------------------------------------- */

double __attribute__((noinline, noipa)) fp_scale(double a, double b)
{
	return a * b;
}

typedef double fp_v2d __attribute__((vector_size(16)));

/* Eight vector arguments: q0-q7 in full, as the caller left them. */
void __attribute__((noinline, noipa)) fp_echo8(fp_v2d a0, fp_v2d a1, fp_v2d a2, fp_v2d a3,
					       fp_v2d a4, fp_v2d a5, fp_v2d a6, fp_v2d a7,
					       fp_v2d *out)
{
	out[0] = a0, out[1] = a1, out[2] = a2, out[3] = a3;
	out[4] = a4, out[5] = a5, out[6] = a6, out[7] = a7;
}

static volatile unsigned int fp_cb_hits;

static void fp_clobber_cb(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			  struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	fp_cb_hits++;
	fp_clobber_all();
}

/* Calls both traced functions with FPCR/FPSR set to the thread's values
 * and checks what they computed and what FPCR/FPSR are afterwards. */
static void fp_check_traced_calls(struct ktest_ctx *t, unsigned int hits_per_call)
{
	fp_v2d in[8], out[8];
	unsigned int before = fp_cb_hits;

	for (int i = 0; i < 8; i++)
		in[i] = (fp_v2d){ i + 0.25, -(i + 1000.5) };
	memset(out, 0, sizeof(out));
	fp_ctl_write(FPCR_THREAD, FPSR_THREAD);
	double r = fp_scale(1.5, 4.0);
	uint64_t fpcr = fpcr_read(), fpsr = fpsr_read();

	fp_echo8(in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7], out);
	uint64_t fpcr2 = fpcr_read(), fpsr2 = fpsr_read();

	fp_ctl_write(0, 0);
	KT_EQ(t, fp_cb_hits - before, 2 * hits_per_call);
	KT_EXPECT(t, r == 6.0);
	KT_EQ(t, (int64_t)(r * 1000), 6000);
	KT_EQ(t, fpcr, FPCR_THREAD);
	KT_EQ(t, fpsr, FPSR_THREAD);
	KT_EQ(t, fpcr2, FPCR_THREAD);
	KT_EQ(t, fpsr2, FPSR_THREAD);
	KT_EXPECT(t, !memcmp(in, out, sizeof(in)));
}

KTEST(fp_trace_callback_keeps_fp_args_fpcr_fpsr)
{
	struct trace_ops ops = { .func = fp_clobber_cb };

	KT_EQ(t, trace_ops_set_filter(&ops, "fp_scale fp_echo8"), 0);
	KT_EQ(t, trace_ops_register(&ops), 0);	/* one ops: its literal */
	fp_check_traced_calls(t, 1);
	KT_EQ(t, trace_ops_unregister(&ops), 0);
	trace_ops_set_filter(&ops, "");
}

KTEST(fp_trace_list_callbacks_keep_fp_args_fpcr_fpsr)
{
	struct trace_ops a = { .func = fp_clobber_cb }, b = { .func = fp_clobber_cb };

	KT_EQ(t, trace_ops_set_filter(&a, "fp_scale fp_echo8"), 0);
	KT_EQ(t, trace_ops_set_filter(&b, "fp_scale fp_echo8"), 0);
	KT_EQ(t, trace_ops_register(&a), 0);
	KT_EQ(t, trace_ops_register(&b), 0);	/* two: the list ops */
	fp_check_traced_calls(t, 2);
	KT_EQ(t, trace_ops_unregister(&b), 0);
	KT_EQ(t, trace_ops_unregister(&a), 0);
	trace_ops_set_filter(&a, "");
	trace_ops_set_filter(&b, "");
}

/* function_graph hooks the return too: the double comes back through
 * fgraph_return while an application callback shares the entry. */
KTEST(fp_graph_traced_double_return_with_app_callback)
{
	static struct rec recs[CHECK_MAX];
	struct trace_ops ops = { .func = fp_clobber_cb };

	check_reset();
	KT_EQ(t, trace_set_tracer("function_graph"), 0);
	KT_EQ(t, trace_set_filter("fp_scale fp_echo8"), 0);
	KT_EQ(t, trace_start(), 0);
	KT_EQ(t, trace_ops_set_filter(&ops, "fp_scale fp_echo8"), 0);
	KT_EQ(t, trace_ops_register(&ops), 0);
	fp_check_traced_calls(t, 1);
	KT_EQ(t, trace_ops_unregister(&ops), 0);
	trace_ops_set_filter(&ops, "");
	trace_stop();
	trace_set_filter("");
	trace_set_tracer("nop");
	/* The graph tracer did hook both: entry and exit of each. */
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, n, 4);
	KT_EQ(t, recs[0].kind, WIRE_REC_GRAPH_ENTRY);
	KT_EQ(t, recs[0].site, site_of("fp_scale"));
	KT_EQ(t, recs[1].kind, WIRE_REC_EXIT);
	KT_EQ(t, recs[1].site, site_of("fp_scale"));
	KT_EQ(t, recs[3].kind, WIRE_REC_EXIT);
	KT_EQ(t, recs[3].site, site_of("fp_echo8"));
}

/* ---- interrupts: tick hooks and smp_call ------------------------------ */

/* The tick hook stays registered (there is no unregistering); it works
 * only while a test arms it, on that test's CPU. */
static volatile int fp_hook_cpu = -1;
static volatile uint32_t fp_hook_ticks;
static volatile uint64_t fp_hook_fpcr_seen;
static bool fp_hook_registered;

static void fp_tick_hook(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	if ((int)cpu != fp_hook_cpu)
		return;
	fp_hook_fpcr_seen = fpcr_read();
	fp_clobber_all();
	fp_hook_ticks++;
}

/* Registered right after fp_tick_hook, so it runs next in each tick:
 * the FPCR it starts from, after fp_tick_hook set FPCR_HOOK's. */
static volatile uint64_t fp_after_fpcr_seen;
static volatile uint32_t fp_after_ticks;

static void fp_tick_hook_after(unsigned int cpu, uint64_t tick)
{
	(void)tick;
	if ((int)cpu != fp_hook_cpu)
		return;
	fp_after_fpcr_seen = fpcr_read();
	fp_after_ticks++;
}

static bool fp_hook_arm(struct ktest_ctx *t)
{
	if (!fp_hook_registered) {
		if (time_tick_hook(fp_tick_hook) || time_tick_hook(fp_tick_hook_after)) {
			ktest_skip(t, "no free tick hook slot");
			return false;
		}
		fp_hook_registered = true;
	}
	fp_hook_cpu = (int)smp_cpu_id();
	return true;
}

KTEST(fp_tick_hook_keeps_fp_sum)
{
	if (!fp_hook_arm(t))
		return;
	uint32_t start = fp_hook_ticks;
	double sum = 0.0;
	uint64_t n = 0;

	while (fp_hook_ticks - start < 5) {	/* five ticks clobber it */
		sum += 0.5;
		n++;
	}
	fp_hook_cpu = -1;
	KT_EXPECT(t, n > 0);
	KT_EXPECT(t, sum == (double)n * 0.5);
	KT_EQ(t, (uint64_t)(sum * 2.0), n);
}

/* Two handlers in one exception (the tick's hooks here; irq.c's loop
 * the same): the second starts from the reset FPCR, not from the
 * rounding mode the first set. */
KTEST(fp_tick_hook_after_another_starts_from_reset_fpcr)
{
	if (!fp_hook_arm(t))
		return;
	uint32_t start = fp_after_ticks, first = fp_hook_ticks;

	while (fp_after_ticks - start < 3)
		;
	fp_hook_cpu = -1;
	KT_EXPECT(t, fp_hook_ticks - first >= 3);	/* the first hook ran before it */
	KT_EQ(t, fp_after_fpcr_seen, 0);
}

struct fp_hold {
	uint64_t fpcr, fpsr;
	volatile uint32_t *count;
	uint32_t target;
	volatile uint32_t ready;
	uint8_t q[32][16];
	uint64_t fpcr_out, fpsr_out;
};
_Static_assert(__builtin_offsetof(struct fp_hold, q) == 32, "fp_hold.S");
_Static_assert(__builtin_offsetof(struct fp_hold, fpcr_out) == 544, "fp_hold.S");
void fp_hold(struct fp_hold *h);

/* Every byte of every register as fp_hold.S set it, and FPCR/FPSR. */
static void fp_check_hold(struct ktest_ctx *t, const struct fp_hold *h)
{
	unsigned int bad = 0;

	for (unsigned int n = 0; n < 32; n++)
		for (unsigned int i = 0; i < 16; i++)
			bad += h->q[n][i] != (uint8_t)(n * 8 + 1);
	KT_EQ(t, bad, 0);
	KT_EQ(t, h->fpcr_out, FPCR_THREAD);
	KT_EQ(t, h->fpsr_out, FPSR_THREAD);
}

KTEST(fp_tick_hook_keeps_every_fp_register_fpcr_fpsr)
{
	if (!fp_hook_arm(t))
		return;
	struct fp_hold h = { .fpcr = FPCR_THREAD, .fpsr = FPSR_THREAD, .count = &fp_hook_ticks };

	h.target = fp_hook_ticks + 2;
	fp_hold(&h);
	fp_hook_cpu = -1;
	fp_ctl_write(0, 0);
	fp_check_hold(t, &h);
	/* The handler started from the reset FPCR, not the thread's. */
	KT_EQ(t, fp_hook_fpcr_seen & FPCR_RMODE, 0);
}

static volatile uint32_t fp_calls;

static void fp_call_clobber(void *arg)
{
	(void)arg;
	fp_clobber_all();
	fp_calls++;
}

static void fp_hold_work(void *arg)
{
	fp_hold(arg);
}

KTEST(fp_smp_call_keeps_fp_state_of_the_interrupted_cpu)
{
	if (smp_num_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs");
		return;
	}
	unsigned int cpu = smp_cpu_id() == 1 ? 0 : 1;
	struct fp_hold h = { .fpcr = FPCR_THREAD, .fpsr = FPSR_THREAD, .count = &fp_calls };

	h.target = fp_calls + 1;
	KT_EQ(t, smp_start(cpu, fp_hold_work, &h), 0);
	while (!h.ready)
		;
	int err = smp_call(cpu, fp_call_clobber, NULL);

	KT_EQ(t, err, 0);
	if (err)
		fp_calls++;	/* let the holder go */
	smp_wait(cpu);
	fp_check_hold(t, &h);
}

/* ---- tracepoint probes ------------------------------------------------ */

TP_DECLARE(fptest, hit);
TP_DEFINE(fptest, hit, TP_FIELD(U32, n, "%u"));

static volatile unsigned int fp_probe_hits;

static void fp_probe(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev, (void)f;
	fp_probe_hits++;
	fp_clobber_all();
}

static double __attribute__((noinline, noipa)) fp_tp_site(double a, double b)
{
	double x = a * b;

	trace_event(fptest, hit, 7);
	return x + a;
}

KTEST(fp_tracepoint_probe_keeps_fp_state)
{
	unsigned int before = fp_probe_hits;

	KT_EQ(t, tp_probe_attach(&tp_ev_fptest_hit, fp_probe), 0);
	fp_ctl_write(FPCR_THREAD, FPSR_THREAD);
	double r = fp_tp_site(1.5, 4.0);
	uint64_t fpcr = fpcr_read(), fpsr = fpsr_read();

	fp_ctl_write(0, 0);
	KT_EQ(t, tp_probe_detach(&tp_ev_fptest_hit, fp_probe), 0);
	KT_EQ(t, fp_probe_hits - before, 1);
	KT_EXPECT(t, r == 7.5);
	KT_EQ(t, fpcr, FPCR_THREAD);
	KT_EQ(t, fpsr, FPSR_THREAD);
}

/* A vector value live across the site: the compiler may keep it whole
 * in one of v8-v15, of which a probe keeps only the low halves. */
static fp_v2d __attribute__((noinline, noipa)) fp_tp_vec_site(fp_v2d a, fp_v2d b)
{
	fp_v2d x = a * b;

	trace_event(fptest, hit, 8);
	return x + a;
}

KTEST(fp_tracepoint_probe_keeps_live_vectors)
{
	fp_v2d a = { 1.5, -2.25 }, b = { 4.0, 8.0 };
	unsigned int before = fp_probe_hits;

	KT_EQ(t, tp_probe_attach(&tp_ev_fptest_hit, fp_probe), 0);
	fp_v2d r = fp_tp_vec_site(a, b);

	KT_EQ(t, tp_probe_detach(&tp_ev_fptest_hit, fp_probe), 0);
	KT_EQ(t, fp_probe_hits - before, 1);
	KT_EXPECT(t, r[0] == 7.5);
	KT_EXPECT(t, r[1] == -20.25);
	KT_EQ(t, (int64_t)(r[1] * 100), -2025);
}
