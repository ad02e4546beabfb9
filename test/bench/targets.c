/* test/bench/targets.c: the measured functions with and without a
 * patch site. noipa: each is a real call, never inlined or cloned. */
#include <baretrace_trace.h>

#include "bench.h"

__attribute__((noipa)) int bench_fn(int x)
{
	return x + 1;
}

__attribute__((noipa)) int bench_other(int x)
{
	return x + 2;
}

__attribute__((noipa)) notrace int bench_fn_notrace(int x)
{
	return x + 1;
}
