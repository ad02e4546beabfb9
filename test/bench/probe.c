/*
 * test/bench/probe.c: what a probe hit costs (trace/core/probe.c). A
 * trivial function whose add sits at a known label is called BENCH_CALLS
 * times: without a probe, then with a probe on the add that fetches
 * nothing, two registers, and two registers and a word of memory. The
 * ring bench_record set up (64 KiB, overwrite) takes every record. The
 * difference per call is the hit: the BRK's exception, the handler, the
 * record, the ERET to the slot and its branch back. Then a return probe
 * on the same function (trace/tracers/retprobe.c), without a fetch and
 * with $retval: the site's call to the ops, the shadow stack's push, the
 * return through fgraph_return's C path, the record.
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>

#include "bench.h"
#include "core/probe.h"
#include "pmu.h"
#include "tracers/retprobe.h"

static volatile int sink;
static const uint64_t word = 0x1234;

int bench_probed(int x);
__attribute__((noipa)) int bench_probed(int x)
{
	register long x2 __asm__("x2") = x;
	register long x3 __asm__("x3") = 1;
	register const uint64_t *x5 __asm__("x5") = &word;
	register long x4 __asm__("x4");

	__asm__ volatile(".globl bench_probed_at\nbench_probed_at:\n\tadd x4, x2, x3"
			 : "=r"(x4) : "r"(x2), "r"(x3), "r"(x5));
	return (int)x4;
}
extern char bench_probed_at[];

/* Instructions per call with a probe of these fetches; < 0 if refused. */
static double with_probe(const char *fetches)
{
	char text[128];
	struct probe_spec s;
	const char *why;

	snprintf(text, sizeof(text), "bench=bench_probed+%lu%s%s",
		 (unsigned long)((uintptr_t)bench_probed_at - (uintptr_t)bench_probed),
		 *fetches ? "," : "", fetches);
	if (probe_spec_parse(text, &s, &why) || probe_plant(&s, &why, NULL)) {
		printf("bench: probe '%s' refused: %s\n", text, why);
		return -1;
	}
	double per_call = MEASURE(bench_probed);

	probe_remove("bench", &why);
	return per_call;
}

/* The same with a return probe of these fetches. */
static double with_return_probe(const char *fetches)
{
	char text[128];
	struct probe_spec s;
	const char *why;

	snprintf(text, sizeof(text), "benchr=bench_probed%%return%s%s",
		 *fetches ? "," : "", fetches);
	if (probe_spec_parse(text, &s, &why) || retprobe_plant(&s, &why)) {
		printf("bench: return probe '%s' refused: %s\n", text, why);
		return -1;
	}
	double per_call = MEASURE(bench_probed);

	retprobe_remove("benchr", &why);
	return per_call;
}

void bench_probes(void)
{
	double plain = MEASURE(bench_probed);
	double none = with_probe("");
	double two = with_probe("x2,x3:u32");
	double mem = with_probe("x2,x3:u32,+0(x5):u64");
	double ret = with_return_probe("");
	double retval = with_return_probe("$retval:s32");

	if (none < 0 || two < 0 || mem < 0 || ret < 0 || retval < 0)
		return;
	printf("\nprobe hit: %u calls of a trivial function\n"
	       "| probe | insns/call | per hit |\n|---|---:|---:|\n", BENCH_CALLS);
	printf("| none | %.2f | |\n", plain);
	printf("| no fetch | %.2f | %.2f |\n", none, none - plain);
	printf("| x2, x3 | %.2f | %.2f |\n", two, two - plain);
	printf("| x2, x3, +0(x5) | %.2f | %.2f |\n", mem, mem - plain);
	printf("| return, no fetch | %.2f | %.2f |\n", ret, ret - plain);
	printf("| return, $retval | %.2f | %.2f |\n", retval, retval - plain);
	printf("BENCH-JSON probe {\"calls\": %u, \"unprobed_insns_per_call\": %.2f, "
	       "\"hit_insns\": %.2f, \"hit_two_regs_insns\": %.2f, "
	       "\"hit_two_regs_one_word_insns\": %.2f, \"return_hit_insns\": %.2f, "
	       "\"return_hit_retval_insns\": %.2f}\n",
	       BENCH_CALLS, plain, none - plain, two - plain, mem - plain, ret - plain,
	       retval - plain);
}
