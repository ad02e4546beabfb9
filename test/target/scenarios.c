/*
 * test/target/scenarios.c: boot scenarios whose result is read from the
 * console by test/run.py (a crash report, interleaving of lines).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "barrier.h"
#include "target.h"

/* Unmapped on qemu-virt: below the first MMIO window. */
#define UNMAPPED_ADDR	0x1000UL

void __attribute__((noinline)) crash_null_deref(volatile uint32_t *p)
{
	printf("crash: loading from %p\n", (void *)p);
	*p;
}

void __attribute__((noinline)) crash_text_write(volatile uint32_t *p)
{
	printf("crash: storing into text at %p\n", (void *)p);
	*p = 0xd503201f;	/* NOP over whatever is there */
}

static void __attribute__((noinline)) crash_caller(const char *kind)
{
	if (!strcmp(kind, "null"))
		crash_null_deref((volatile uint32_t *)UNMAPPED_ADDR);
	else
		crash_text_write((volatile uint32_t *)(uintptr_t)&crash_caller);
}

int scenario_crash(const char *kind)
{
	if (strcmp(kind, "null") && strcmp(kind, "textwrite")) {
		printf("crash: unknown kind '%s' (null, textwrite)\n", kind);
		return 2;
	}
	crash_caller(kind);
	printf("crash: survived\n");
	return 1;
}

#define LINES_PER_CPU 200

static void print_lines(void *arg)
{
	unsigned int cpu = smp_cpu_id();

	(void)arg;
	for (int i = 0; i < LINES_PER_CPU; i++)
		printf("pl cpu%u n%03d abcdefghijklmnopqrstuvwxyz0123456789\n", cpu, i);
}

int scenario_printlines(void)
{
	unsigned int n = smp_num_cpus();

	for (unsigned int c = 1; c < n; c++)
		smp_start(c, print_lines, NULL);
	print_lines(NULL);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	printf("printlines: %u cpus x %d lines\n", n, LINES_PER_CPU);
	return 0;
}

/* A fixed call tree for the golden trace (test/golden/function.txt). */
int scenario_golden(void)
{
	int acc = 0;
	/* Interrupts masked: whether a timer tick lands inside the workload
	 * depends on how long boot took, which the golden files must not. */
	unsigned long flags = irq_save();

	/* This context's first FP/SIMD instruction traps once (kernel/cpu/
	 * exception.c, fp_first_use: about 330 instructions). Whether some
	 * earlier code took it depends on the build (newlib's memset picks
	 * SIMD stores by size), so take it here, before the traced calls,
	 * not in the printf at the end of the golden run. */
	__asm__ volatile("fmov d0, xzr" ::: "v0");
	for (int i = 0; i < 3; i++) {
		acc += tt_alpha(i);
		acc += tt_outer(i);
		acc += (int)tt_args(i, 2, 3);
	}
	acc += tt_beta(acc);
	trace_printf("golden: acc=%d, hex %#x, negative %d", acc, acc, -acc);
	irq_restore(flags);
	printf("golden: %d\n", acc);
	return 0;
}
