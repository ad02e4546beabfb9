/*
 * test/target/direct_tramps.S: direct trampolines for test_direct.c.
 *
 * Contract (both): entered by the BL at func+4 of a traced function.
 *   in:    x30 = func + 8 (the body), x9 = func's return address,
 *          x0-x7 func's arguments; EL1, MMU on, any DAIF
 *   clobbers: x16, x17 (free at a function's entry under AAPCS64)
 */
	.text
	.balign	8
	.globl	dt_count_tramp
	.type	dt_count_tramp, %function
dt_count_tramp:				// fentry: count, then run func
	adrp	x16, dt_tramp_hits
	add	x16, x16, :lo12:dt_tramp_hits
	ldr	x17, [x16]
	add	x17, x17, #1
	str	x17, [x16]			// dt_tramp_hits++ (one CPU calls it)
	mov	x16, x30			// the body
	mov	x30, x9				// func returns to its own caller
	br	x16
	.size	dt_count_tramp, . - dt_count_tramp

	.globl	dt_fexit_tramp
	.type	dt_fexit_tramp, %function
dt_fexit_tramp:				// fexit: call func, then change x0
	stp	x29, x9, [sp, #-16]!		// frame record {fp, func's caller}
	mov	x29, sp
	mov	x16, x30
	blr	x16				// x0 = func(x0-x7), lr = here
	add	x0, x0, #1000			// the return value seen after
	ldp	x29, x30, [sp], #16
	ret
	.size	dt_fexit_tramp, . - dt_fexit_tramp
