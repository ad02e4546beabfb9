/*
 * test/target/test_probe.c: probes at instructions (trace/core/probe.c):
 * the displaced instruction read first and accepted by the decoder, exact
 * hit counts, fetched values equal to what the probed code held, the
 * code's own result unchanged, refusals that change nothing, the console
 * command, planting and removing while other CPUs run the instruction
 * (under -accel tcg,thread=multi by test/boot_stages.py), and the cost
 * of a hit in instructions (under -icount).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "config.h"
#include "control/control.h"
#include "core/core.h"
#include "core/probe.h"
#include "core/probe_insn.h"
#include "events/tracepoint.h"
#include "ktest.h"
#include "kprintf.h"
#include "percpu.h"
#include "pmu.h"
#include "shell.h"
#include "symbols.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/retprobe.h"

#include "probe_check.h"

/*
 * The probed instruction sits at a label inside each function, with its
 * operands in fixed registers, so the test knows the instruction and
 * what each register holds when it runs:
 *   pb_add_at:  add x4, x2, x3       (x5 points at a word)
 */
PB uint64_t pb_add(uint64_t a, uint64_t b, const uint32_t *p)
{
	register uint64_t x2 __asm__("x2") = a;
	register uint64_t x3 __asm__("x3") = b;
	register const uint32_t *x5 __asm__("x5") = p;
	register uint64_t x4 __asm__("x4");

	__asm__ volatile(".globl pb_add_at\npb_add_at:\n\tadd x4, x2, x3"
			 : "=r"(x4) : "r"(x2), "r"(x3), "r"(x5));
	return x4;
}

/* Instructions a probe must refuse, each at a label. */
PB uint64_t pb_refused(uint64_t a)
{
	register uint64_t x6 __asm__("x6") = a;

	__asm__ volatile(".globl pb_adrp_at\npb_adrp_at:\n\tadrp x6, pb_refused\n"
			 ".globl pb_b_at\npb_b_at:\n\tb 1f\n1:\n"
			 : "+r"(x6));
	return x6;
}

/* The same computation for the other CPUs and for the cost. */
PB uint64_t pb_mt(uint64_t a, uint64_t b)
{
	register uint64_t x2 __asm__("x2") = a;
	register uint64_t x3 __asm__("x3") = b;
	register uint64_t x4 __asm__("x4");

	__asm__ volatile(".globl pb_mt_at\npb_mt_at:\n\tadd x4, x2, x3"
			 : "=r"(x4) : "r"(x2), "r"(x3));
	return x4;
}


static struct rec recs[CHECK_MAX];

uint32_t pbt_insn_at(const void *a)
{
	return *(const volatile uint32_t *)a;
}

/* "NAME=SYMBOL+OFF,..." for the label 'at' inside 'func'. */
void pbt_spec(char *buf, size_t size, const char *name, const char *func,
		      uintptr_t fn, const void *at, const char *fetches)
{
	ksnprintf(buf, size, "%s=%s+%lu%s%s", name, func,
		  (unsigned long)((uintptr_t)at - fn), *fetches ? "," : "", fetches);
}

int pbt_plant(const char *text, const char **why)
{
	struct probe_spec s;

	*why = "";
	if (probe_spec_parse(text, &s, why))
		return -100;
	return probe_plant(&s, why, NULL);
}

bool pbt_view(const char *name, struct probe_view *v)
{
	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if (probe_get(i, v) && !strcmp(v->spec.name, name))
			return true;
	for (unsigned int i = 0; i < RETPROBE_MAX; i++)
		if (retprobe_get(i, v) && !strcmp(v->spec.name, name))
			return true;
	return false;
}

/* The next value of a subtype 5 record's payload. */
static uint64_t next_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	*p += wire_varint_get(*p, (size_t)(end - *p), &v);
	return v;
}

