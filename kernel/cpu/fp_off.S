/*
 * kernel/cpu/fp_off.S: running a function as code that never used
 * FP/SIMD, whatever the caller holds (the bench and the tests of the
 * lazy FP/SIMD save in kernel/cpu/entry.S use it).
 *
 * Contract (cpu_call_fp_off):
 *   in:    x0 = fn, x1 = arg: long fn(void *arg)
 *   state: EL1, MMU on, any DAIF
 *   does:  when FP/SIMD is on (CPACR_EL1.FPEN bit 20), keeps d8-d15,
 *          FPCR and FPSR (what a caller may hold across a call, and the
 *          flags) on the stack; turns FP/SIMD off (with an ISB: fn's
 *          first FP/SIMD instruction traps); calls fn(arg); puts
 *          CPACR_EL1 back (ISB) and the kept registers
 *   out:   x0 = what fn returned; clobbers what a C call may
 */
#include "exception.h"

#define FPO_SIZE	112	/* {x29, x30}, cpacr, {fpcr, fpsr}, pad, d8-d15 */

	.text
	.globl	cpu_call_fp_off
	.type	cpu_call_fp_off, %function
cpu_call_fp_off:
	stp	x29, x30, [sp, #-FPO_SIZE]!
	mov	x29, sp
	mrs	x9, cpacr_el1
	str	x9, [sp, #16]
	tbz	x9, #CPACR_FPEN_EL1_BIT, 1f	// off already: nothing to keep
	mrs	x10, fpcr
	mrs	x11, fpsr
	stp	x10, x11, [sp, #24]
	stp	d8, d9, [sp, #48]
	stp	d10, d11, [sp, #64]
	stp	d12, d13, [sp, #80]
	stp	d14, d15, [sp, #96]
	bic	x9, x9, #CPACR_FPEN
	msr	cpacr_el1, x9
	isb					// fn's FP/SIMD instructions trap
1:	mov	x9, x0
	mov	x0, x1
	blr	x9				// fn(arg)
	ldr	x9, [sp, #16]
	msr	cpacr_el1, x9			// what the caller had
	isb					// before the loads below, and for
						// the caller's next FP instruction
	tbz	x9, #CPACR_FPEN_EL1_BIT, 2f
	ldp	d8, d9, [sp, #48]
	ldp	d10, d11, [sp, #64]
	ldp	d12, d13, [sp, #80]
	ldp	d14, d15, [sp, #96]
	ldp	x10, x11, [sp, #24]
	msr	fpcr, x10
	msr	fpsr, x11
2:	ldp	x29, x30, [sp], #FPO_SIZE
	ret
	.size	cpu_call_fp_off, . - cpu_call_fp_off
