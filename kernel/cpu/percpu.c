/*
 * kernel/cpu/percpu.c: every CPU's struct percpu (percpu.h) and the count of
 * CPUs online. Kept with the CPU layer that reads them (exception entry,
 * faults, TLS); the SMP layer (kernel/smp/smp.c) fills them in as it starts
 * each CPU.
 */
#include <stdint.h>

#include "config.h"
#include "mmu.h"
#include "percpu.h"

/* CPU 0's stack fields are there before its first exception can be
 * taken (the vectors check SP against them); boot/head.S puts its SP at
 * boot_stack_top, the same STACK_TOP(0). */
struct percpu percpu_data[NR_CPUS] = {
	[0] = { .stack_top = STACK_TOP(0), .stack_limit = STACK_LIMIT(0),
		.emergency_top = EMERGENCY_TOP(0) },
};
/* Logical ids are dense: CPUs 0 .. nr_cpus_online - 1 are the ones that
 * came up, so every per-CPU array indexed below smp_num_cpus() is
 * complete. Only the boot CPU writes it, in smp_init. */
unsigned int nr_cpus_online = 1;
