/*
 * test/target/test_probe_ret.c: return probes, SYMBOL%return
 * (trace/tracers/retprobe.c): exact hit counts, $retval and memory at it
 * equal to what the function computed, a fetch that cannot be read marked,
 * refusals that change nothing, the console command, a probe removed
 * while a call it hooked is still open, planting and removing while
 * other CPUs call the function (under -accel tcg,thread=multi by
 * test/boot_stages.py: the "probe" prefix), and the cost of a hit in
 * instructions (under -icount).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "config.h"
#include "ktest.h"
#include "kprintf.h"
#include "pmu.h"
#include "shell.h"
#include "tracecheck.h"
#include "tracers/retprobe.h"

#include "probe_check.h"

static const uint32_t rp_words[4] = { 0x11111111, 0x22222222, 0xdeadbeef, 0x44444444 };

/* Returns &rp_words[i], or NULL for i >= 4. */
PB const uint32_t *pb_ret_ptr(uint64_t i)
{
	return i < 4 ? &rp_words[i] : NULL;
}

/* Removes the return probe 'open' while its own call is open. */
PB uint64_t pb_ret_remover(uint64_t a)
{
	const char *why;

	if (retprobe_remove("open", &why))
		return 0;
	return a * 3;
}

static struct rec recs[CHECK_MAX];

static int rp_plant(const char *text, const char **why)
{
	struct probe_spec s;

	*why = "";
	if (probe_spec_parse(text, &s, why))
		return -100;
	return retprobe_plant(&s, why);
}

static bool rp_view(const char *name, struct probe_view *v)
{
	for (unsigned int i = 0; i < RETPROBE_MAX; i++)
		if (retprobe_get(i, v) && !strcmp(v->spec.name, name))
			return true;
	return false;
}

static uint64_t next_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	*p += wire_varint_get(*p, (size_t)(end - *p), &v);
	return v;
}

static unsigned int nrecs;

/* Reads (and so takes) cpu's records. */
static void rp_collect(unsigned int cpu)
{
	nrecs = check_collect(cpu, recs, CHECK_MAX);
}

/* The subtype 5 records of probe 'number' among those read: each one's
 * values into vals[i][k] (up to 'max' records of 'nf' fetches), its
 * faulted mask into masks[i]; returns how many. */
static unsigned int rp_records(uint32_t number, unsigned int nf,
			       int64_t (*vals)[4], uint8_t *masks, unsigned int max)
{
	unsigned int got = 0;

	for (unsigned int i = 0; i < nrecs; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE ||
		    next_varint(&p, end) != number)
			continue;
		if (got < max && *p == nf) {
			p++;
			masks[got] = *p++;
			for (unsigned int k = 0; k < nf && k < 4; k++)
				vals[got][k] = wire_unzigzag(next_varint(&p, end));
		}
		got++;
	}
	return got;
}

KTEST(probe_return_hits_are_exact_and_fetch_the_returned_value)
{
	int64_t vals[8][4];
	uint8_t masks[8];
	const char *why;
	struct probe_view v;
	unsigned int before = retprobe_count();

	check_reset();
	KT_EQ(t, rp_plant("rv=pb_mt%return,$retval:u64,low=$retval:s8,sp", &why), 0);
	KT_EXPECT(t, rp_view("rv", &v));
	KT_EQ(t, v.addr, (uintptr_t)pb_mt);
	KT_EQ(t, retprobe_count(), before + 1);
	KT_EQ(t, pb_mt(40, 2), 42);
	KT_EQ(t, pb_mt(100, (uint64_t)-101), (uint64_t)-1);
	KT_EQ(t, pb_mt(0x1ff, 0), 0x1ff);
	KT_EXPECT(t, rp_view("rv", &v));
	KT_EQ(t, v.hits, 3);
	KT_EQ(t, v.unrecorded, 0);
	KT_EQ(t, strcmp(v.spec.fetch[0].name, "retval"), 0);
	uint32_t number = v.number;

	KT_EQ(t, probe_remove("rv", &why), TRACE_EINVAL);	/* not an instruction probe */
	KT_EQ(t, retprobe_remove("rv", &why), 0);
	KT_EQ(t, pb_mt(1, 1), 2);			/* after removal: no record */
	KT_EXPECT(t, !rp_view("rv", &v));
	KT_EQ(t, retprobe_count(), before);
	rp_collect(smp_cpu_id());
	KT_EQ(t, rp_records(number, 3, vals, masks, 8), 3);
	/* What pb_mt computed, cut and extended by each type. */
	KT_EQ(t, vals[0][0], 42);
	KT_EQ(t, vals[0][1], 42);
	KT_EQ(t, vals[1][0], -1);		/* u64 0xffff...: zigzag of -1 */
	KT_EQ(t, vals[1][1], -1);
	KT_EQ(t, vals[2][0], 0x1ff);
	KT_EQ(t, vals[2][1], -1);		/* s8 of 0x1ff */
	KT_EQ(t, masks[0] | masks[1] | masks[2], 0);
	KT_EXPECT(t, vals[0][2] != 0 && vals[0][2] == vals[1][2]);	/* sp, as at the call */
}

