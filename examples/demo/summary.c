/*
 * examples/demo/summary.c: the printed summary and the self-check.
 *
 * Numbers that depend on timing (which samples the tick delivered, ticks
 * per CPU) are labelled "timing:"; everything else is the same on every
 * run, so a trace of a good run can be compared with any other.
 */
#include <stdio.h>

#include "demo.h"

/* Known-good values of this exact data set. A change to the profile,
 * the filters, the record format or the block generator changes them;
 * run once with the new code and update these by hand. */
#define SUMMARY_EXPECT_RECORDS_CRC32 0x84e7d06du
#define SUMMARY_EXPECT_BLOCKS_CRC32  0xae39889au
#define SUMMARY_EXPECT_ALARMS	     1
#define SUMMARY_ALL_STATES	     ((1u << FSM_NSTATES) - 1)

DEMO_FN static void summary_print_fsm(const struct pipeline *p)
{
	const struct fsm *m = &p->fsm;
	char mean[16] = "-";
	unsigned int s;

	if (m->measure_count)
		fmt_fixed(mean, sizeof(mean),
			  (milli_c)(m->measure_sum / m->measure_count));
	printf("demo: fsm final=%s alarms=%u transitions=%u visited=",
	       fsm_state_name(m->state), (unsigned int)m->alarms,
	       (unsigned int)m->transitions);
	for (s = 0; s < FSM_NSTATES; s++)
		if (m->visited & (1u << s))
			printf("%s%s", s ? "," : "", fsm_state_name(s));
	printf(" mean(measuring)=%s\n", mean);
}

DEMO_FN static void summary_print_workers(void)
{
	unsigned int cpu, batches, n = smp_num_cpus();
	unsigned long raw = 0, rle = 0;

	for (cpu = 0; cpu < n && cpu < SENSOR_MAX_CPUS; cpu++) {
		uint32_t d = worker_cpu_digest(cpu, &batches);

		printf("demo: cpu%u batches=%u digest=%08lx\n", cpu, batches,
		       (unsigned long)d);
	}
	for (cpu = 0; cpu < WORKER_BATCHES; cpu++) {
		raw += worker_result(cpu)->raw_len;
		rle += worker_result(cpu)->rle_len;
	}
	printf("demo: blocks=%u rle %lu -> %lu bytes, crc32=%08lx\n",
	       WORKER_BATCHES, raw, rle,
	       (unsigned long)worker_total_digest());
}

DEMO_FN void summary_print(const struct pipeline *p)
{
	struct sensor_stats st;
	char lo[16], hi[16];
	unsigned int cpu;

	sensor_get_stats(&st);
	printf("demo: samples=%u (timing: irq=%u fallback=%u overruns=%u "
	       "ring-peak=%u)\n", (unsigned int)p->done,
	       (unsigned int)st.from_irq, (unsigned int)st.from_thread,
	       (unsigned int)st.overruns, (unsigned int)p->ring_peak);
	printf("demo: timing: ticks per cpu:");
	for (cpu = 0; cpu < smp_num_cpus() && cpu < SENSOR_MAX_CPUS; cpu++)
		printf(" %lu", (unsigned long)st.ticks[cpu]);
	printf("\n");
	fmt_fixed(lo, sizeof(lo), p->min);
	fmt_fixed(hi, sizeof(hi), p->max);
	printf("demo: filtered min=%s max=%s\n", lo, hi);
	summary_print_fsm(p);
	printf("demo: records crc32=%08lx crc16-xor=%04x last \"%s\"\n",
	       (unsigned long)p->records_crc32,
	       (unsigned int)p->records_crc16_xor, p->last_record);
	summary_print_workers();
}

/* Returns 0 if the run produced the known results, else prints why and
 * returns 1. The workers' numbers are checked separately, by
 * worker_verify() redoing their work on CPU 0. */
DEMO_FN int summary_check(const struct pipeline *p)
{
	const struct fsm *m = &p->fsm;
	int bad = 0;

	if (p->done != p->want) {
		printf("demo: error: %u of %u samples processed\n",
		       (unsigned int)p->done, (unsigned int)p->want);
		bad = 1;
	}
	if (m->state != FSM_IDLE || m->alarms != SUMMARY_EXPECT_ALARMS ||
	    m->visited != SUMMARY_ALL_STATES) {
		printf("demo: error: fsm ended %s with %u alarms, visited "
		       "%#x; want idle, %u, %#x\n", fsm_state_name(m->state),
		       (unsigned int)m->alarms, (unsigned int)m->visited,
		       SUMMARY_EXPECT_ALARMS, SUMMARY_ALL_STATES);
		bad = 1;
	}
	if (p->records_crc32 != SUMMARY_EXPECT_RECORDS_CRC32) {
		printf("demo: error: records crc32 %08lx, want %08lx\n",
		       (unsigned long)p->records_crc32,
		       (unsigned long)SUMMARY_EXPECT_RECORDS_CRC32);
		bad = 1;
	}
	if (worker_total_digest() != SUMMARY_EXPECT_BLOCKS_CRC32) {
		printf("demo: error: blocks crc32 %08lx, want %08lx\n",
		       (unsigned long)worker_total_digest(),
		       (unsigned long)SUMMARY_EXPECT_BLOCKS_CRC32);
		bad = 1;
	}
	return bad;
}
