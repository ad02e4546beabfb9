/*
 * test/target/test_probe_mt.c: probes planted and removed while other
 * CPUs run the probed instruction (under -accel tcg,thread=multi by
 * test/boot_stages.py), a probe hit's cost in instructions (under
 * -icount), and the probes a trace_probe= boot planted
 * (test/probe_boot.py).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>

#include "barrier.h"
#include "config.h"
#include "ktest.h"
#include "kprintf.h"
#include "pmu.h"
#include "probe_check.h"
#include "tracers/retprobe.h"

/* Other CPUs call pb_mt and check every result while this one plants and
 * removes a probe on its add, round after round. */
#define MT_ROUNDS	50

static volatile int mt_stop, mt_go;
static volatile uint64_t mt_calls[NR_CPUS], mt_wrong[NR_CPUS];

static void mt_caller(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	uint64_t i = 0;

	while (!mt_go)
		cpu_relax();
	while (!READ_ONCE(mt_stop)) {
		i++;
		if (pb_mt(i, cpu) != i + cpu)
			mt_wrong[cpu] = mt_wrong[cpu] + 1;
		mt_calls[cpu] = mt_calls[cpu] + 1;
	}
}

static uint64_t mt_total(void)
{
	uint64_t n = 0;

	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		n += mt_calls[c];
	return n;
}

KTEST(probe_plant_and_remove_while_other_cpus_run_it)
{
	unsigned int ncpus = smp_num_cpus();
	uint64_t hits = 0, wrong = 0, rounds_hit = 0;
	char text[160];
	const char *why;
	struct probe_view v;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	mt_stop = 0, mt_go = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		mt_calls[c] = 0;
		mt_wrong[c] = 0;
	}
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, mt_caller, (void *)(uintptr_t)c);
	WRITE_ONCE(mt_go, 1);
	while (mt_total() < 100)
		cpu_relax();
	uint64_t start = mt_total();

	pbt_spec(text, sizeof(text), "mt", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2,x3");
	for (int round = 0; round < MT_ROUNDS; round++) {
		KT_EQ(t, pbt_plant(text, &why), 0);
		uint64_t then = mt_total();

		/* Some calls through the probe; 5 s bounds a hang. */
		for (int i = 0; i < 5000 && mt_total() < then + 20; i++)
			time_delay_us(1000);
		KT_EXPECT(t, pbt_view("mt", &v));
		KT_EQ(t, probe_remove("mt", &why), 0);
		hits += v.hits;	/* hits before the removal's last moment ... */
		rounds_hit += v.hits > 0;
	}
	uint64_t after = mt_total();

	while (mt_total() < after + 1000)	/* runs on, the instruction back */
		cpu_relax();
	WRITE_ONCE(mt_stop, 1);
	for (unsigned int c = 1; c < ncpus; c++) {
		smp_wait(c);
		wrong += mt_wrong[c];
	}
	kprintf("# %d rounds, %llu calls, %llu hits seen, %llu rounds with hits\n", MT_ROUNDS,
		(unsigned long long)(mt_total() - start), (unsigned long long)hits,
		(unsigned long long)rounds_hit);
	KT_EQ(t, wrong, 0);			/* every result exact */
	KT_EXPECT(t, hits <= mt_total() - start);	/* never more hits than calls */
	KT_EXPECT(t, rounds_hit > 0);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
	KT_EXPECT(t, !pbt_view("mt", &v));
}

/* The cost of a hit in instructions (the PMU counts them under -icount
 * and on hardware), interrupts masked around each count. */
#define COST_CALLS	100

static PB uint64_t insns_of(unsigned int calls)
{
	unsigned long flags = irq_save();
	uint64_t t0 = pmu_insns();

	for (unsigned int i = 0; i < calls; i++)
		pb_mt(i, 1);
	uint64_t d = (pmu_insns() - t0) & 0xffffffff;	/* a 32-bit counter */

	irq_restore(flags);
	return d;
}

