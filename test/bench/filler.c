/*
 * test/bench/filler.c: 4,000 tiny traced functions, so the benchmark
 * image has as many patch sites as a real application and the measured
 * functions sit at the site numbers users' functions get. Sites are
 * numbered in address order: the kernel's come first, then the app's
 * objects in link order (their file names, sorted), so this file pushes
 * everything linked after it (targets.c's bench_fn, workload.c's upper
 * half) above site 2,000. main.c checks the numbers at run time.
 *
 * Each is a real function with a patchable entry (noipa: never inlined,
 * cloned or merged with its neighbours); the table keeps them from
 * --gc-sections, and bench_filler_sum() calls every one once, so none is
 * dead code the linker could drop or the tracer never sees.
 */
#include <stdint.h>

#include "bench.h"

#define FILLER_FN(n) \
	__attribute__((noipa)) int bench_filler_##n(int x) { return x ^ n; }
#define FILLER_10(n) FILLER_FN(n##0) FILLER_FN(n##1) FILLER_FN(n##2) FILLER_FN(n##3) \
	FILLER_FN(n##4) FILLER_FN(n##5) FILLER_FN(n##6) FILLER_FN(n##7) FILLER_FN(n##8) \
	FILLER_FN(n##9)
#define FILLER_100(n) FILLER_10(n##0) FILLER_10(n##1) FILLER_10(n##2) FILLER_10(n##3) \
	FILLER_10(n##4) FILLER_10(n##5) FILLER_10(n##6) FILLER_10(n##7) FILLER_10(n##8) \
	FILLER_10(n##9)
#define FILLER_1000(n) FILLER_100(n##0) FILLER_100(n##1) FILLER_100(n##2) \
	FILLER_100(n##3) FILLER_100(n##4) FILLER_100(n##5) FILLER_100(n##6) \
	FILLER_100(n##7) FILLER_100(n##8) FILLER_100(n##9)

/* bench_filler_1000 .. bench_filler_4999: four digits each, no octal. */
FILLER_1000(1) FILLER_1000(2) FILLER_1000(3) FILLER_1000(4)

#undef FILLER_FN
#define FILLER_FN(n) bench_filler_##n,

static int (*const filler_table[])(int) = {
	FILLER_1000(1) FILLER_1000(2) FILLER_1000(3) FILLER_1000(4)
};

_Static_assert(sizeof(filler_table) / sizeof(filler_table[0]) == BENCH_FILLER_FNS,
	       "bench.h's BENCH_FILLER_FNS counts the functions above");

int bench_filler_sum(void)
{
	int acc = 0;

	for (unsigned int i = 0; i < BENCH_FILLER_FNS; i++)
		acc += filler_table[i]((int)i);
	return acc;
}