KTEST(probe_return_memory_at_retval_and_a_fault_marked)
{
	int64_t vals[8][4];
	uint8_t masks[8];
	const char *why;
	struct probe_view v;

	check_reset();
	KT_EQ(t, rp_plant("rp=pb_ret_ptr%return,$retval,w=+0($retval):x32,+4($retval):u32", &why), 0);
	KT_EQ(t, (uintptr_t)pb_ret_ptr(2), (uintptr_t)&rp_words[2]);
	KT_EQ(t, (uintptr_t)pb_ret_ptr(0), (uintptr_t)&rp_words[0]);
	KT_EQ(t, (uintptr_t)pb_ret_ptr(9), 0);			/* +0(NULL): unreadable */
	KT_EXPECT(t, rp_view("rp", &v));
	KT_EQ(t, v.hits, 3);
	uint32_t number = v.number;

	KT_EQ(t, retprobe_remove("rp", &why), 0);
	rp_collect(smp_cpu_id());
	KT_EQ(t, rp_records(number, 3, vals, masks, 8), 3);
	KT_EQ(t, vals[0][0], (int64_t)(uintptr_t)&rp_words[2]);
	KT_EQ(t, vals[0][1], 0xdeadbeef);
	KT_EQ(t, vals[0][2], 0x44444444);
	KT_EQ(t, masks[0], 0);
	KT_EQ(t, vals[1][1], 0x11111111);
	KT_EQ(t, vals[1][2], 0x22222222);
	KT_EQ(t, vals[2][0], 0);
	KT_EQ(t, masks[2], 6);				/* both memory fetches unreadable */
	KT_EQ(t, vals[2][1], pbt_null_reason());	/* why NULL is unreadable */
	KT_EQ(t, vals[2][2], pbt_null_reason());
}

KTEST(probe_return_refusals_change_nothing)
{
	const char *why;
	unsigned int before = retprobe_count();

	KT_EQ(t, rp_plant("r=ring_reserve%return", &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "no patch site") != NULL);
	KT_EQ(t, rp_plant("r=no_such_function_q%return", &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "no function") != NULL);
	KT_EQ(t, rp_plant("r=pb_m*%return", &why), TRACE_EINVAL);
	KT_EQ(t, rp_plant("r=pb_mt%return,x1", &why), -100);
	KT_EXPECT(t, strstr(why, "$retval") != NULL);
	KT_EQ(t, rp_plant("r=pb_mt+8,$retval", &why), -100);
	KT_EXPECT(t, strstr(why, "return probes") != NULL);
	KT_EQ(t, rp_plant("r=pb_mt%retur", &why), -100);
	KT_EQ(t, rp_plant("r=pb_mt%return+8", &why), -100);
	KT_EQ(t, pbt_plant("r=pb_mt%return", &why), TRACE_EINVAL);	/* not by probe_plant */
	KT_EQ(t, rp_plant("d=pb_mt%return", &why), 0);
	KT_EQ(t, rp_plant("d=pb_add%return", &why), TRACE_EINVAL);	/* same name */
	KT_EXPECT(t, strstr(why, "name") != NULL);
	KT_EQ(t, retprobe_remove("d", &why), 0);
	KT_EQ(t, retprobe_remove("d", &why), TRACE_EINVAL);
	KT_EQ(t, retprobe_count(), before);
	KT_EQ(t, pb_mt(3, 4), 7);
}

