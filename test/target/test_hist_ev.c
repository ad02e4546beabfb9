/*
 * test/target/test_hist_ev.c: histograms of a tracepoint field
 * (trace/events/hist_ev.c). The test fires its own event a known number
 * of times with values it chose and derives each key's buckets itself
 * (a loop over the bits, not hist_bucket): the counts, buckets, sums and
 * the overflow count must be those. Bad specs (API and console) are
 * refused with nothing changed; other CPUs fire while CPU 0 reads (run
 * under -accel tcg,thread=multi by test/boot_stages.py, the "hist_"
 * prefix); the cost of a hit in instructions (PMU, under -icount).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "control/control.h"
#include "core/core.h"
#include "events/hist_ev.h"
#include "events/tracepoint.h"
#include "ktest.h"
#include "kprintf.h"
#include "percpu.h"
#include "pmu.h"
#include "shell.h"

TP_DEFINE(histev, hit, TP_FIELD(U32, key, "%u"), TP_FIELD(U64, val, "%lu"),
	  TP_FIELD(S32, delta, "%d"), TP_STRING(tag, 8), TP_FIELD(U8, small, "%u"));

/* Also the 'histev' scenario's (scenario_hist.c). */
__attribute__((noinline)) void hev_fire(uint32_t key, uint64_t val)
{
	trace_event(histev, hit, key, val, -1, "t", (uint8_t)val);
}

/* The bucket of v, counted bit by bit. */
static unsigned int bucket_of(uint64_t v)
{
	unsigned int b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b > 63 ? 63 : b;
}

/* The value of the i-th hit: 0, 1, then spread over many buckets. */
static uint64_t value_of(unsigned int i)
{
	return i < 2 ? i : (uint64_t)i * i * 37 + (i % 3 ? 1ULL << (i % 40) : 0);
}

static const struct hist_ev_row *row_of(unsigned int k, unsigned int cpu, uint64_t key)
{
	const struct hist_ev_table *t = hist_ev_table_of(k, cpu);

	for (unsigned int i = 0; t && i < HIST_EV_KEYS; i++)
		if (t->rows[i].used && t->rows[i].key == key)
			return &t->rows[i];
	return NULL;
}

static uint64_t hits_of(const struct hist_ev_row *r)
{
	uint64_t n = 0;

	for (unsigned int b = 0; r && b < HIST_BUCKETS; b++)
		n += r->bucket[b];
	return n;
}

static void ev_done(struct ktest_ctx *t)
{
	KT_EQ(t, trace_hist_events(false, NULL), 0);
	KT_EQ(t, hist_ev_forget(), 0);
}

#define NKEYS	5
#define NHITS	200

KTEST(hist_ev_counts_per_key_equal_the_hits_fired)
{
	uint64_t exp[NKEYS][HIST_BUCKETS] = { { 0 } }, sum[NKEYS] = { 0 };

	KT_EQ(t, trace_hist_events(true, "histev:hit:val:keys=key,histev:hit:small"), 0);
	for (unsigned int i = 0; i < NHITS; i++) {
		unsigned int key = i % NKEYS * 1000;	/* keys 0, 1000, ... 4000 */

		hev_fire(key, value_of(i));
		exp[i % NKEYS][bucket_of(value_of(i))]++;
		sum[i % NKEYS] += value_of(i);
	}
	bool same = true;

	for (unsigned int k = 0; k < NKEYS; k++) {
		const struct hist_ev_row *r = row_of(0, 0, k * 1000);

		same &= r && !memcmp(r->bucket, exp[k], sizeof(exp[k])) && r->sum == sum[k];
	}
	KT_EXPECT(t, same);
	KT_EQ(t, hist_ev_table_of(0, 0)->nkeys, NKEYS);
	KT_EQ(t, hist_ev_table_of(0, 0)->other, 0);
	/* The second spec, unkeyed: one row, every hit, the U8 field cut. */
	uint64_t small[HIST_BUCKETS] = { 0 }, ssum = 0;

	for (unsigned int i = 0; i < NHITS; i++) {
		small[bucket_of((uint8_t)value_of(i))]++;
		ssum += (uint8_t)value_of(i);
	}
	const struct hist_ev_row *r = row_of(1, 0, 0);

	KT_EXPECT(t, r && !memcmp(r->bucket, small, sizeof(small)) && r->sum == ssum);
	KT_EQ(t, hits_of(r), NHITS);
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		KT_EXPECT(t, hits_of(row_of(0, c, 0)) == 0);	/* nobody else fired */
	char show[] = "hist";

	KT_EQ(t, shell_exec(show), 0);
	ev_done(t);
}

