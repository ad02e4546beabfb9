/*
 * trace/core/entry.S: the trampoline every enabled patch site calls.
 *
 * A traced function looks like this (trace/core/patch.c draws the states):
 *
 *   func-8:  .quad ops          literal: the ops for this site
 *   func+0:  mov   x9, x30      written once at boot
 *   func+4:  bl    trace_caller NOP when disabled
 *   func+8:  body...
 *
 * Contract (trace_caller):
 *   in:    x30 = func + 8 (8-byte aligned: functions are), x9 = the
 *          traced function's own return address, x0-x8 its arguments,
 *          x29 its caller's frame pointer, sp as at the call
 *   state: EL1, MMU on, TPIDR_EL1 = this CPU's struct percpu, any DAIF
 *   does:  saves x0-x8, fp, lr, sp and pc in a struct trace_regs on the
 *          stack; links two frame records (the traced function's
 *          {fp, lr} and the trampoline's {that record, func + 8}) so a
 *          backtrace from the callback shows the traced function and its
 *          caller; masks IRQ and FIQ; unless this CPU is already inside a
 *          callback, calls ops->func(func, lr, ops, regs) with
 *          ops = *(x30 - 16), loaded once; restores DAIF and the
 *          registers (a callback may have changed x0-x8 and lr), and
 *          continues at regs->pc with x30 = regs->lr.
 *   clobbers: x9-x18 (not live at a function's entry under AAPCS64)
 *   FP/SIMD: not saved here, so the core tracers' fast path pays nothing
 *   for it. Their ops carry TRACE_OPS_NO_FPSIMD (built
 *   -mgeneral-regs-only); every other ops is reached through a shim ops
 *   in the literal, or through trace_list_func, which keep q0-q7, FPCR
 *   and FPSR around the callback (trace/core/fp_call.S).
 *   The direct-call slot (ops->direct_call, offset 8) is read only by
 *   trace_caller_direct below, so ordinary dispatch pays nothing for it.
 *
 * Why callbacks run with IRQ/FIQ masked:
 *  - recursion guard: percpu->trace_callback_daif (kernel/cpu/percpu.h,
 *    reached through TPIDR_EL1) is nonzero while this CPU runs a
 *    callback. It is EL1 state on purpose: TPIDR_EL0 and the other EL0
 *    registers are the application's (its thread pointer, a scheduler's
 *    current task), and nothing here reads or writes them. The guard
 *    holds the DAIF value to restore, never zero because PSTATE.D stays
 *    set in the kernel; it costs two instructions more per callback than
 *    a system register did (one TPIDR_EL1 read after the call). With
 *    interrupts masked no other context (IRQ, FIQ) can start on this CPU
 *    while it is set, so one word per CPU guards every context: a
 *    callback in thread context and one in IRQ context can never overlap,
 *    and a callback that calls traced code is not re-entered. An SError
 *    arriving here crashes (the handler is not traced).
 *  - grace period: a CPU that takes the patcher's IPI is not between
 *    loading a literal and returning from the callback it named, so one
 *    IPI round after swapping literals proves no CPU holds the old ops.
 *    Every load of a literal in this file is masked for that reason.
 */
#include "config.h"
#include "recorder.h"

#define REGS_X8		64	/* x8, then sp: one STP */
#define REGS_FP		80	/* record A: {fp, lr} */
#define REGS_RECORD_FP	96	/* record B: {&A, pc} */
#define REGS_PC		104
#define REGS_SIZE	128

