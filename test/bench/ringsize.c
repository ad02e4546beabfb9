/*
 * test/bench/ringsize.c: "-- ringsize", a boot of its own (tools/bench,
 * build/bench/ringsize.json). The workload of workload.c alone, 52
 * rounds: 363,844 calls, about the 364,581 of the embedded benchmark
 * issue 26 measured (none is in this tree). The boot arguments start the
 * tracer on every function before main() with the ring the board gets by
 * default, as a user's first run would; the end-of-run totals line
 * ("trace: N events, M lost") is the figure, read by tools/bench.
 */
#include <stdio.h>

#include "bench.h"

#define RINGSIZE_ROUNDS	52

int bench_ringsize(void)
{
	unsigned long calls = bench_workload_rounds(RINGSIZE_ROUNDS);

	printf("ringsize: %lu workload calls\n", calls);
	return 0;
}
