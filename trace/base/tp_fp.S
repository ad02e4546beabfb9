/*
 * trace/base/tp_fp.S: the dispatch a tracepoint site calls when a probe
 * attached to its event may use FP/SIMD (tp_probe_attach without
 * TP_PROBE_NO_FPSIMD: application probes, by default).
 *
 * A site keeps no FP/SIMD state itself (include/baretrace_tracepoint.h):
 * in application code its asm names v0-v7 and v16-v31 as clobbered, so
 * a caller holding values there spills them on that path only, and a
 * probe is a C function, which keeps the low halves of v8-v15 and FPCR
 * (AAPCS64). What a probe may still change is saved here: the upper
 * halves of v8-v15 (the compiler may keep a whole vector in one of them
 * across an asm), FPSR (its cumulative flags) and FPCR, for a probe that
 * changes it and does not put it back. That state exists only when the
 * running context has FP/SIMD on (CPACR_EL1.FPEN bit 20, see
 * kernel/cpu/entry.S): with it off, nothing is live, and the
 * probes run as they are; one whose first FP/SIMD instruction traps is
 * given FP/SIMD for the rest of the call, and CPACR_EL1 is put back
 * afterwards, so the context still has none.
 *
 * Contract (tp_iterate_fp):
 *   in:    x0 = ev, x1 = fields: a tp_probe_fn call
 *   state: EL1, MMU on, IRQ and FIQ masked by the site (the grace period
 *          of trace/events/tracepoint.c: both probe arrays stay valid)
 *   does:  FP/SIMD on: saves q8-q15, FPCR and FPSR, calls the probes,
 *          restores them;
 *          FP/SIMD off: calls the probes, writes CPACR_EL1 back, ISB
 *          (the context's next FP/SIMD instruction traps again).
 *          The probes: the only one directly, several through
 *          tp_call_probes(ev, fields, the array)
 *   out:   nothing; clobbers what a C call may (x0-x18, v0-v7, v16-v31)
 */
#include "tp_table.h"

#define TPF_SIZE	160	/* {x29, x30}, {fpcr, fpsr} or cpacr, q8-q15 */

/* p = ev->state->probes[cur]; p[1] ? tp_call_probes(ev, fields, p)
 * : p[0] ? p[0](ev, fields) : nothing. p[0] may be NULL: a CPU still at
 * a BL to here reads the array published before the BL was rewritten
 * (trace/events/tracepoint.c), which may be the empty one. */
	.macro	call_probes
	ldr	x9, [x0, #TP_EVENT_STATE]	// s = ev->state
	add	x10, x9, #TP_STATE_CUR
	ldar	w10, [x10]			// cur, acquire: the array it names
	add	x9, x9, x10, lsl #TP_PROBES_SHIFT	// p = s->probes[cur] (ldar zero-extends)
	ldp	x10, x11, [x9]
	cbnz	x11, 8f				// several
	cbz	x10, 9f				// none
	blr	x10				// p[0](ev, fields)
	b	9f
8:	mov	x2, x9
	bl	tp_call_probes			// the array read here, not again
9:
	.endm

	.text
	.balign	16
	.globl	tp_iterate_fp
	.type	tp_iterate_fp, %function
tp_iterate_fp:
	stp	x29, x30, [sp, #-TPF_SIZE]!
	mov	x29, sp
	mrs	x9, cpacr_el1
	tbz	x9, #20, 1f			// FPEN: EL1 not trapped?
	mrs	x9, fpcr
	mrs	x10, fpsr
	stp	x9, x10, [sp, #16]
	stp	q8, q9, [sp, #32]
	stp	q10, q11, [sp, #64]
	stp	q12, q13, [sp, #96]
	stp	q14, q15, [sp, #128]
	call_probes
	ldp	q8, q9, [sp, #32]
	ldp	q10, q11, [sp, #64]
	ldp	q12, q13, [sp, #96]
	ldp	q14, q15, [sp, #128]
	ldp	x9, x10, [sp, #16]
	msr	fpcr, x9
	msr	fpsr, x10
	ldp	x29, x30, [sp], #TPF_SIZE
	ret
1:	str	x9, [sp, #16]			// CPACR_EL1, FP/SIMD off
	call_probes
	ldr	x9, [sp, #16]
	msr	cpacr_el1, x9			// off again, if a probe turned it on
	isb					// before the caller's next FP use
	ldp	x29, x30, [sp], #TPF_SIZE
	ret
	.size	tp_iterate_fp, . - tp_iterate_fp