/* Save, call ops->func with IRQ/FIQ masked, restore: trace_caller's
 * contract up to the point where it continues at x9 = regs->pc with x30
 * = regs->lr. Both entries below expand it, so neither pays for the
 * other. */
	.macro	TRACE_CALL_OPS
	sub	sp, sp, #REGS_SIZE
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	add	x10, sp, #REGS_SIZE
	stp	x8, x10, [sp, #REGS_X8]		// regs->x[8], regs->sp = sp at the call
	stp	x29, x9, [sp, #REGS_FP]		// regs->fp, regs->lr = record A
	add	x29, sp, #REGS_FP
	stp	x29, x30, [sp, #REGS_RECORD_FP]	// record B, regs->pc = func + 8
	add	x29, sp, #REGS_RECORD_FP

	mrs	x12, daif			// never 0: D stays masked (exception.c)
	msr	daifset, #3			// mask IRQ and FIQ
	mrs	x11, tpidr_el1			// this CPU's struct percpu
	ldr	w13, [x11, #REC_PERCPU_CALLBACK_DAIF]	// busy: this CPU is in a callback
	cbnz	w13, 1f
	str	w12, [x11, #REC_PERCPU_CALLBACK_DAIF]	// busy = the DAIF to restore

	ldr	x2, [x30, #-16]			// ops = *(func - 8)
	sub	x0, x30, #8			// ip = func
	mov	x1, x9				// parent_ip
	ldr	x4, [x2]			// ops->func
	mov	x3, sp				// regs
	blr	x4

	mrs	x11, tpidr_el1			// (the callback clobbered x11)
	ldr	w12, [x11, #REC_PERCPU_CALLBACK_DAIF]
	str	wzr, [x11, #REC_PERCPU_CALLBACK_DAIF]	// not busy
1:	msr	daif, x12
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #REGS_X8]
	ldp	x29, x30, [sp, #REGS_FP]	// fp, lr (a tracer may change lr)
	ldr	x9, [sp, #REGS_PC]
	add	sp, sp, #REGS_SIZE
	.endm

	.text
	.balign	16
	.globl	trace_caller
	.type	trace_caller, %function
trace_caller:
	TRACE_CALL_OPS
	ret	x9
	.size	trace_caller, . - trace_caller

/* The callback of sites with no ops: a CPU that still executes a BL the
 * patcher is removing lands here. */
	.globl	trace_nop_func
	.type	trace_nop_func, %function
trace_nop_func:
	ret
	.size	trace_nop_func, . - trace_nop_func

/*
 * trace_caller_direct: the long path to a direct trampoline that a BL
 * from the site cannot reach (beyond +-128 MiB). The site's literal is
 * then an ops whose direct_call (offset 8) holds the trampoline.
 *
 *   func-8:  .quad direct ops    (ops->direct_call = tramp)
 *   func+4:  bl    trace_caller_direct
 *
 * Contract: in: as trace_caller (x30 = func + 8, x9 = func's return
 * address, x0-x8 arguments). Does: branches to ops->direct_call with
 * every register as it came, so the trampoline sees what a direct BL
 * gives it. While the patcher takes the trampoline off, a CPU may still
 * run this BL after the literal changed (literals are written first);
 * that ops has no direct_call, so it goes through trace_caller as the
 * new literal says. The two loads run with IRQ/FIQ masked: the patcher's
 * IPI round is then the grace period for the old ops too (trace/core/direct.c
 * frees it on the next attach); after the loads only the trampoline's
 * address (text) is held. Clobbers: x16, x17 (free at a function's
 * entry).
 */
	.globl	trace_caller_direct
	.type	trace_caller_direct, %function
trace_caller_direct:
	mrs	x17, daif
	msr	daifset, #3			// grace period: no IPI until the ops is read
	ldr	x16, [x30, #-16]		// ops = *(func - 8)
	ldr	x16, [x16, #8]			// ops->direct_call
	msr	daif, x17
	cbz	x16, trace_caller		// literal already changed: plain dispatch
	br	x16
	.size	trace_caller_direct, . - trace_caller_direct

/*
 * trace_caller_both: a site wanted by ops and by a direct trampoline.
 * The literal is an ops whose func calls the real ops (trace/core/direct.c)
 * and whose direct_call is the trampoline.
 *
 * Contract: in: as trace_caller. Does: what trace_caller does, then,
 * instead of continuing the body, enters ops->direct_call (the literal
 * read again: the callback may have taken a while) as a direct BL would:
 * x30 = func + 8, x9 = func's return address. If that literal has no
 * direct_call (the patcher is changing the site), continues the body.
 * Clobbers: x9-x18.
 */
	.globl	trace_caller_both
	.type	trace_caller_both, %function
trace_caller_both:
	TRACE_CALL_OPS
	mrs	x12, daif
	msr	daifset, #3			// grace period, as trace_caller_direct
	ldr	x16, [x9, #-16]			// ops = *(func - 8)
	ldr	x16, [x16, #8]			// ops->direct_call
	msr	daif, x12
	cbz	x16, 2f
	mov	x17, x30
	mov	x30, x9				// x30 = func + 8
	mov	x9, x17				// x9 = func's return address
	br	x16
2:	ret	x9
	.size	trace_caller_both, . - trace_caller_both