KTEST(hist_ev_keys_past_the_table_count_as_other)
{
	unsigned int extra = 36;

	KT_EQ(t, trace_hist_events(true, "histev:hit:val:keys=key"), 0);
	for (int round = 0; round < 2; round++)
		for (unsigned int k = 0; k < HIST_EV_KEYS + extra; k++)
			hev_fire(k, k);
	const struct hist_ev_table *tb = hist_ev_table_of(0, 0);
	unsigned int full = 0;

	KT_EXPECT(t, tb != NULL);
	if (!tb)
		return;
	KT_EQ(t, tb->nkeys, HIST_EV_KEYS);
	KT_EQ(t, tb->other, 2 * extra);		/* the keys that came after the 64th */
	for (unsigned int k = 0; k < HIST_EV_KEYS; k++)
		full += hits_of(row_of(0, 0, k)) == 2;
	KT_EQ(t, full, HIST_EV_KEYS);
	hist_ev_clear();
	KT_EXPECT(t, hist_ev_table_of(0, 0) == NULL);	/* cleared, not yet zeroed */
	hev_fire(7, 7);
	KT_EQ(t, hist_ev_table_of(0, 0)->nkeys, 1);
	KT_EQ(t, hist_ev_table_of(0, 0)->other, 0);
	ev_done(t);
}

KTEST(hist_ev_refuses_bad_specs_and_changes_nothing)
{
	static const char *const bad[] = {
		"", "histev", "histev:hit", "histev:hit:", "histev:nope:val", "nosys:hit:val",
		"histev:hit:nope", "histev:hit:tag", "histev:hit:delta", "histev:hit:val:keys=",
		"histev:hit:val:keys=nope", "histev:hit:val:keys=tag", "histev:hit:val:key=key",
		"histev:hit:val:keys=key:more", "histev:hit:val,histev:hit:val,histev:hit:val,"
		"histev:hit:val,histev:hit:val", "histev:hit:val,histev:hit:bad",
	};
	static char lines[][48] = { "hist on histev:hit:nope", "hist on histev:hit:val:x=1",
				    "hist on nosys:x:y" };
	static struct hist_ev_row before;
	const struct hist_ev_spec *sp;
	uintptr_t site = tp_first_site(&tp_ev_histev_hit, false);

	KT_EQ(t, trace_hist_events(true, "histev:hit:val"), 0);
	hev_fire(1, 5);
	hev_fire(1, 9);
	memcpy(&before, row_of(0, 0, 0), sizeof(before));
	KT_EQ(t, hits_of(&before), 2);
	KT_EQ(t, trace_hist_events(true, "histev:hit:small"), TRACE_EBUSY);
	KT_EQ(t, trace_hist_events(false, NULL), 0);
	KT_EQ(t, *(volatile uint32_t *)site, INSN_NOP);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		KT_EQ(t, trace_hist_events(true, bad[i]), TRACE_EINVAL);
	for (unsigned int i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		KT_EXPECT(t, shell_exec(lines[i]) != 0);
	/* Nothing changed: off, the same spec, the same counts, the site a NOP. */
	KT_EXPECT(t, !hist_ev_on());
	KT_EQ(t, hist_ev_specs(&sp), 1);
	KT_EXPECT(t, sp[0].ev == &tp_ev_histev_hit && sp[0].field == 1 && sp[0].key == HIST_EV_NOKEY);
	KT_EXPECT(t, row_of(0, 0, 0) && !memcmp(row_of(0, 0, 0), &before, sizeof(before)));
	KT_EQ(t, *(volatile uint32_t *)site, INSN_NOP);
	/* The console's good lines. */
	char on[] = "hist on histev:hit:val:keys=key", show[] = "hist", clear[] = "hist clear",
	     off[] = "hist off";

	KT_EQ(t, shell_exec(on), 0);
	KT_EXPECT(t, hist_ev_on());
	hev_fire(3, 4);
	KT_EQ(t, hits_of(row_of(0, 0, 3)), 1);
	KT_EQ(t, shell_exec(show), 0);
	KT_EQ(t, shell_exec(clear), 0);
	KT_EXPECT(t, hist_ev_table_of(0, 0) == NULL);
	KT_EQ(t, shell_exec(off), 0);
	KT_EQ(t, *(volatile uint32_t *)site, INSN_NOP);
	KT_EQ(t, hist_ev_forget(), 0);
}

/* Other CPUs fire a known number of hits each, key = their CPU, while
 * CPU 0 reads: each CPU's count only grows and ends at its hits. */
#define MT_HITS	20000

static volatile int mt_go;
static volatile uint64_t mt_done[NR_CPUS];

static void mt_fire(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;

	while (!READ_ONCE(mt_go))
		cpu_relax();
	for (unsigned int i = 0; i < MT_HITS; i++)
		hev_fire(cpu, i);
	WRITE_ONCE(mt_done[cpu], 1);
}

KTEST(hist_ev_per_cpu_counts_add_up_while_cpu0_reads)
{
	unsigned int ncpus = smp_num_cpus();
	uint64_t last[NR_CPUS] = { 0 };
	bool grows = true, done;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	KT_EQ(t, trace_hist_events(true, "histev:hit:val:keys=key"), 0);
	mt_go = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		mt_done[c] = 0;
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, mt_fire, (void *)(uintptr_t)c);
	WRITE_ONCE(mt_go, 1);
	do {
		done = true;
		for (unsigned int c = 1; c < ncpus; c++) {
			uint64_t now = hits_of(row_of(0, c, c));

			grows &= now >= last[c];
			last[c] = now;
			done &= READ_ONCE(mt_done[c]) != 0;
		}
	} while (!done);
	for (unsigned int c = 1; c < ncpus; c++) {
		smp_wait(c);
		KT_EQ(t, hits_of(row_of(0, c, c)), MT_HITS);
		KT_EQ(t, hist_ev_table_of(0, c)->nkeys, 1);
		/* values 0 .. MT_HITS-1: bucket b >= 1 holds 2^(b-1) of them */
		KT_EQ(t, row_of(0, c, c)->bucket[10], 512);
		KT_EQ(t, row_of(0, c, c)->sum, (uint64_t)MT_HITS * (MT_HITS - 1) / 2);
	}
	KT_EXPECT(t, hist_ev_table_of(0, 0) == NULL || hist_ev_table_of(0, 0)->nkeys == 0);
	KT_EXPECT(t, grows);
	ev_done(t);
}

