/*
 * trace/tracers/rec_function.S: the function tracer's recorder, called
 * straight from a site's BL when the function tracer is the only ops on
 * the site (trace/core/ops.c, route SITE_ENTRY). It writes the record
 * ring_put_func (trace/ring/ring.h) writes, byte for byte, without the
 * trampoline: no register is saved, nothing is called, no stack is used.
 *
 * Contract (trace_rec_function):
 *   in:    x30 = func + 8, x9 = the traced function's return address,
 *          x0-x8 its arguments, as trace_caller gets them
 *   state: EL1, MMU on, TPIDR_EL1 = this CPU's struct percpu, any DAIF;
 *          _text page aligned (the image is mapped by pages)
 *   does:  with IRQ/FIQ masked (the grace period and the ring's owner
 *          rule, as in trace_caller), unless this CPU is inside a
 *          callback (percpu->trace_callback_daif != 0, the recursion
 *          guard of entry.S):
 *          appends a function record to this CPU's ring: kind 0,
 *          two bytes (header and the slot, site & 255), when the slot
 *          of the block's caller cache holds this site and caller, so
 *          the common case, a hit, costs the same for any site number
 *          and computes no caller offset; kind 1 with the site and the
 *          caller otherwise, which fills the slot (the cache keys on
 *          caller << 16 | site; the ring clears it when a block opens;
 *          the host keeps the same slots, wire.md 2.2), and counts
 *          it; restores DAIF and continues at
 *          func + 8 with x30 = x9. When the record may not fit inline
 *          (no current block, block full, recording paused or ended:
 *          wr >= wr_fast_end) it changes nothing and branches to
 *          trace_caller, which calls tracer_function_fast through the
 *          site's literal (the function tracer's ops) and takes the slow
 *          path in C.
 *   clobbers: x10-x18 (not live at a function's entry under AAPCS64)
 *   FP/SIMD: none used.
 *   A CPU that executed the BL just before the patcher removed it may
 *   record one event after the patcher's round (the recorder reads no
 *   literal); the ring stays consistent, and the event is counted.
 */
#include "core/recorder.h"

	.text
	.balign	16
	.globl	trace_rec_function
	.type	trace_rec_function, %function
trace_rec_function:
	mrs	x10, daif
	msr	daifset, #3
	mrs	x11, tpidr_el1			// this CPU's struct percpu
	ldr	x16, [x11, #REC_PERCPU_SITE_BIAS]
	ldp	x12, x11, [x11, #REC_PERCPU_GUARD_PAIR]	// guard << 32, r
	tbnz	x12, #REC_GUARD_BIT, .Ldone	// inside a callback: not recorded
	ldp	x12, x13, [x11, #REC_RING_WR]	// p = wr, wr_fast_end
	cmp	x12, x13
	b.hs	.Lslow				// NULL end: no block, paused, ended

	lsr	x15, x30, #2
	ldrh	w15, [x16, x15]			// site = trace_site_slot[(func - _text) / 8]

	isb					// the counter read is not early
	mrs	x13, cntvct_el0			// now
	REC_TAKE_DELTA x11, x13, x14		// delta

	orr	x13, x15, x9, lsl #16		// key = caller << 16 | site
	add	x16, x11, w15, uxtb #3		// + REC_RING_CACHE: &cache[site & 255]
	.if	REC_RING_CACHE_MASK != 255
	.error	"uxtb takes site & 255"
	.endif
	ldr	x18, [x16, #REC_RING_CACHE]
	cmp	x18, x13
	b.ne	.Lmiss				// kind 1: the site and caller go too
	cmp	x14, #31
	b.hs	.Lkind0_long
	orr	w14, w14, w15, lsl #8
	strh	w14, [x12], #2			// header (kind 0, delta), slot = site & 255
.Lcommit:
	REC_COMMIT x11, x12, x16, w16
.Ldone:
	msr	daif, x10
	mov	x16, x30
	mov	x30, x9
	ret	x16

.Lkind0_long:
	mov	w13, #31
	strb	w13, [x12], #1			// header: kind 0, long delta
	REC_PUT_VARINT x14, w14, w16, x12
	strb	w15, [x12], #1			// the slot
	b	.Lcommit
.Lmiss:
	str	x13, [x16, #REC_RING_CACHE]
	str	x13, [x11, #REC_RING_CACHE_USED]	// never 0: the block clears it
	REC_PUT_HEADER 1, x14, w14, x12, .Llong_delta
.Lsite:
	REC_PUT_VARINT x15, w15, w16, x12
	adrp	x16, _text			// page aligned: adrp is exact
	sub	x17, x9, x16
	lsr	x17, x17, #2			// caller_off4
	REC_PUT_VARINT x17, w17, w16, x12
	b	.Lcommit
.Llong_delta:
	mov	w13, #(1 << 5 | 31)
	strb	w13, [x12], #1
	REC_PUT_VARINT x14, w14, w16, x12
	b	.Lsite
.Lslow:
	msr	daif, x10
	b	trace_caller
	.size	trace_rec_function, . - trace_rec_function
