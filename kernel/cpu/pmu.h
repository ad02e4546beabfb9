/*
 * kernel/cpu/pmu.h: the PMU's instructions-retired counter (event 0x08) for
 * benchmarks. Under QEMU TCG it counts only with -icount (otherwise it
 * reads 0); on hardware it is exact as well.
 */
#ifndef KERNEL_PMU_H
#define KERNEL_PMU_H

#include <stdint.h>

#include "barrier.h"

#define PMU_EVENT_INST_RETIRED	0x08

/* Counter 0 counts instructions at EL1 (and EL0); the cycle counter
 * runs too. Call on each CPU that measures. */
static inline void pmu_init(void)
{
	write_sysreg(pmevtyper0_el0, PMU_EVENT_INST_RETIRED);
	write_sysreg(pmcntenset_el0, (1UL << 31) | 1);
	write_sysreg(pmcr_el0, read_sysreg(pmcr_el0) | 1);	/* E: enable */
	isb();
}

static inline uint64_t pmu_insns(void)
{
	isb();
	return read_sysreg(pmevcntr0_el0);
}

static inline uint64_t pmu_cycles(void)
{
	isb();
	return read_sysreg(pmccntr_el0);
}

#endif /* KERNEL_PMU_H */
