/*
 * test/target/co_switch.S: a minimal coroutine switch, as an application
 * with its own task switch or coroutines has one (test_fgraph_switch.c).
 *
 * Contract (co_switch(struct co_ctx *save, const struct co_ctx *load)):
 *   in:    x0 = where to save this context, x1 = the context to resume
 *   state: EL1, any stack; a context is x19-x29, x30, sp, d8-d15
 *          (AAPCS64's callee-saved set), 168 bytes
 *   does:  saves the callee-saved registers, sp and x30 in *save, loads
 *          them from *load and returns to its x30 on its sp: into the
 *          co_switch call that saved it, or into a coroutine's entry
 *          (x30 = the function, sp = the top of its stack)
 *   clobbers: x9 (and what the resumed context had)
 */
	.text
	.balign	8
	.globl	co_switch
	.type	co_switch, %function
co_switch:
	mov	x9, sp
	stp	x19, x20, [x0, #0]
	stp	x21, x22, [x0, #16]
	stp	x23, x24, [x0, #32]
	stp	x25, x26, [x0, #48]
	stp	x27, x28, [x0, #64]
	stp	x29, x30, [x0, #80]
	str	x9, [x0, #96]
	stp	d8, d9, [x0, #104]
	stp	d10, d11, [x0, #120]
	stp	d12, d13, [x0, #136]
	str	d14, [x0, #152]
	str	d15, [x0, #160]
	ldp	x19, x20, [x1, #0]
	ldp	x21, x22, [x1, #16]
	ldp	x23, x24, [x1, #32]
	ldp	x25, x26, [x1, #48]
	ldp	x27, x28, [x1, #64]
	ldp	x29, x30, [x1, #80]
	ldr	x9, [x1, #96]
	mov	sp, x9
	ldp	d8, d9, [x1, #104]
	ldp	d10, d11, [x1, #120]
	ldp	d12, d13, [x1, #136]
	ldr	d14, [x1, #152]
	ldr	d15, [x1, #160]
	ret
	.size	co_switch, . - co_switch
