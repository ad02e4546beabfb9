/*
 * trace/tracers/fgraph_entry.S: the C path of the return hook.
 *
 * A hooked function returns to fgraph_return (trace/tracers/rec_graph.S,
 * beside the fast exit it falls into); every return it cannot pop fast
 * comes here, to fgraph_return_c, which calls fgraph_exit in C. Its
 * contract, FP/SIMD included (nothing saved: fgraph_exit runs only the
 * trace core's own exit handlers), is fgraph_return's, there.
 */
#include "core/recorder.h"

	.text
	.balign	16
/* The C path: entered with IRQ/FIQ masked and x10 = the DAIF to restore
 * (fgraph_return, or fgraph_fast_exit when the ring has no room
 * inline); x0-x8, x29 and sp as the traced function returned. */
	.globl	fgraph_return_c
	.type	fgraph_return_c, %function
fgraph_return_c:
	msr	daif, x10
	sub	sp, sp, #96
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	str	x8, [sp, #64]
	stp	x29, xzr, [sp, #80]		// a record that ends the walk here
	add	x29, sp, #80
	ldr	x0, [sp, #80]			// fp = the caller's frame pointer
	ldr	x1, [sp, #0]			// retval = x0
	add	x2, sp, #96			// sp as the function returned
	bl	fgraph_exit
	mov	x30, x0				// the real return address
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	ldr	x29, [sp, #80]
	add	sp, sp, #96
	ret
	.size	fgraph_return_c, . - fgraph_return_c
