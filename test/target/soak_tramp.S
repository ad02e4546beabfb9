/*
 * test/target/soak_tramp.S: a counting direct trampoline safe on every
 * CPU at once (test/target/soak.c): each CPU counts in its own slot.
 *
 * Contract: entered by the BL at func+4 of a traced function.
 *   in:    x30 = func + 8 (the body), x9 = func's return address,
 *          x0-x7 func's arguments; EL1, MMU on, thread context (an
 *          interrupt on the same CPU never calls func, so the slot's
 *          read-modify-write is not torn)
 *   does:  counter[cpu]++, then runs func, which returns to its
 *          own caller
 *   clobbers: x16, x17 (free at a function's entry under AAPCS64)
 */
	.macro	counting_tramp name, counter
	.globl	\name
	.type	\name, %function
\name:
	mrs	x16, tpidr_el1
	ldr	w16, [x16]			// this_cpu()->cpu (offset 0)
	adrp	x17, \counter
	add	x17, x17, :lo12:\counter
	add	x17, x17, x16, lsl #3		// &counter[cpu]
	ldr	x16, [x17]
	add	x16, x16, #1
	str	x16, [x17]
	mov	x16, x30			// the body
	mov	x30, x9				// func returns to its own caller
	br	x16
	.size	\name, . - \name
	.endm

	.text
	.balign	8
	counting_tramp soak_tramp, soak_tramp_hits	// stays attached
	.balign	8
	counting_tramp soak_flip_tramp, soak_flip_hits	// comes and goes
