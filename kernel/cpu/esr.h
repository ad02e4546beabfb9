/* kernel/cpu/esr.h: decoding ESR_EL1. */
#ifndef KERNEL_ESR_H
#define KERNEL_ESR_H

#include <stdbool.h>
#include <stdint.h>

#define ESR_EC(esr)		(((esr) >> 26) & 0x3f)
#define ESR_EC_FP_TRAP		0x07	/* FP/SIMD access trapped by CPACR_EL1.FPEN */
#define ESR_EC_IABT		0x21
#define ESR_EC_DABT		0x25
#define ESR_EC_SERROR		0x2f
#define ESR_EC_SSTEP_CUR	0x33	/* software step, taken from the current EL */
#define ESR_EC_BRK		0x3c	/* BRK instruction, AArch64; ISS[15:0] = its immediate */
#define ESR_WNR			(1UL << 6)	/* data abort on a write */

static inline bool esr_is_abort(uint64_t esr)
{
	return ESR_EC(esr) == ESR_EC_IABT || ESR_EC(esr) == ESR_EC_DABT;
}

const char *esr_class_name(uint64_t esr);
const char *esr_fault_name(uint64_t esr);	/* for aborts only */
/* An SError's syndrome in words into buf, e.g. "asynchronous SError
 * interrupt, uncontainable (AET UC)". */
void esr_serror_describe(uint64_t esr, char *buf, unsigned long size);

#endif /* KERNEL_ESR_H */