/* The cost of a hit in instructions: the site with the histogram probe
 * attached, over the same site with nothing attached (its NOP). */
#define COST_HITS	100

static __attribute__((noinline)) uint64_t insns_of_hits(unsigned int n)
{
	unsigned long flags = irq_save();
	uint64_t t0 = pmu_insns();

	for (unsigned int i = 0; i < n; i++)
		hev_fire(3, 1000);
	uint64_t d = (pmu_insns() - t0) & 0xffffffff;

	irq_restore(flags);
	return d;
}

KTEST(hist_ev_cost_of_a_hit_in_instructions)
{
	pmu_init();
	if (!insns_of_hits(1))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	uint64_t off = insns_of_hits(COST_HITS);

	KT_EQ(t, trace_hist_events(true, "histev:hit:val:keys=key"), 0);
	insns_of_hits(1);	/* the first hit after the clear zeroes the table */
	uint64_t keyed = insns_of_hits(COST_HITS), again = insns_of_hits(COST_HITS);

	ev_done(t);
	KT_EQ(t, trace_hist_events(true, "histev:hit:val"), 0);
	insns_of_hits(1);
	uint64_t plain = insns_of_hits(COST_HITS);

	ev_done(t);
	kprintf("# hist_ev cost in instructions per hit beyond the site off: keyed %lu, "
		"unkeyed %lu (site off: %lu a call)\n", (unsigned long)((keyed - off) / COST_HITS),
		(unsigned long)((plain - off) / COST_HITS), (unsigned long)(off / COST_HITS));
	KT_EQ(t, keyed, again);		/* exact: the same path every hit */
	KT_EXPECT(t, keyed > off && plain > off);
}
