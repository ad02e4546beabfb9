/*
 * kernel/cpu/entry.S: the EL1 vector table and the common save/restore path.
 *
 * Contract (every vector):
 *   state: EL1, SP_EL1 is a valid kernel stack with FRAME_SIZE bytes free,
 *          MMU on (or off during early boot, when only faults can happen)
 *   does:  saves x0-x30, the interrupted SP, ELR, SPSR, ESR, FAR,
 *          CPACR_EL1 and (when FP/SIMD was on) q0-q31, FPCR and FPSR in
 *          a struct exc_frame on the stack, links
 *          a frame record {interrupted x29, ELR} into x29 so a
 *          backtrace walks from the handler into the interrupted code,
 *          calls exception_dispatch(frame, kind), then restores everything from
 *          the frame (a handler may change ELR and registers, e.g. for a
 *          fault fixup) and returns with ERET.
 *   FP/SIMD state is saved lazily: only when CPACR_EL1.FPEN let the
 *   interrupted code use FP/SIMD (bit 20 set) is it in the frame. The
 *   kernel is built -mgeneral-regs-only, so a context has FP/SIMD on
 *   only once its own first FP/SIMD instruction trapped (ESR EC 0x07)
 *   and exception_dispatch granted it (kernel/cpu/exception.c: zeroed
 *   q0-q31, FPCR and FPSR, FPEN set in the frame); exception_init_cpu
 *   turns FPEN off on every CPU once these vectors are in place.
 *   Application handlers run from here (irq_register, time_tick_hook,
 *   smp_call) and may use floating point (ARCHITECTURE.md 7a: the
 *   interrupted code keeps every register):
 *     FP on at entry:  q0-q31, FPCR, FPSR saved, FPCR reset (round to
 *                      nearest, no traps, no flush to zero: a handler
 *                      computes the same whatever it interrupted; and
 *                      again between two handlers of one exception,
 *                      kernel/cpu/irq.c irq_handler_next), FP
 *                      stays on for the handler; restored on the way
 *                      out (CPACR is on again by then: nested
 *                      exceptions put back what they found).
 *     FP off at entry: nothing saved, FP stays off; a handler's first
 *                      FP instruction traps and is granted FP as above,
 *                      and the way out writes CPACR back to off, so the
 *                      interrupted code still has none (ERET is the
 *                      context synchronization event that makes a
 *                      CPACR_EL1 write take effect, Arm ARM DDI 0487).
 *   The off path costs 6 instructions (mrs, str, tbz; ldr, msr, tbz),
 *   the on path the 39 of the save and restore on top (make bench,
 *   test/bench/fp.c, which assembles this file again with
 *   ENTRY_NO_FP_SAVE, no FP/SIMD handling at all, to compare). The
 *   frame is 848 bytes of the 16 KiB stack.
 *   Exceptions from EL0 or while on SP_EL0 are never expected; they take
 *   the same path and crash with their kind named.
 */
#include "config.h"
#include "exception.h"

