/*
 * test/target/scenarios_kern.c: crash scenarios of the kernel's own
 * protections, read from the console by test/run.py:
 *   overflow N   unbounded recursion on CPU N: "stack overflow on CPU N"
 *   crashprint   CPU 0 crashes while the others print without pause: the
 *                crash report must come out in one piece
 *   guardwrite N a store into CPU N's guard page: also a stack overflow
 *   serror       a virtual SError from the EL2 stub (boots at EL2 only)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <baretrace.h>

#include "barrier.h"
#include "config.h"
#include "target.h"

static volatile int recursion_stop;	/* never set: keeps GCC from proving the loop */

static unsigned long __attribute__((noinline)) recurse(unsigned long depth)
{
	volatile uint8_t pad[200];	/* a frame of some size, really stored */

	pad[depth % sizeof(pad)] = (uint8_t)depth;
	if (recursion_stop)
		return depth;
	return recurse(depth + 1) + pad[depth % sizeof(pad)];
}

static void recurse_here(void *arg)
{
	(void)arg;
	printf("overflow: recursing on CPU %u\n", smp_cpu_id());
	recurse(0);
	printf("overflow: survived\n");
}

int scenario_overflow(const char *cpu_arg)
{
	unsigned int cpu = (unsigned int)strtoul(cpu_arg, NULL, 0);

	if (cpu >= smp_num_cpus()) {
		printf("overflow: no CPU %u\n", cpu);
		return 2;
	}
	if (cpu == smp_cpu_id()) {
		recurse_here(NULL);
		return 1;
	}
	smp_start(cpu, recurse_here, NULL);
	smp_wait(cpu);
	printf("overflow: survived\n");
	return 1;
}

static void print_forever(void *arg)
{
	unsigned int cpu = smp_cpu_id();

	(void)arg;
	for (unsigned int i = 0;; i++)
		printf("cp cpu%u n%06u the quick brown fox jumps over the lazy dog\n", cpu, i);
}

int scenario_crashprint(void)
{
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		smp_start(c, print_forever, NULL);
	time_delay_us(200000);	/* let every CPU print a while */
	printf("crashprint: crashing on CPU %u\n", smp_cpu_id());
	*(volatile uint32_t *)0x1000;	/* unmapped: a data abort */
	printf("crashprint: survived\n");
	return 1;
}

int scenario_serror(void)
{
	register unsigned long x0 __asm__("x0") = 0;

	printf("serror: asking EL2 for a virtual SError\n");
	/* The stub clobbers x9, x10 (boot/head.S el2_vectors); without an
	 * EL2 of ours the HVC returns or is undefined. */
	__asm__ volatile("hvc %1" : "+r"(x0) : "i"(HVC_INJECT_VSERROR) : "x9", "x10", "memory");
	isb();
	printf("serror: survived (x0 %ld)\n", (long)x0);
	return 1;
}

/* A store into CPU n's guard page from CPU 0, whose own stack is fine. */
int scenario_guardwrite(const char *cpu_arg)
{
	unsigned int cpu = (unsigned int)strtoul(cpu_arg, NULL, 0);
	extern uint8_t cpu_stack_area[];

	if (cpu >= NR_CPUS) {
		printf("guardwrite: no CPU %u\n", cpu);
		return 2;
	}
	printf("guardwrite: storing below CPU %u's stack\n", cpu);
	*(volatile uint64_t *)&cpu_stack_area[cpu * STACK_SLOT_SIZE + 64] = 1;
	printf("guardwrite: survived\n");
	return 1;
}
