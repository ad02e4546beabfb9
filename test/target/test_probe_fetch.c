/*
 * test/target/test_probe_fetch.c: a probe's memory fetch reads RAM only
 * (trace/core/probe_record.c). Through a pointer to the GIC CPU
 * interface the read of GICC_IAR would acknowledge the CPU's pending
 * timer interrupt, and as nothing ends it, the CPU would take no timer
 * tick again: the fetch is marked unreadable (reason 1, not RAM) and
 * the tick still comes. A fetch whose bytes straddle RAM's start is not
 * read either; one inside RAM is.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "core/probe.h"
#include "fdt_dev.h"
#include "heap.h"
#include "ktest.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "tracecheck.h"
#include "wire.h"

#include "probe_check.h"

#define CNTV_ISTATUS	4	/* CNTV_CTL_EL0: the timer's condition is met */

static struct rec recs[CHECK_MAX];

int64_t pbt_null_reason(void)
{
	return ram_region().base > 0x10000 ? 1 : 0;	/* kernel/cpu/mmu.c's NULL_GUARD */
}

/* Each probe record of this CPU's ring into mask[] and val[][0..1]
 * (two fetches each); how many. */
static unsigned int probe_hits(uint8_t *mask, int64_t (*val)[2], unsigned int max)
{
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), k = 0;

	for (unsigned int i = 0; i < n && k < max; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;
		uint64_t v;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE)
			continue;
		p += wire_varint_get(p, (size_t)(end - p), &v);	/* the number */
		if (*p++ != 2)
			continue;
		mask[k] = *p++;
		for (int f = 0; f < 2; f++) {
			p += wire_varint_get(p, (size_t)(end - p), &v);
			val[k][f] = wire_unzigzag(v);
		}
		k++;
	}
	return k;
}

/* Waits, IRQs masked, until this CPU's timer interrupt is pending (its
 * condition met), at most two of its periods; true if it is. */
static bool tick_pending(void)
{
	uint64_t t0 = counter_read(), hz = time_counter_hz();

	while (counter_read() - t0 < 2 * hz / 10)	/* 200 ms: 20 ticks at 100 Hz */
		if (read_sysreg(cntv_ctl_el0) & CNTV_ISTATUS)
			return true;
	return false;
}

KTEST(probe_fetch_of_the_gic_cpu_interface_is_not_read)
{
	uintptr_t gicc = *irqchip_fdt_bases[1].base;
	uint8_t mask[4];
	int64_t val[4][2];
	char text[160];
	const char *why;

	check_reset();
	pbt_spec(text, sizeof(text), "gicc", "pb_add", (uintptr_t)pb_add, pb_add_at,
		 "iar=+12(x5):u32,a=x2");	/* GICC_IAR at 0x00c (GICv2) */
	KT_EQ(t, pbt_plant(text, &why), 0);
	unsigned long flags = irq_save();
	bool pending = tick_pending();

	KT_EXPECT(t, pending);
	/* The probe runs with the tick pending: a read of GICC_IAR now
	 * would take it. */
	KT_EQ(t, pb_add(3, 4, (const uint32_t *)gicc), 7);
	uint64_t before = this_cpu()->ticks, t0 = counter_read();

	irq_restore(flags);
	/* The pending tick is taken as soon as IRQs are unmasked; 100 ms of
	 * the counter is ten periods more. */
	while (this_cpu()->ticks == before && counter_read() - t0 < time_counter_hz() / 10)
		;
	KT_EXPECT(t, this_cpu()->ticks > before);
	KT_EQ(t, probe_remove("gicc", &why), 0);
	KT_EQ(t, probe_hits(mask, val, 4), 1);
	KT_EQ(t, mask[0], 1);		/* the fetch is unreadable, */
	KT_EQ(t, val[0][0], 1);		/* because it is not in RAM */
	KT_EQ(t, val[0][1], 3);		/* and the register beside it read */
}

KTEST(probe_fetch_reads_only_what_is_wholly_in_ram)
{
	static const uint32_t words[4] = { 7, 8, 9, 10 };
	struct mem_region ram = ram_region();
	uint8_t mask[4];
	int64_t val[4][2];
	char text[160];
	const char *why;

	if (ram.base < 0x10000 + 8) {	/* kernel/cpu/mmu.c's NULL_GUARD: unmapped */
		ktest_skip(t, "RAM starts at 0 here: its first word is the unmapped NULL guard");
		return;
	}
	check_reset();
	pbt_spec(text, sizeof(text), "edge", "pb_add", (uintptr_t)pb_add, pb_add_at,
		 "+0(x5):u64,+4(x5):u32");
	KT_EQ(t, pbt_plant(text, &why), 0);
	/* 4 bytes below RAM and 4 in it: not read. The u32 at +4 is RAM's
	 * first word, read. */
	KT_EQ(t, pb_add(1, 2, (const uint32_t *)(uintptr_t)(ram.base - 4)), 3);
	KT_EQ(t, pb_add(1, 2, words), 3);
	KT_EQ(t, probe_remove("edge", &why), 0);
	KT_EQ(t, probe_hits(mask, val, 4), 2);
	KT_EQ(t, mask[0], 1);
	KT_EQ(t, val[0][0], 1);		/* not in RAM: not read, not faulted */
	KT_EQ(t, val[0][1], *(const volatile uint32_t *)(uintptr_t)ram.base);
	KT_EQ(t, mask[1], 0);
	KT_EQ(t, val[1][0], (int64_t)(8ULL << 32 | 7));
	KT_EQ(t, val[1][1], 8);
}