KTEST(probe_cost_of_a_hit)
{
	char text[160];
	const char *why;

	pmu_init();
	if (!insns_of(1))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	uint64_t plain = insns_of(COST_CALLS);

	pbt_spec(text, sizeof(text), "cost0", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "");
	KT_EQ(t, pbt_plant(text, &why), 0);
	uint64_t none = insns_of(COST_CALLS);

	KT_EQ(t, probe_remove("cost0", &why), 0);
	pbt_spec(text, sizeof(text), "cost2", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2,x3:u32");
	KT_EQ(t, pbt_plant(text, &why), 0);
	uint64_t two = insns_of(COST_CALLS);

	KT_EQ(t, probe_remove("cost2", &why), 0);
	kprintf("# probe cost in instructions per hit: no fetch %llu, two fetches %llu "
		"(a call without the probe %llu)\n",
		(unsigned long long)((none - plain) / COST_CALLS),
		(unsigned long long)((two - plain) / COST_CALLS),
		(unsigned long long)(plain / COST_CALLS));
	KT_EXPECT(t, none > plain && two > none);
}

/* A return probe's hit: the entry callback that hooks the return, the
 * return through fgraph_return's C path, one record. */
static int ret_plant(const char *text)
{
	struct probe_spec s;
	const char *why;

	return probe_spec_parse(text, &s, &why) ? -100 : retprobe_plant(&s, &why);
}

KTEST(probe_return_cost_of_a_hit)
{
	const char *why;

	pmu_init();
	if (!insns_of(1))
		return ktest_skip(t, "the PMU counts instructions only under -icount");
	uint64_t plain = insns_of(COST_CALLS);

	KT_EQ(t, ret_plant("rcost0=pb_mt%return"), 0);
	uint64_t none = insns_of(COST_CALLS);

	KT_EQ(t, retprobe_remove("rcost0", &why), 0);
	KT_EQ(t, ret_plant("rcost1=pb_mt%return,$retval:u64"), 0);
	uint64_t one = insns_of(COST_CALLS);

	KT_EQ(t, retprobe_remove("rcost1", &why), 0);
	kprintf("# return probe cost in instructions per hit: no fetch %llu, $retval %llu "
		"(a call without the probe %llu)\n",
		(unsigned long long)((none - plain) / COST_CALLS),
		(unsigned long long)((one - plain) / COST_CALLS),
		(unsigned long long)(plain / COST_CALLS));
	KT_EXPECT(t, none > plain && one > none);
}

/* After a boot with trace_probe=bp=pb_mt+OFF,x2:u32,x3;bq=pb_add+OFF
 * (test/probe_boot.py); skipped in other boots. */
KTEST(probe_boot_planted_probes_count_and_fetch)
{
	static const uint32_t words[4];
	struct probe_view v;
	const char *why;

	if (!pbt_view("bp", &v))
		return ktest_skip(t, "no trace_probe=bp=... on the command line");
	KT_EQ(t, v.addr, (uintptr_t)pb_mt_at);
	KT_EQ(t, v.spec.nfetch, 2);
	KT_EQ(t, v.spec.fetch[0].type, PROBE_U32);
	uint64_t before = v.hits;

	KT_EQ(t, pb_mt(5, 6), 11);
	KT_EQ(t, pb_mt(7, 8), 15);
	KT_EXPECT(t, pbt_view("bp", &v));
	KT_EQ(t, v.hits - before, 2);
	KT_EXPECT(t, pbt_view("bq", &v));
	KT_EQ(t, v.addr, (uintptr_t)pb_add_at);
	KT_EQ(t, pb_add(1, 2, words), 3);
	KT_EXPECT(t, pbt_view("bq", &v));
	KT_EQ(t, v.hits, 1);
	KT_EQ(t, probe_remove("bp", &why), 0);
	KT_EQ(t, probe_remove("bq", &why), 0);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
}

/* After a boot with trace_probe=br=pb_mt%return,$retval:u32;
 * bw=pb_ret_ptr%return,$retval,w=+0($retval):x32 (test/probe_boot.py);
 * skipped in other boots. */
KTEST(probe_boot_planted_return_probes_count)
{
	struct probe_view v;
	const char *why;
	bool br = false, bw = false;

	for (unsigned int i = 0; i < RETPROBE_MAX; i++)
		if (retprobe_get(i, &v)) {
			br |= !strcmp(v.spec.name, "br") && v.addr == (uintptr_t)pb_mt && !v.hits;
			bw |= !strcmp(v.spec.name, "bw") && v.addr == (uintptr_t)pb_ret_ptr;
		}
	if (!br && !bw)
		return ktest_skip(t, "no trace_probe=br=... on the command line");
	KT_EXPECT(t, br && bw);
	KT_EQ(t, pb_mt(5, 6), 11);
	KT_EQ(t, pb_mt(7, 8), 15);
	KT_EQ(t, *pb_ret_ptr(2), 0xdeadbeef);
	for (unsigned int i = 0; i < RETPROBE_MAX; i++)
		if (retprobe_get(i, &v))
			KT_EQ(t, v.hits, !strcmp(v.spec.name, "br") ? 2 : 1);
	KT_EQ(t, retprobe_remove("br", &why), 0);
	KT_EQ(t, retprobe_remove("bw", &why), 0);
	KT_EQ(t, retprobe_count(), 0);
}
