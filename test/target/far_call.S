/*
 * test/target/far_call.S: calls a function through a register, position
 * independent, so a copy placed in the far text page (far_text_place)
 * calls from there (test_caller_key.c).
 *
 * Contract (far_call(int x, int (*fn)(int))):
 *   in:    x0 = the argument, x1 = the function
 *   state: EL1, MMU on, a stack
 *   does:  returns fn(x); the call's return address is far_call + 12
 *          (FAR_CALL_RET), wherever the copy runs
 *   clobbers: what fn clobbers
 */
	.text
	.balign	8
	.globl	far_call
	.type	far_call, %function
far_call:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	blr	x1			// returns to far_call + 12
	ldp	x29, x30, [sp], #16
	ret
	.size	far_call, . - far_call