KTEST(probe_hits_are_exact_and_fetch_what_the_code_held)
{
	static const uint32_t words[4] = { 0x11111111, 0x22222222, 0xdeadbeef, 0x44444444 };
	char text[160];
	const char *why;
	struct probe_view v;

	/* The instruction first: what the label says, and movable. */
	KT_EQ(t, pbt_insn_at(pb_add_at), INSN_ADD_X4_X2_X3);
	KT_EXPECT(t, probe_insn_refusal(pbt_insn_at(pb_add_at)) == NULL);
	check_reset();
	pbt_spec(text, sizeof(text), "pb1", "pb_add", (uintptr_t)pb_add, pb_add_at,
		  "a=x2:u64,b=x3:s32,+8(x5):x32,pc");
	KT_EQ(t, pbt_plant(text, &why), 0);
	if (*why)
		kprintf("# %s\n", why);
	KT_EQ(t, pbt_insn_at(pb_add_at), INSN_BRK(PROBE_BRK_IMM));
	KT_EQ(t, pb_add(40, 2, words), 42);	/* the add ran out of line */
	KT_EQ(t, pb_add(7, (uint64_t)-9, words), (uint64_t)-2);
	KT_EQ(t, pb_add(1ULL << 40, 5, words), (1ULL << 40) + 5);
	KT_EXPECT(t, pbt_view("pb1", &v));
	KT_EQ(t, v.hits, 3);
	KT_EQ(t, v.unrecorded, 0);
	KT_EQ(t, v.insn, INSN_ADD_X4_X2_X3);
	uint32_t number = v.number;

	KT_EXPECT(t, number > 0);
	KT_EQ(t, probe_remove("pb1", &why), 0);
	KT_EQ(t, pbt_insn_at(pb_add_at), INSN_ADD_X4_X2_X3);
	KT_EQ(t, pb_add(1, 1, words), 2);	/* after removal: no record */
	KT_EXPECT(t, !pbt_view("pb1", &v));

	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), seen = 0, all = 0;
	static const int64_t want[3][4] = {
		{ 40, 2, 0xdeadbeef, 0 }, { 7, -9, 0xdeadbeef, 0 },
		{ 1LL << 40, 5, 0xdeadbeef, 0 },
	};

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE || all++ >= 3)
			continue;
		KT_EQ(t, next_varint(&p, end), number);	/* the probe's number */
		KT_EQ(t, *p++, 4);			/* fetches */
		KT_EQ(t, *p++, 0);			/* none faulted */
		for (int k = 0; k < 4; k++) {
			int64_t got = wire_unzigzag(next_varint(&p, end));

			KT_EQ(t, got, k == 3 ? (int64_t)(uintptr_t)pb_add_at : want[seen][k]);
		}
		seen++;
	}
	KT_EQ(t, seen, 3);
	KT_EQ(t, all, 3);	/* one per hit, none after the removal */
}

KTEST(probe_refusals_change_nothing)
{
	char text[160];
	const char *why;
	unsigned int before = probe_count();
	uint32_t adrp = pbt_insn_at(pb_adrp_at), b = pbt_insn_at(pb_b_at);

	KT_EXPECT(t, probe_insn_refusal(adrp) != NULL);
	pbt_spec(text, sizeof(text), "bad", "pb_refused", (uintptr_t)pb_refused, pb_adrp_at, "");
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "ADRP") != NULL);
	KT_EQ(t, pbt_insn_at(pb_adrp_at), adrp);
	pbt_spec(text, sizeof(text), "bad", "pb_refused", (uintptr_t)pb_refused, pb_b_at, "");
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "branch") != NULL);
	KT_EQ(t, pbt_insn_at(pb_b_at), b);
	KT_EQ(t, pbt_plant("bad=pb_add+4", &why), TRACE_EINVAL);	/* the patch site */
	KT_EXPECT(t, strstr(why, "patch site") != NULL);
	KT_EQ(t, pbt_plant("bad=pb_add+0x100000", &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "past") != NULL);
	KT_EQ(t, pbt_plant("bad=no_such_function_q+8", &why), TRACE_EINVAL);
	KT_EQ(t, pbt_plant("bad=ring_reserve+8", &why), TRACE_EINVAL);	/* no patch site */
	KT_EXPECT(t, strstr(why, "no patch site") != NULL);
	KT_EQ(t, pbt_plant("bad=pb_add+8,x31", &why), -100);
	KT_EQ(t, probe_count(), before);
	pb_refused(3);		/* runs as compiled */
}

KTEST(probe_names_are_unique_and_removal_needs_a_name)
{
	char text[160];
	const char *why;

	pbt_spec(text, sizeof(text), "dup", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2");
	KT_EQ(t, pbt_plant(text, &why), 0);
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);	/* same name */
	KT_EXPECT(t, strstr(why, "name") != NULL);
	pbt_spec(text, sizeof(text), "dup2", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2");
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);	/* same place */
	KT_EXPECT(t, strstr(why, "already") != NULL);
	KT_EQ(t, probe_remove("nosuch", &why), TRACE_EINVAL);
	KT_EQ(t, probe_remove("dup", &why), 0);
	KT_EQ(t, probe_remove("dup", &why), TRACE_EINVAL);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
}

KTEST(probe_console_command_adds_lists_and_removes)
{
	char line[SHELL_LINE_MAX];
	struct probe_view v;
	unsigned int before = probe_count();

	ksnprintf(line, sizeof(line), "probe cp=pb_mt+%lu x2:u32 sum=x4",
		  (unsigned long)((uintptr_t)pb_mt_at - (uintptr_t)pb_mt));
	KT_EQ(t, shell_exec(line), 0);
	KT_EQ(t, pb_mt(2, 3), 5);
	KT_EXPECT(t, pbt_view("cp", &v));
	KT_EQ(t, v.hits, 1);
	KT_EQ(t, v.spec.nfetch, 2);
	strcpy(line, "probe");
	KT_EQ(t, shell_exec(line), 0);		/* the list */
	strcpy(line, "probe bad=pb_mt+8 x2:u7");
	KT_EXPECT(t, shell_exec(line) != 0);
	strcpy(line, "probe -cp extra");
	KT_EXPECT(t, shell_exec(line) != 0);
	KT_EQ(t, probe_count(), before + 1);	/* nothing changed by either */
	strcpy(line, "probe -cp");
	KT_EQ(t, shell_exec(line), 0);
	KT_EQ(t, probe_count(), before);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
}