KTEST(probe_return_console_adds_lists_and_removes)
{
	char line[SHELL_LINE_MAX];
	struct probe_view v;
	unsigned int before = retprobe_count();

	strcpy(line, "probe cr=pb_mt%return $retval:u32 sp");
	KT_EQ(t, shell_exec(line), 0);
	KT_EQ(t, pb_mt(2, 3), 5);
	KT_EXPECT(t, rp_view("cr", &v));
	KT_EQ(t, v.hits, 1);
	KT_EQ(t, v.spec.nfetch, 2);
	strcpy(line, "probe");
	KT_EQ(t, shell_exec(line), 0);		/* the list */
	strcpy(line, "probe cr=pb_add%return");	/* the name is taken */
	KT_EXPECT(t, shell_exec(line) != 0);
	strcpy(line, "probe bad=pb_mt%return x2");
	KT_EXPECT(t, shell_exec(line) != 0);
	strcpy(line, "probe bad=ring_reserve%return");
	KT_EXPECT(t, shell_exec(line) != 0);
	KT_EQ(t, retprobe_count(), before + 1);	/* nothing changed by those */
	strcpy(line, "probe -cr");
	KT_EQ(t, shell_exec(line), 0);
	KT_EQ(t, retprobe_count(), before);
	strcpy(line, "probe -cr");
	KT_EXPECT(t, shell_exec(line) != 0);
}

/* The probe goes while a call it hooked is open: that call returns where
 * it should with its value, records nothing, and the entry's next probe
 * counts only its own returns. */
KTEST(probe_return_removed_while_its_call_is_open)
{
	int64_t vals[8][4];
	uint8_t masks[8];
	const char *why;
	struct probe_view v;

	check_reset();
	KT_EQ(t, rp_plant("open=pb_ret_remover%return,$retval", &why), 0);
	KT_EXPECT(t, rp_view("open", &v));
	uint32_t number = v.number;

	KT_EQ(t, pb_ret_remover(5), 15);	/* removed inside, returns right */
	KT_EXPECT(t, !rp_view("open", &v));
	KT_EQ(t, rp_plant("again=pb_ret_remover%return,$retval", &why), 0);
	KT_EQ(t, pb_ret_remover(7), 0);		/* no 'open' to remove now */
	KT_EXPECT(t, rp_view("again", &v));
	KT_EQ(t, v.hits, 1);
	KT_EXPECT(t, v.number != number);
	uint32_t again = v.number;

	KT_EQ(t, retprobe_remove("again", &why), 0);
	rp_collect(smp_cpu_id());
	KT_EQ(t, rp_records(number, 1, vals, masks, 8), 0);
	KT_EQ(t, rp_records(again, 1, vals, masks, 8), 1);
	KT_EQ(t, vals[0][0], 0);
}

/* Every CPU calls pb_mt RMT_CALLS times with its own operands while one
 * return probe is planted: the hits are the calls, each CPU's records
 * are its results, in order. */
#define RMT_CALLS	200
#define RMT_ROUNDS	30

static volatile int rmt_go, rmt_stop;
static volatile uint64_t rmt_calls[NR_CPUS], rmt_wrong[NR_CPUS];
static int64_t rmt_vals[RMT_CALLS][4];
static uint8_t rmt_masks[RMT_CALLS];

static void rmt_calls_of(unsigned int cpu, unsigned int calls)
{
	for (uint64_t i = 1; i <= calls; i++) {
		if (pb_mt(i, cpu * 1000) != i + cpu * 1000)
			rmt_wrong[cpu] = rmt_wrong[cpu] + 1;
		rmt_calls[cpu] = rmt_calls[cpu] + 1;
	}
}

static void rmt_fixed(void *arg)
{
	while (!rmt_go)
		cpu_relax();
	rmt_calls_of((unsigned int)(uintptr_t)arg, RMT_CALLS);
}

