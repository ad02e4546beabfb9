/*
 * examples/demo/main.c: the default demo, a small sensor firmware.
 *
 * CPU 0 samples a synthetic temperature sensor on the timer tick,
 * filters it, drives a state machine and logs checksummed text records,
 * while every other CPU checksums and compresses data blocks. Then CPU 0
 * checks everything and prints a summary. Boot arguments: "verbose"
 * prints every record.
 *
 * Function prefixes, for trace filters (e.g. filter=pipeline_*):
 *   demo_ sensor_ spsc_ filter_ fsm_ csum_ fmt_ stage_ pipeline_
 *   block_ worker_ summary_
 * Deepest chain: main -> pipeline_run -> pipeline_step -> stage_filter
 *   -> filter_apply -> filter_median -> filter_sort_window.
 * Interrupt context: sensor_tick (every CPU, every tick) -> sensor_produce
 *   -> sensor_make_sample / spsc_push.
 */
#include <stdio.h>
#include <string.h>

#include "demo.h"

/* 48 samples at the default 100 Hz tick take about half a second. The
 * profile in sensor.c is laid out for this many. */
#define DEMO_SAMPLES 48

/* Returns 1 for "verbose"; unknown words are reported and ignored, so a
 * typo never stops the demo from running. argv[0] is the first word
 * after '--', not a program name (include/baretrace.h). */
DEMO_FN static int demo_parse_args(int argc, char **argv)
{
	int i, verbose = 0;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "verbose") == 0)
			verbose = 1;
		else
			printf("demo: ignoring argument '%s'\n", argv[i]);
	}
	return verbose;
}

DEMO_FN static void demo_banner(void)
{
	printf("demo: sensor pipeline, %u samples, %u cpus, tick %u Hz\n",
	       DEMO_SAMPLES, smp_num_cpus(), time_tick_hz());
}

int main(int argc, char **argv)
{
	static struct pipeline pipe;	/* off the 16 KiB stack */
	int verbose, bad = 0;

	demo_banner();
	verbose = demo_parse_args(argc, argv);
	csum_init();
	if (csum_selftest() < 0) {
		printf("demo: error: checksum self-test failed\n");
		return 1;
	}
	/* Secondaries start on their blocks now and run beside the pipeline. */
	worker_dispatch();
	pipeline_init(&pipe, DEMO_SAMPLES, verbose);
	if (pipeline_run(&pipe) < 0) {
		printf("demo: error: pipeline stopped at sample %u\n",
		       (unsigned int)pipe.done);
		bad = 1;
	}
	worker_collect();
	summary_print(&pipe);
	if (worker_verify() < 0)
		bad = 1;
	if (summary_check(&pipe))
		bad = 1;
	printf("demo: %s\n", bad ? "FAIL" : "PASS");
	return bad;
}
