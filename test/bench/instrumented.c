/* test/bench/instrumented.c: built with -finstrument-functions and no
 * patch site (Makefile INSTRUMENT), the way U-Boot and Zephyr trace. */
#include "bench.h"

__attribute__((noipa)) int bench_fn_instrumented(int x)
{
	return x + 1;
}