/* Stack check first: an SP below percpu->stack_limit (stack base +
 * EXC_ENTRY_RESERVE) or above stack_top has no room for a frame (e.g. a
 * stack overflow into its guard page), so such an exception goes to
 * exc_overflow (kernel/cpu/entry_overflow.S), which reports it from the
 * emergency stack. SP_EL0 holds x0 meanwhile: it is the one register the
 * check can use before anything is saved (there is no spare EL1 one;
 * TPIDR_EL1 is the per-CPU pointer the check reads), so SP_EL0 is the
 * kernel's at EL1h and an application must not keep a value in it
 * (docs/applications.md, "Registers and resources an application may use"). On the
 * overflow path x1 goes straight into the emergency frame, so the EL0
 * thread registers (TPIDR_EL0, TPIDRRO_EL0) stay the application's even
 * there. Costs 10 instructions (2 loads) per exception. */
	.macro	vector kind
	.balign	0x80
	msr	sp_el0, x0			// park x0
	mrs	x0, tpidr_el1
	ldr	x0, [x0, #PERCPU_STACK_LIMIT]
	cmp	sp, x0
	b.lo	9f				// sp < stack_limit
	mrs	x0, tpidr_el1
	ldr	x0, [x0, #PERCPU_STACK_TOP]
	cmp	sp, x0
	b.hi	9f				// sp > stack_top
	mrs	x0, sp_el0
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp, #FRAME_X(0)]
	mov	x1, #\kind
	b	exc_common
9:	mrs	x0, tpidr_el1
	ldr	x0, [x0, #PERCPU_EMERGENCY_TOP]
	sub	x0, x0, #FRAME_SIZE		// the frame at the emergency stack's top
	str	x1, [x0, #FRAME_X(1)]		// park x1 in it
	mov	x1, #\kind
	b	exc_overflow
	.endm

	.text
	.balign	2048
	.globl	exception_vectors
exception_vectors:
	vector	0		// current EL, SP_EL0: sync, irq, fiq, serror
	vector	1
	vector	2
	vector	3
	vector	VEC_SPX_SYNC	// current EL, SP_ELx
	vector	VEC_SPX_IRQ
	vector	VEC_SPX_FIQ
	vector	VEC_SPX_SERROR
	vector	8		// lower EL, AArch64
	vector	9
	vector	10
	vector	11
	vector	12		// lower EL, AArch32
	vector	13
	vector	14
	vector	15

/* in: sp = frame with x0/x1 saved, x1 = kind.  Never returns (ERETs). */
	.type	exc_common, %function
exc_common:
	frame_save_x2_x29 sp
	add	x2, sp, #FRAME_SIZE	// interrupted SP
	stp	x30, x2, [sp, #FRAME_X(30)]
	frame_save_sysregs
#ifndef ENTRY_NO_FP_SAVE	/* test/bench/entry_nofp.S: the cost of the save */
	mrs	x4, cpacr_el1
	str	x4, [sp, #FRAME_CPACR]
	tbz	x4, #CPACR_FPEN_EL1_BIT, 1f	// FP/SIMD off: nothing of it is live
	mrs	x4, fpsr
	mrs	x5, fpcr
	stp	x4, x5, [sp, #FRAME_FPSR]
	msr	fpcr, xzr			// handlers start from the reset FPCR
	stp	q0, q1, [sp, #FRAME_Q(0)]
	stp	q2, q3, [sp, #FRAME_Q(2)]
	stp	q4, q5, [sp, #FRAME_Q(4)]
	stp	q6, q7, [sp, #FRAME_Q(6)]
	stp	q8, q9, [sp, #FRAME_Q(8)]
	stp	q10, q11, [sp, #FRAME_Q(10)]
	stp	q12, q13, [sp, #FRAME_Q(12)]
	stp	q14, q15, [sp, #FRAME_Q(14)]
	stp	q16, q17, [sp, #FRAME_Q(16)]
	stp	q18, q19, [sp, #FRAME_Q(18)]
	stp	q20, q21, [sp, #FRAME_Q(20)]
	stp	q22, q23, [sp, #FRAME_Q(22)]
	stp	q24, q25, [sp, #FRAME_Q(24)]
	stp	q26, q27, [sp, #FRAME_Q(26)]
	stp	q28, q29, [sp, #FRAME_Q(28)]
	stp	q30, q31, [sp, #FRAME_Q(30)]
1:
#endif
	stp	x29, x2, [sp, #FRAME_RECORD]	// record = {x29, elr}
	add	x29, sp, #FRAME_RECORD
	mov	x0, sp
	bl	exception_dispatch

#ifndef ENTRY_NO_FP_SAVE
	ldr	x2, [sp, #FRAME_CPACR]
	msr	cpacr_el1, x2			// what the interrupted code had (ERET syncs)
	tbz	x2, #CPACR_FPEN_EL1_BIT, 2f	// it had no FP/SIMD: none to restore
	ldp	q0, q1, [sp, #FRAME_Q(0)]
	ldp	q2, q3, [sp, #FRAME_Q(2)]
	ldp	q4, q5, [sp, #FRAME_Q(4)]
	ldp	q6, q7, [sp, #FRAME_Q(6)]
	ldp	q8, q9, [sp, #FRAME_Q(8)]
	ldp	q10, q11, [sp, #FRAME_Q(10)]
	ldp	q12, q13, [sp, #FRAME_Q(12)]
	ldp	q14, q15, [sp, #FRAME_Q(14)]
	ldp	q16, q17, [sp, #FRAME_Q(16)]
	ldp	q18, q19, [sp, #FRAME_Q(18)]
	ldp	q20, q21, [sp, #FRAME_Q(20)]
	ldp	q22, q23, [sp, #FRAME_Q(22)]
	ldp	q24, q25, [sp, #FRAME_Q(24)]
	ldp	q26, q27, [sp, #FRAME_Q(26)]
	ldp	q28, q29, [sp, #FRAME_Q(28)]
	ldp	q30, q31, [sp, #FRAME_Q(30)]
	ldp	x2, x3, [sp, #FRAME_FPSR]
	msr	fpsr, x2
	msr	fpcr, x3
2:
#endif
	ldp	x2, x3, [sp, #FRAME_ELR]
	msr	elr_el1, x2
	msr	spsr_el1, x3
	ldp	x2, x3, [sp, #FRAME_X(2)]
	ldp	x4, x5, [sp, #FRAME_X(4)]
	ldp	x6, x7, [sp, #FRAME_X(6)]
	ldp	x8, x9, [sp, #FRAME_X(8)]
	ldp	x10, x11, [sp, #FRAME_X(10)]
	ldp	x12, x13, [sp, #FRAME_X(12)]
	ldp	x14, x15, [sp, #FRAME_X(14)]
	ldp	x16, x17, [sp, #FRAME_X(16)]
	ldp	x18, x19, [sp, #FRAME_X(18)]
	ldp	x20, x21, [sp, #FRAME_X(20)]
	ldp	x22, x23, [sp, #FRAME_X(22)]
	ldp	x24, x25, [sp, #FRAME_X(24)]
	ldp	x26, x27, [sp, #FRAME_X(26)]
	ldp	x28, x29, [sp, #FRAME_X(28)]
	ldr	x30, [sp, #FRAME_X(30)]
	ldp	x0, x1, [sp, #FRAME_X(0)]
	add	sp, sp, #FRAME_SIZE
	eret
	.size	exc_common, . - exc_common
