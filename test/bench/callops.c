/*
 * test/bench/callops.c: the per-callsite ops matrix. Each row registers
 * R relevant ops (filter bench_fn) and I irrelevant ones (filter
 * bench_other), then counts instructions over BENCH_CALLS calls of
 * bench_fn, once with per-callsite dispatch ("callops") and once with
 * dispatch forced through the list ops ("list"), in the same boot.
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"

#define MAX_OPS 101

struct bench_ops {
	struct trace_ops ops;
	uint64_t hits;
};

static struct bench_ops ops[MAX_OPS];
static volatile int sink;

/* A tracer's callback is built without a patch site, like the trace
 * core itself (a patch site in it would only ever hit the guard). It
 * touches no FP/SIMD register and says so (TRACE_OPS_NO_FPSIMD), like
 * the core's tracers: the matrix measures dispatch; what keeping an
 * application callback's FP/SIMD state adds is in fp.c. */
static notrace void bench_callback(uintptr_t ip, uintptr_t parent, struct trace_ops *o,
			   struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)regs;
	((struct bench_ops *)o)->hits++;
}


static const struct { int relevant, irrelevant; } rows[] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 10 }, { 0, 100 },
	{ 1, 0 }, { 1, 1 }, { 1, 2 }, { 1, 10 }, { 1, 100 },
	{ 2, 0 }, { 10, 0 }, { 100, 0 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int setup(int relevant, int irrelevant)
{
	for (int k = 0; k < relevant + irrelevant; k++) {
		ops[k].ops.func = bench_callback;
		ops[k].ops.flags = TRACE_OPS_NO_FPSIMD;
		ops[k].hits = 0;
		if (trace_ops_set_filter(&ops[k].ops, k < relevant ? "bench_fn" : "bench_other") ||
		    trace_ops_register(&ops[k].ops))
			return -1;
	}
	return 0;
}

static int teardown(int n, int relevant, uint64_t expect)
{
	int bad = 0;

	for (int k = 0; k < n; k++) {
		if (k < relevant && ops[k].hits != expect)
			bad = 1;
		trace_ops_unregister(&ops[k].ops);
	}
	return bad;
}

static void print_row_json(int first, int r, int i, const char *mode, double v, double base)
{
	printf("%s{\"relevant\": %d, \"irrelevant\": %d, \"mode\": \"%s\", "
	       "\"insns_per_call\": %.2f, \"overhead_insns\": %.2f}",
	       first ? "" : ", ", r, i, mode, v, v - base);
}

void bench_callops(void)
{
	double res[NROWS][2];
	int bad = 0;

	double untraced = MEASURE(bench_fn_notrace);
	double instr = MEASURE(bench_fn_instrumented);

	for (unsigned int k = 0; k < NROWS; k++) {
		int r = rows[k].relevant, i = rows[k].irrelevant;

		for (int mode = 0; mode < 2; mode++) {
			trace_force_list(mode == 1);
			if (setup(r, i)) {
				printf("bench: registering %d ops failed\n", r + i);
				bad = 1;
			}
			res[k][mode] = MEASURE(bench_fn);
			bad |= teardown(r + i, r, BENCH_CALLS);
		}
	}
	trace_force_list(false);

	/* Enabling and disabling every site, and the boot-time init. */
	struct bench_ops all = { .ops = { .func = bench_callback } };
	unsigned int n = trace_site_count();
	uint32_t t0 = (uint32_t)pmu_insns();

	trace_ops_register(&all.ops);
	uint32_t t1 = (uint32_t)pmu_insns();

	trace_ops_unregister(&all.ops);
	uint32_t t2 = (uint32_t)pmu_insns();
	double enable = (double)(uint32_t)(t1 - t0) / n;
	double disable = (double)(uint32_t)(t2 - t1) / n;
	double boot = (double)trace_sites_init_insns() / n;

	printf("\n| relevant | irrelevant | callops insns/call | overhead | list insns/call | overhead |\n");
	printf("|---:|---:|---:|---:|---:|---:|\n");
	for (unsigned int k = 0; k < NROWS; k++)
		printf("| %d | %d | %.2f | %.2f | %.2f | %.2f |\n", rows[k].relevant,
		       rows[k].irrelevant, res[k][0], res[k][0] - res[0][0], res[k][1],
		       res[k][1] - res[0][1]);
	printf("\nuntraced (no patch site): %.2f insns/call; disabled site costs %.2f more\n",
	       untraced, res[0][0] - untraced);
	printf("-finstrument-functions, hooks off: %.2f insns/call (%.2f more than untraced)\n",
	       instr, instr - untraced);
	printf("%u sites: enable all %.1f insns/site, disable all %.1f insns/site, "
	       "boot init %.1f insns/site\n", n, enable, disable, boot);
	if (bad)
		printf("bench: WRONG HIT COUNTS: a relevant ops missed calls\n");

	printf("BENCH-JSON callops {\"calls\": %d, \"untraced_insns_per_call\": %.2f, "
	       "\"instrument_functions_off_insns_per_call\": %.2f, "
	       "\"sites\": %u, \"enable_insns_per_site\": %.1f, \"disable_insns_per_site\": %.1f, "
	       "\"boot_init_insns_per_site\": %.1f, \"hit_counts_ok\": %s, \"rows\": [",
	       BENCH_CALLS, untraced, instr, n, enable, disable, boot, bad ? "false" : "true");
	for (unsigned int k = 0; k < NROWS; k++)
		for (int mode = 0; mode < 2; mode++)
			print_row_json(k == 0 && mode == 0, rows[k].relevant, rows[k].irrelevant,
				       mode ? "list" : "callops", res[k][mode], res[0][mode]);
	printf("]}\n");
}