/* A memory fetch through a bad pointer: the read faults inside the
 * handler, the record says so (its bit set, value 0: a fault), the probed code
 * runs on as if nothing happened. */
KTEST(probe_memory_fetch_that_faults_is_marked)
{
	static const uint32_t words[4] = { 7, 8, 9, 10 };
	char text[160];
	const char *why;

	check_reset();
	pbt_spec(text, sizeof(text), "bad_ptr", "pb_add", (uintptr_t)pb_add, pb_add_at,
		 "+0(x2):u64,+4(x5):u32");
	KT_EQ(t, pbt_plant(text, &why), 0);
	/* x2: the guard page below this CPU's stack, in RAM but unmapped
	 * (an address outside RAM is not read at all: test_probe_fetch.c) */
	uintptr_t guard = SLOT(smp_cpu_id());

	KT_EQ(t, pb_add(guard, 1, words), guard + 1);
	KT_EQ(t, probe_remove("bad_ptr", &why), 0);

	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), seen = 0;

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE)
			continue;
		next_varint(&p, end);
		KT_EQ(t, *p++, 2);
		KT_EQ(t, *p++, 1);	/* the first fetch faulted */
		KT_EQ(t, wire_unzigzag(next_varint(&p, end)), 0);
		KT_EQ(t, wire_unzigzag(next_varint(&p, end)), 8);
		seen++;
	}
	KT_EQ(t, seen, 1);
}

/* A probe in a function a tracer traces: both see every call, the
 * site's words stay the tracer's, the probe's word the probe's. */
static uint64_t traced_calls;

static void count_call(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		       struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	__atomic_fetch_add(&traced_calls, 1, __ATOMIC_RELAXED);
}

static struct trace_ops call_counter = { .func = count_call, .flags = TRACE_OPS_NO_FPSIMD };

KTEST(probe_and_tracer_share_a_function)
{
	char text[160];
	const char *why;
	struct probe_view v;

	traced_calls = 0;
	KT_EQ(t, trace_ops_set_filter(&call_counter, "pb_mt"), 0);
	KT_EQ(t, trace_ops_register(&call_counter), 0);
	pbt_spec(text, sizeof(text), "shared", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2");
	KT_EQ(t, pbt_plant(text, &why), 0);
	for (uint64_t i = 0; i < 10; i++)
		KT_EQ(t, pb_mt(i, 100), i + 100);
	KT_EXPECT(t, pbt_view("shared", &v));
	KT_EQ(t, v.hits, 10);
	KT_EQ(t, traced_calls, 10);
	KT_EQ(t, trace_ops_unregister(&call_counter), 0);	/* the site goes, the probe stays */
	pb_mt(1, 2);
	KT_EXPECT(t, pbt_view("shared", &v));
	KT_EQ(t, v.hits, 11);
	KT_EQ(t, traced_calls, 10);
	KT_EQ(t, probe_remove("shared", &why), 0);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
	if (!trace_covering())	/* else coverage may still want the site */
		KT_EQ(t, pbt_insn_at((const void *)((uintptr_t)pb_mt + 4)), INSN_NOP);
	trace_ops_release(&call_counter);
}

TP_DECLARE(test, hit);	/* test_tracepoints.c: its NOP sits in tp_fire */

KTEST(probe_console_refuses_a_tracepoint_word)
{
	uintptr_t nop = tp_first_site(&tp_ev_test_hit, false), off, size;
	const char *fn = nop ? sym_lookup(nop, &off, &size) : NULL;
	char line[SHELL_LINE_MAX];
	unsigned int before = probe_count();

	if (!fn || sym_address(fn) != nop - off || off < 8)
		return ktest_skip(t, "the test tracepoint's NOP is not where a probe could go");
	KT_EQ(t, pbt_insn_at((const void *)nop), INSN_NOP);
	KT_EXPECT(t, probe_insn_refusal(INSN_NOP) == NULL);	/* only the table refuses it */
	ksnprintf(line, sizeof(line), "probe tpw=%s+%lu", fn, (unsigned long)off);
	KT_EXPECT(t, shell_exec(line) != 0);
	KT_EQ(t, probe_count(), before);
	KT_EQ(t, pbt_insn_at((const void *)nop), INSN_NOP);
}
