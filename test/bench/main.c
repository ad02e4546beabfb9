/*
 * test/bench/main.c: benchmarks, run by 'make bench' under
 * qemu-system-aarch64 -icount shift=0, where the PMU's instruction
 * counter is exact. Prints markdown tables and one "BENCH-JSON name {...}"
 * line per result file, which tools/bench writes to build/bench/.
 */
#include <stdio.h>
#include <string.h>

#include <baretrace.h>

#include "bench.h"
#include "pmu.h"

int main(int argc, char **argv)
{
	if (argc > 0 && !strcmp(argv[0], "ringsize"))
		return bench_ringsize();	/* its own boot (ringsize.c) */
	if (!pmu_insns()) {
		printf("bench: the PMU instruction counter reads 0; run under "
		       "-icount shift=0 (make bench does)\n");
		return 1;
	}
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
