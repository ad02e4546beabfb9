/*
 * test/bench/coverage.c: what function coverage costs on the
 * whole-program workload (workload.inc), beside gcov's, in one boot:
 *
 *   no_sites        the workload built without patch sites
 *   disabled_sites  the workload the tracers run on, every site disabled
 *                   (2 NOPs executed a call): coverage's floor once every
 *                   function has had its first hit and its site is back
 *                   to the disabled form
 *   gcov            the workload built with -fprofile-arcs
 *                   -ftest-coverage (a counter on every arc)
 *   coverage        trace=coverage on every wl_* function: the first run
 *                   (first hits) and the cheapest run after it (every
 *                   site patched back), and first hits on their own
 *
 * tools/bench adds the sizes from the image's link map. The coverage
 * rows are null until the image has a "coverage" tracer (cov_on() is
 * refused).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "control/control.h"
#include "tracers/coverage.h"
#include "pmu.h"

#define RUNS		4	/* first hits: the cheapest of this many functions */
#define WL_FUNCTIONS	11	/* functions with a site a round reaches */

static volatile int sink;

/* First hits on their own: functions nothing else calls, four of them
 * (an interrupt landing in one call only adds, so the cheapest counts). */
#define COV_FN(n) \
	static __attribute__((noipa)) int bench_cov_fn##n(int x) { return x + n; }
COV_FN(0) COV_FN(1) COV_FN(2) COV_FN(3)
static int (*const cov_fns[RUNS])(int) = {
	bench_cov_fn0, bench_cov_fn1, bench_cov_fn2, bench_cov_fn3
};

static uint32_t one_call(int (*fn)(int))
{
	uint32_t t0 = (uint32_t)pmu_insns();

	sink = fn(1);
	return (uint32_t)pmu_insns() - t0;
}

/* Coverage on the functions globs matches, from nothing reached; nonzero
 * when the image has no coverage (then nothing changed). The only two
 * places that name the coverage API: when trace=coverage lands, these
 * bodies are what may need adapting to it. */
static int cov_on(const char *globs)
{
	return trace_coverage(true, globs);
}

static void cov_off(void)
{
	trace_coverage(false, NULL);
}

struct cov_figures {
	bool in_image;
	uint32_t first_call, second_call;	/* beyond a disabled site */
	uint32_t first_run, after;		/* workload instructions */
};

/* trace=coverage, if the image has it. A first-hit call is measured
 * against the same call with its site disabled, and so is the call
 * right after it (a hit before the batched patching put the site
 * back). The workload's first run holds every first hit; the runs after
 * it, once the sites are back, cost what disabled sites cost (the
 * cheapest of 4, as every workload figure). */
static struct cov_figures coverage_mode(void)
{
	struct cov_figures c = { .first_call = UINT32_MAX, .second_call = UINT32_MAX };
	uint32_t disabled = UINT32_MAX;

	for (int i = 0; i < RUNS; i++) {
		uint32_t d = one_call(cov_fns[i]);

		disabled = d < disabled ? d : disabled;
	}
	if (cov_on("bench_cov_fn*"))
		return (struct cov_figures){ 0 };
	c.in_image = true;
	for (int i = 0; i < RUNS; i++) {
		uint32_t first = one_call(cov_fns[i]) - disabled;
		uint32_t second = one_call(cov_fns[i]) - disabled;

		c.first_call = first < c.first_call ? first : c.first_call;
		c.second_call = second < c.second_call ? second : c.second_call;
	}
	cov_off();

	if (cov_on("wl_*")) {
		c.in_image = false;
		return c;
	}
	c.first_run = bench_workload_insns(wl_round);
	coverage_retire();	/* the batch CPU 0's tick would apply */
	c.after = bench_workload_best(wl_round);
	cov_off();
	return c;
}

static void print_ratio(const char *key, bool have, double value)
{
	if (have)
		printf(", \"%s\": %.4f", key, value);
	else
		printf(", \"%s\": null", key);
}

void bench_coverage(void)
{
	wl_init();
	nosite_wl_init();
	gcov_wl_init();
	uint32_t calls = WL_ROUNDS * WL_CALLS_PER_ROUND;
	uint32_t none = bench_workload_best(nosite_wl_round);
	uint32_t disabled = bench_workload_best(wl_round);
	uint32_t gcov = bench_workload_best(gcov_wl_round);
	struct cov_figures c = coverage_mode();
	bool h = c.in_image;

	printf("\ncoverage against gcov: workload of %u calls of %u functions\n"
	       "| build or mode | instructions | over no sites |\n|---|---:|---:|\n",
	       calls, WL_FUNCTIONS);
	printf("| no patch sites | %u | 1.0000x |\n", none);
	printf("| patch sites, all disabled | %u | %.4fx |\n", disabled, (double)disabled / none);
	printf("| gcov (-fprofile-arcs) | %u | %.4fx |\n", gcov, (double)gcov / none);
	if (h) {
		printf("| coverage, first run | %u | %.4fx |\n", c.first_run,
		       (double)c.first_run / none);
		printf("| coverage, after the first hits | %u | %.4fx |\n", c.after,
		       (double)c.after / none);
		printf("coverage: first hit %u insns beyond a disabled site, the next call %u\n",
		       c.first_call, c.second_call);
	} else {
		printf("coverage: no \"coverage\" tracer in this image; its rows are null\n");
	}
	printf("BENCH-JSON coverage {\"workload_calls\": %u, \"workload_functions\": %u, "
	       "\"no_sites_insns\": %u, \"disabled_sites_insns\": %u, \"gcov_insns\": %u",
	       calls, WL_FUNCTIONS, none, disabled, gcov);
	print_ratio("disabled_sites_slowdown", true, (double)disabled / none);
	print_ratio("gcov_slowdown", true, (double)gcov / none);
	printf(", \"coverage_in_image\": %s", h ? "true" : "false");
	if (h)
		printf(", \"coverage_first_run_insns\": %u, \"coverage_after_insns\": %u, "
		       "\"first_hit_insns\": %u, \"hit_before_patch_insns\": %u",
		       c.first_run, c.after, c.first_call, c.second_call);
	else
		printf(", \"coverage_first_run_insns\": null, \"coverage_after_insns\": null, "
		       "\"first_hit_insns\": null, \"hit_before_patch_insns\": null");
	print_ratio("coverage_slowdown_after_first_hits", h, (double)c.after / disabled);
	print_ratio("coverage_slowdown_after_first_hits_vs_no_sites", h, (double)c.after / none);
	/* The first run holds no batch (the bench applies it after), so
	 * every call of it goes through the trampoline: what a call costs
	 * until CPU 0's tick takes its site off, near hit_before_patch. */
	print_ratio("coverage_first_run_extra_insns_per_call", h,
		    ((double)c.first_run - c.after) / calls);
	printf("}\n");
}
