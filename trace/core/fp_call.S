/*
 * trace/core/fp_call.S: calling an application's trace callback with the
 * traced function's FP/SIMD state kept.
 *
 * At a function's entry its caller may have left floating-point or
 * vector arguments in q0-q7, and FPCR (rounding mode, flush to zero)
 * and FPSR (cumulative exception flags) are the program's. The
 * trampoline (trace/core/entry.S) saves only general registers: the trace
 * core and its own tracers are built -mgeneral-regs-only and their ops
 * carry TRACE_OPS_NO_FPSIMD. Every other ops is called through here
 * (ARCHITECTURE.md 7a: tracing never changes what the program computes).
 * q8-q31 need no saving: under the AAPCS64 a callee keeps the low halves
 * of v8-v15 (the callback is a C function) and nothing at a call is
 * held in v16-v31 or the upper halves of v8-v15.
 *
 * With the lazy FP/SIMD save (kernel/cpu/entry.S) that state exists
 * only when the running context has FP/SIMD on (CPACR_EL1.FPEN bit 20):
 * with it off the traced function cannot have FP arguments (passing one
 * would have trapped and turned it on), so nothing is saved, and
 * CPACR_EL1 is put back after the callback, so a callback whose first
 * FP/SIMD instruction trapped leaves the context without it.
 *
 * Contract (trace_fp_call):
 *   in:    x0 = ip, x1 = parent_ip, x2 = ops, x3 = regs: a trace_func
 *          call as the trampoline or trace_list_func makes it
 *   state: EL1, MMU on, any DAIF
 *   does:  FP/SIMD on: saves q0-q7, FPCR and FPSR on the stack, calls
 *          ops->func(ip, parent_ip, ops, regs), restores them;
 *          FP/SIMD off: calls it, writes CPACR_EL1 back, ISB (the
 *          context's next FP/SIMD instruction traps again)
 *   out:   nothing; clobbers what a C call may (x0-x18, v16-v31 upper)
 *
 * Contract (trace_fp_shim_func): the func of the shim ops the core puts
 * in a site's literal in place of an application ops (trace/core/ops.c):
 *   in:    as trace_fp_call, but x2 = the shim, shim->data = the ops
 *   does:  trace_fp_call with x2 = shim->data
 */
#define FPC_SIZE	160	/* {x29, x30}, {fpcr, fpsr} or cpacr, q0-q7 */

	.text
	.balign	16
	.globl	trace_fp_shim_func
	.type	trace_fp_shim_func, %function
trace_fp_shim_func:
	ldr	x2, [x2, #16]			// ops = shim->data
	.size	trace_fp_shim_func, . - trace_fp_shim_func
	/* falls through */
	.globl	trace_fp_call
	.type	trace_fp_call, %function
trace_fp_call:
	stp	x29, x30, [sp, #-FPC_SIZE]!
	mov	x29, sp
	mrs	x9, cpacr_el1
	tbz	x9, #20, 1f			// FPEN: EL1 not trapped?
	mrs	x9, fpcr
	mrs	x10, fpsr
	stp	x9, x10, [sp, #16]
	stp	q0, q1, [sp, #32]
	stp	q2, q3, [sp, #64]
	stp	q4, q5, [sp, #96]
	stp	q6, q7, [sp, #128]
	ldr	x9, [x2]			// ops->func
	blr	x9
	ldp	q0, q1, [sp, #32]
	ldp	q2, q3, [sp, #64]
	ldp	q4, q5, [sp, #96]
	ldp	q6, q7, [sp, #128]
	ldp	x9, x10, [sp, #16]
	msr	fpcr, x9
	msr	fpsr, x10
	ldp	x29, x30, [sp], #FPC_SIZE
	ret
1:	str	x9, [sp, #16]			// CPACR_EL1, FP/SIMD off
	ldr	x9, [x2]			// ops->func
	blr	x9
	ldr	x9, [sp, #16]
	msr	cpacr_el1, x9			// off again, if the callback turned it on
	isb					// before the traced code's next FP use
	ldp	x29, x30, [sp], #FPC_SIZE
	ret
	.size	trace_fp_call, . - trace_fp_call
