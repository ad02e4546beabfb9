/*
 * examples/mbedtls/main.c: runs mbed TLS's self-test program
 * (programs/test/selftest.c, built unchanged through selftest_main.c) as
 * a baretrace app. Its argv is "selftest" followed by the boot arguments
 * after '--', so those are selftest's own options and test names
 * ("-x rsa ecp" runs every test but rsa and ecp; "aes sha256" only those).
 *
 * selftest ends with exit(): its status (0 when every test passed)
 * becomes the run's exit status. An atexit() handler registered first
 * prints how long the tests took on the generic counter.
 *
 * "-- bench [TESTS]" and "-- bench-held [TESTS]" are make bench's
 * (tools/bench_mbedtls.py), under -icount: the handler also prints the
 * instructions the self-test took and those of sending what the trace
 * rings still hold (export_flush), from the PMU's instruction counter,
 * which QEMU counts for all CPUs together. bench-held keeps the idle
 * CPUs from exporting during the self-test, so its figure is the traced
 * CPU's own work and the flush is all of the export.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <baretrace.h>

/* Bench mode only: the kernel's exporter (trace/output/export.h). */
bool export_idle_enable(bool on);
void export_flush(void);

#define MBEDTLS_ARGS_MAX 32

int mbedtls_selftest_main(int argc, char *argv[]);

static uint64_t app_t0;
static uint32_t bench_insns0;
static bool bench_on, bench_held;

/* PMU event counter 0, which the kernel set to count instructions
 * retired (event 0x08) on every CPU at boot; 32 bits wide. */
static uint32_t bench_insns(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, pmevcntr0_el0" : "=r"(v) : : "memory");
	return (uint32_t)v;
}

static void bench_report(void)
{
	uint32_t t1 = bench_insns();

	if (bench_held)
		export_idle_enable(true);
	export_flush();
	uint32_t t2 = bench_insns();

	printf("mbedtls-bench: %s selftest_insns=%lu flush_insns=%lu\n",
	       bench_held ? "held" : "live", (unsigned long)(uint32_t)(t1 - bench_insns0),
	       (unsigned long)(uint32_t)(t2 - t1));
}

static void app_report_time(void)
{
	uint64_t ticks = time_counter() - app_t0;
	uint64_t hz = time_counter_hz();

	printf("mbedtls: self-test took %llu counter ticks (%llu us at %llu Hz)\n",
	       (unsigned long long)ticks,
	       (unsigned long long)(ticks * 1000000 / hz), (unsigned long long)hz);
}

int main(int argc, char **argv)
{
	static char *args[MBEDTLS_ARGS_MAX + 2];
	int i;

	if (argc > MBEDTLS_ARGS_MAX) {
		printf("mbedtls: error: more than %d arguments\n", MBEDTLS_ARGS_MAX);
		return 2;
	}
	if (argc > 0 && (!strcmp(argv[0], "bench") || !strcmp(argv[0], "bench-held"))) {
		bench_on = true;
		bench_held = !strcmp(argv[0], "bench-held");
		argc--;
		argv++;
	}
	args[0] = "selftest";
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	if (atexit(app_report_time) != 0) {
		printf("mbedtls: error: atexit failed\n");
		return 2;
	}
	if (bench_on && atexit(bench_report) != 0) {
		printf("mbedtls: error: atexit failed\n");
		return 2;
	}
	if (bench_held)
		export_idle_enable(false);
	app_t0 = time_counter();
	bench_insns0 = bench_insns();
	return mbedtls_selftest_main(argc + 1, args);
}
