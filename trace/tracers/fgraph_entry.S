/*
 * trace/tracers/fgraph_entry.S: where a hooked function returns to.
 *
 * Contract (fgraph_return):
 *   in:    reached by the traced function's RET (its x30 was replaced by
 *          trace/tracers/fgraph.c), so x0-x7 and x8 hold its return values,
 *          x29 its caller's frame pointer, sp as before the call
 *   state: EL1, MMU on, any DAIF
 *   does:  saves x0-x8 and x29, links a frame record {x29, 0}, calls
 *          fgraph_exit(x29, x0, sp), which pops the shadow stack and returns
 *          the real return address; restores the registers and returns
 *          there with x30 = that address.
 *   fast path: a frame pushed by a recorder in assembly (flags has
 *          FGRAPH_FLAG_FAST) whose fp and sp match the return is popped
 *          by fgraph_fast_exit (trace/tracers/rec_graph.S) without
 *          saving anything, with IRQ/FIQ masked once; every other
 *          return takes the path above (fgraph_return_c).
 *   clobbers: x9-x18 (caller-saved across the call that just returned)
 *   FP/SIMD: q0-q3 may hold the return value and FPCR/FPSR are the
 *   program's; none is saved because fgraph_exit calls only the trace
 *   core's own exit handlers (graph_exit, profile_exit), built
 *   -mgeneral-regs-only; there is no application return hook. One that
 *   is added must save q0-q7, FPCR and FPSR as trace/core/fp_call.S does.
 */
#include "core/recorder.h"

	.text
	.balign	16
	.globl	fgraph_return
	.type	fgraph_return, %function
fgraph_return:
	mrs	x10, daif
	msr	daifset, #3			// the shadow stack is this CPU's, masked
	mrs	x11, tpidr_el1
	ldr	x12, [x11, #REC_PERCPU_FGRAPH]	// st
	ldr	w13, [x12, #REC_FG_TOP]
	cbz	w13, fgraph_return_c		// (the C path reports it)
	mov	w14, #REC_FG_FRAME_SIZE
	umaddl	x14, w13, w14, x12
	sub	x14, x14, #(REC_FG_FRAME_SIZE - REC_FG_FRAMES)	// &frames[top - 1]
	ldrh	w15, [x14, #REC_FRAME_OWNER]	// owner | flags << 8
	tbz	w15, #(8 + REC_FRAME_FAST_BIT), fgraph_return_c
	ldp	x16, x17, [x14, #REC_FRAME_FP]	// fp, sp at the call
	mov	x18, sp
	cmp	x16, x29
	ccmp	x17, x18, #0, eq
	b.ne	fgraph_return_c			// abandoned frames or a mismatch
	b	fgraph_fast_exit		// x10-x15 as its contract says
	.size	fgraph_return, . - fgraph_return

/* The C path: entered with IRQ/FIQ masked and x10 = the DAIF to restore
 * (fgraph_return above, or fgraph_fast_exit when the ring has no room
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
