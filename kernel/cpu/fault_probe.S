/*
 * kernel/cpu/fault_probe.S: memory accesses that may fault (see fault.h).
 *
 * Contract (all of them):
 *   state: EL1, MMU on, TPIDR_EL1 = this CPU's struct percpu
 *   out:   w0 = 0 if the access completed, -1 if it faulted
 *   clobbers: x9, x10 (and what the probed function clobbers for exec)
 * The recovery point runs with SP as it was at the access: nothing is
 * pushed between arming and the access except in fault_probe_exec, whose
 * recovery point unwinds its own frame.
 */
#include "config.h"

	.macro	arm_recover label
	mrs	x9, tpidr_el1
	adr	x10, \label
	str	x10, [x9, #PERCPU_FAULT_RECOVER]   // percpu->fault_recover = label
	.endm

	.macro	disarm
	mrs	x9, tpidr_el1
	str	xzr, [x9, #PERCPU_FAULT_RECOVER]
	.endm

	.text
/* int fault_probe_read32(const void *addr, uint32_t *val) */
	.globl	fault_probe_read32
	.type	fault_probe_read32, %function
fault_probe_read32:
	arm_recover 1f
	ldr	w10, [x0]
	disarm
	str	w10, [x1]
	mov	w0, #0
	ret
1:	mov	w0, #-1
	ret
	.size	fault_probe_read32, . - fault_probe_read32

/* int fault_probe_write32(void *addr, uint32_t val) */
	.globl	fault_probe_write32
	.type	fault_probe_write32, %function
fault_probe_write32:
	arm_recover 1f
	str	w1, [x0]
	disarm
	mov	w0, #0
	ret
1:	mov	w0, #-1
	ret
	.size	fault_probe_write32, . - fault_probe_write32

/* int fault_probe_read(const void *addr, unsigned int size, uint64_t *val):
 * one access of size 1, 2, 4 or 8 bytes (any other size reads 8),
 * zero-extended into *val */
	.globl	fault_probe_read
	.type	fault_probe_read, %function
fault_probe_read:
	arm_recover 1f
	cmp	w1, #4
	b.eq	4f
	b.hi	8f
	cmp	w1, #2
	b.eq	2f
	ldrb	w10, [x0]
	b	9f
2:	ldrh	w10, [x0]
	b	9f
4:	ldr	w10, [x0]
	b	9f
8:	ldr	x10, [x0]
9:	disarm
	str	x10, [x2]
	mov	w0, #0
	ret
1:	mov	w0, #-1
	ret
	.size	fault_probe_read, . - fault_probe_read

/* int fault_probe_exec(const void *addr) */
	.globl	fault_probe_exec
	.type	fault_probe_exec, %function
fault_probe_exec:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	arm_recover 1f
	blr	x0
	disarm
	mov	w0, #0
	ldp	x29, x30, [sp], #16
	ret
1:	mov	sp, x29			// the probed code may have pushed
	mov	w0, #-1
	ldp	x29, x30, [sp], #16
	ret
	.size	fault_probe_exec, . - fault_probe_exec

/* long semihost_call(unsigned long op, void *arg): the Arm semihosting
 * trap (HLT #0xf000 in AArch64). Without a semihosting host the HLT is
 * UNDEFINED; the recovery point then returns -1. */
	.globl	semihost_call
	.type	semihost_call, %function
semihost_call:
	arm_recover 1f
	hlt	#0xf000			// x0 = op, x1 = arg; result in x0
	disarm
	ret
1:	mov	x0, #-1
	ret
	.size	semihost_call, . - semihost_call
