/*
 * examples/direct/tramp.S: a direct trampoline in the fexit style: it
 * calls the function's body and hands the return value to C.
 *
 * Contract: entered by the BL at func+4 (or via trace_caller_direct).
 *   in:    x30 = func + 8 (the body), x9 = func's return address,
 *          x0-x7 func's arguments; EL1, MMU on
 *   out:   returns to func's caller with x0 = the body's return value
 *   clobbers: x16, x17 and what an AAPCS64 call may
 */
	.text
	.balign	8
	.globl	scale_exit_tramp
	.type	scale_exit_tramp, %function
scale_exit_tramp:
	stp	x29, x9, [sp, #-32]!		// frame record {fp, func's caller}
	mov	x29, sp
	str	x0, [sp, #16]			// the first argument, for the exit hook
	mov	x16, x30
	blr	x16				// x0 = body(x0-x7), returns here
	mov	x1, x0				// ret
	ldr	x0, [sp, #16]			// arg
	bl	scale_exit			// C: x0 = scale_exit(arg, ret)
	ldp	x29, x30, [sp], #32
	ret
	.size	scale_exit_tramp, . - scale_exit_tramp
