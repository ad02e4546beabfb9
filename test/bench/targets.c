/* test/bench/targets.c: the measured functions with and without a
 * patch site. noipa: each is a real call, never inlined or cloned.
 *
 * bench_fn is linked after filler.c's 4,000 functions, so its site number
 * is above 2,000, as most of a real application's are. bench_fn_low is
 * its twin at a site number below 128: .text.hot.* input sections are
 * placed first in text (linker/baretrace.ld.S), before the kernel's, and
 * sites are numbered in address order. The recorders once took a faster
 * path below 128 (a one-byte varint); comparing the two in one boot shows
 * whether they still do. main.c checks both numbers. */
#include <baretrace_trace.h>

#include "bench.h"

__attribute__((noipa)) int bench_fn(int x)
{
	return x + 1;
}

__attribute__((noipa, section(".text.hot.bench_fn_low"))) int bench_fn_low(int x)
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
