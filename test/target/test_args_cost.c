/*
 * test/target/test_args_cost.c: what argument capture costs a call, in
 * instructions (the PMU counts them under -icount shift=0 and on
 * hardware): the call untraced, with three argument registers recorded
 * (trace_args=tt_args:3), and with the string x0 points to as well
 * (:s0), a short one and one cut at 32 bytes. Interrupts masked around
 * each count; the figures are printed for docs and the note.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "ktest.h"
#include "kprintf.h"
#include "percpu.h"
#include "pmu.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/trigger.h"

#define COST_CALLS	100

/* noipa: one copy of the loop measures every setting the same way. */
static __attribute__((noipa)) uint64_t args_insns(const char *x0)
{
	unsigned long flags = irq_save();
	uint64_t t0 = pmu_insns();

	for (unsigned int i = 0; i < COST_CALLS; i++)
		tt_args((long)x0, 2, 3);
	uint64_t d = (pmu_insns() - t0) & 0xffffffff;	/* a 32-bit counter */

	irq_restore(flags);
	return d;
}

KTEST(args_cost_in_instructions)
{
	static const char shorter[] = "hello";
	static const char longer[] = "0123456789abcdefghijklmnopqrstuvwxyz";

	pmu_init();
	check_reset();		/* rings that record: what a traced run pays */
	if (!args_insns(shorter))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	uint64_t plain = args_insns(shorter);

	KT_EQ(t, trace_set_args("tt_args:3"), 0);
	uint64_t regs = args_insns(shorter);

	KT_EQ(t, trace_set_args("tt_args:3:s0"), 0);
	uint64_t str5 = args_insns(shorter);
	uint64_t str32 = args_insns(longer);

	KT_EQ(t, trace_set_args(""), 0);
	kprintf("# args cost in instructions per call (%u calls): untraced %lu, 3 registers "
		"+%lu, and a 5-byte string +%lu, a 32-byte string (cut) +%lu\n", COST_CALLS,
		(unsigned long)(plain / COST_CALLS), (unsigned long)((regs - plain) / COST_CALLS),
		(unsigned long)((str5 - plain) / COST_CALLS),
		(unsigned long)((str32 - plain) / COST_CALLS));
	KT_EXPECT(t, plain < regs && regs < str5 && str5 < str32);
}
