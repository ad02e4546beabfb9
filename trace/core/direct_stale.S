/*
 * trace/core/direct_stale.S: what a freed direct ops points at.
 *
 * trace/core/direct.c fills the ops it frees (trace_direct_attach, once the
 * old pair is out of text and past its grace period) so that a CPU still
 * using one is counted instead of going on silently: its direct_call
 * slots name trace_direct_stale. Tests assert the count stays 0.
 *
 * Contract (trace_direct_stale): entered as a direct trampoline is (by
 * trace_caller_direct or trace_caller_both): x30 = func + 8, x9 = func's
 * return address, x0-x8 its arguments; EL1, MMU on, any DAIF. Does:
 * adds 1 to trace_direct_stale_hits, then runs func as if nothing were
 * attached. Clobbers: x15-x17 (free at a function's entry).
 */
	.text
	.balign	8
	.globl	trace_direct_stale
	.type	trace_direct_stale, %function
trace_direct_stale:
	adrp	x16, trace_direct_stale_hits
	add	x16, x16, :lo12:trace_direct_stale_hits
1:	ldxr	x17, [x16]
	add	x17, x17, #1
	stxr	w15, x17, [x16]			// trace_direct_stale_hits++, any CPU
	cbnz	w15, 1b
	mov	x16, x30			// the body
	mov	x30, x9				// func returns to its own caller
	br	x16
	.size	trace_direct_stale, . - trace_direct_stale