static void rmt_until_stopped(void *arg)
{
	while (!rmt_go)
		cpu_relax();
	while (!READ_ONCE(rmt_stop))
		rmt_calls_of((unsigned int)(uintptr_t)arg, 1);
}

static uint64_t rmt_total(unsigned int ncpus)
{
	uint64_t n = 0;

	for (unsigned int c = 1; c < ncpus; c++)
		n += rmt_calls[c];
	return n;
}

static void rmt_start(unsigned int ncpus, void (*fn)(void *))
{
	rmt_go = 0, rmt_stop = 0;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		rmt_calls[c] = rmt_wrong[c] = 0;
	for (unsigned int c = 1; c < ncpus; c++)
		smp_start(c, fn, (void *)(uintptr_t)c);
	WRITE_ONCE(rmt_go, 1);
}

KTEST(probe_return_counts_every_cpus_returns)
{
	unsigned int ncpus = smp_num_cpus();
	struct probe_view v;
	const char *why;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	check_reset();
	KT_EQ(t, rp_plant("mtr=pb_mt%return,$retval", &why), 0);
	rmt_start(ncpus, rmt_fixed);
	rmt_calls_of(0, RMT_CALLS);
	for (unsigned int c = 1; c < ncpus; c++)
		smp_wait(c);
	KT_EXPECT(t, rp_view("mtr", &v));
	KT_EQ(t, v.hits, (uint64_t)ncpus * RMT_CALLS);
	KT_EQ(t, v.unrecorded, 0);
	KT_EQ(t, retprobe_remove("mtr", &why), 0);
	for (unsigned int c = 0; c < ncpus; c++) {
		unsigned int bad = 0;

		KT_EQ(t, rmt_wrong[c], 0);
		rp_collect(c);
		KT_EQ(t, rp_records(v.number, 1, rmt_vals, rmt_masks, RMT_CALLS), RMT_CALLS);
		for (unsigned int i = 0; i < RMT_CALLS; i++)
			bad += rmt_vals[i][0] != (int64_t)(i + 1 + c * 1000) || rmt_masks[i];
		KT_EQ(t, bad, 0);
	}
}

KTEST(probe_return_plant_and_remove_while_other_cpus_call)
{
	unsigned int ncpus = smp_num_cpus();
	uint64_t hits = 0, wrong = 0, rounds_hit = 0;
	struct probe_view v;
	const char *why;

	if (ncpus < 2)
		return ktest_skip(t, "needs 2 CPUs");
	rmt_start(ncpus, rmt_until_stopped);
	while (rmt_total(ncpus) < 100)
		cpu_relax();
	uint64_t start = rmt_total(ncpus);

	for (int round = 0; round < RMT_ROUNDS; round++) {
		KT_EQ(t, rp_plant("mtl=pb_mt%return,$retval", &why), 0);
		uint64_t then = rmt_total(ncpus);

		for (int i = 0; i < 5000 && rmt_total(ncpus) < then + 20; i++)
			time_delay_us(1000);	/* 5 s bounds a hang */
		KT_EXPECT(t, rp_view("mtl", &v));
		KT_EQ(t, retprobe_remove("mtl", &why), 0);
		hits += v.hits;
		rounds_hit += v.hits > 0;
	}
	uint64_t after = rmt_total(ncpus);

	while (rmt_total(ncpus) < after + 1000)	/* runs on, unhooked */
		cpu_relax();
	WRITE_ONCE(rmt_stop, 1);
	for (unsigned int c = 1; c < ncpus; c++) {
		smp_wait(c);
		wrong += rmt_wrong[c];
	}
	kprintf("# %d rounds, %llu calls, %llu return hits seen, %llu rounds with hits\n",
		RMT_ROUNDS, (unsigned long long)(rmt_total(ncpus) - start),
		(unsigned long long)hits, (unsigned long long)rounds_hit);
	KT_EQ(t, wrong, 0);		/* every call returned where and what it should */
	KT_EXPECT(t, hits <= rmt_total(ncpus) - start);
	KT_EXPECT(t, rounds_hit > 0);
	KT_EXPECT(t, !rp_view("mtl", &v));
}
