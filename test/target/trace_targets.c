/*
 * test/target/trace_targets.c: functions the trace tests attach to.
 * noipa keeps each a real, separately called function at -O2.
 */
#include <stdint.h>

#include <baretrace.h>

#include "target.h"

#define TARGET __attribute__((noipa))

TARGET int tt_alpha(int x) { return x + 1; }
TARGET int tt_alpine(int x) { return x + 2; }
TARGET int tt_beta(int x) { return x * 2; }
TARGET int tt_gamma(int x) { return x - 3; }
TARGET long tt_args(long a, long b, long c) { return a * 100 + b * 10 + c; }
TARGET int tt_inner(int x) { return x ^ 0x55; }
TARGET int tt_outer(int x) { return tt_inner(x) + 1; }
TARGET void tt_alpha_void(void *arg) { (void)arg; tt_alpha(1); }
TARGET int tt_sleepy(int us) { time_delay_us((uint64_t)us); return us; }

/* Changes its saved frame pointer so it returns with a different x29:
 * what the graph tracer's frame-pointer check exists to catch. */
TARGET int tt_bad_fp(int x)
{
	/* In asm: the compiler would drop a store into its own frame. */
	__asm__ volatile("ldr x9, [x29]\n\teor x9, x9, #0x100\n\tstr x9, [x29]"
			 ::: "x9", "memory");
	return x + 1;
}

/* Calls tt_bad_fp and puts its own frame pointer back (its epilogue
 * reloads x29 from the stack through sp, so only x29 itself is off). */
TARGET int tt_bad_fp_caller(int x)
{
	int r = tt_bad_fp(x);

	__asm__ volatile("" ::: "memory");
	return r;
}
