/*
 * test/bench/main.c: benchmarks, run by 'make bench' under
 * qemu-system-aarch64 -icount shift=0, where the PMU's instruction
 * counter is exact. Prints markdown tables and one "BENCH-JSON name {...}"
 * line per result file, which tools/bench writes to build/bench/.
 */
#include <stdio.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "pmu.h"

struct bench_sites bench_sites;

/* The figures are meant for the site numbers users' functions get (most
 * above 2,000 in an image of a few thousand functions): if the image or
 * its link order changed so they do not hold, no figure is taken. */
int bench_sites_check(void)
{
	bench_sites.high = trace_site_of((uintptr_t)&bench_fn);
	bench_sites.low = trace_site_of((uintptr_t)&bench_fn_low);
	bench_sites.total = trace_site_count();
	printf("bench: %u patch sites; bench_fn at site %d, bench_fn_low at site %d "
	       "(filler check %d)\n", bench_sites.total, bench_sites.high, bench_sites.low,
	       bench_filler_sum());
	if (bench_sites.total >= BENCH_SITES_MIN && bench_sites.high > BENCH_SITE_HIGH_MIN &&
	    bench_sites.low >= 0 && bench_sites.low < BENCH_SITE_LOW_MAX)
		return 0;
	printf("bench: FAILED: the image must have at least %d sites, bench_fn above site "
	       "%d and bench_fn_low below %d (test/bench/filler.c, targets.c)\n",
	       BENCH_SITES_MIN, BENCH_SITE_HIGH_MIN, BENCH_SITE_LOW_MAX);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 0 && !strcmp(argv[0], "ringsize"))
		return bench_ringsize();	/* its own boot (ringsize.c) */
	if (!pmu_insns()) {
		printf("bench: the PMU instruction counter reads 0; run under "
		       "-icount shift=0 (make bench does)\n");
		return 1;
	}
	if (bench_sites_check())
		return 1;
	bench_callops();
	bench_record();
	bench_tracers();
	bench_tracepoints();
	bench_direct();
	bench_fp();
	bench_workload();
	bench_coverage();
	bench_probes();
	bench_export();
	return 0;
}
