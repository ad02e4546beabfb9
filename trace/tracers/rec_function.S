/*
 * trace/tracers/rec_function.S: the function tracer's recorder, called
 * straight from a site's BL when the function tracer is the only ops on
 * the site (trace/core/ops.c, route SITE_ENTRY). It writes the record
 * ring_put_func (trace/ring/ring.h) writes, byte for byte, without the
 * trampoline: no register is saved, nothing is called, no stack is used.
 * It is restartable (kernel/cpu/restart.h): it does not mask interrupts;
 * an interrupt that lands in it before its commit starts it again from
 * the top once the handler is done.
 *
 * Contract (trace_rec_function):
 *   in:    x30 = func + 8, x9 = the traced function's return address,
 *          x0-x8 its arguments, as trace_caller gets them
 *   state: EL1, MMU on, TPIDR_EL1 = this CPU's struct percpu, any DAIF;
 *          _text page aligned (the image is mapped by pages)
 *   does:  unless this CPU is inside a callback (percpu->
 *          trace_callback_daif != 0, the recursion guard of entry.S):
 *          appends a function record to this CPU's ring: kind 0,
 *          two bytes (header and the slot, site & 255), when the slot
 *          of the block's caller cache holds this site and caller, so
 *          the common case, a hit, costs the same for any site number
 *          and computes no caller offset; kind 1 with the site and the
 *          caller otherwise, which fills the slot (the cache keys on
 *          caller << 16 | site; the ring clears it when a block opens;
 *          the host keeps the same slots, wire.md 2.2), and counts
 *          it; continues at func + 8 with x30 = x9. When the record may
 *          not fit inline (no current block, block full, recording
 *          paused or ended: wr >= wr_fast_end) it changes nothing and
 *          branches to trace_caller, which calls tracer_function_fast
 *          through the site's literal (the function tracer's ops) and
 *          takes the slow path in C.
 *   restart: two ranges in .restart_table, trace_rec_function to the
 *          commit (.Lcommit's STP, included) and the side paths
 *          (.Lside_start to .Lside_end), both restart at
 *          trace_rec_function: an IRQ that lands in them (the kernel's
 *          restart check runs in the IRQ entry, kernel/cpu/restart.h)
 *          resumes there after its handler, which may have written
 *          records of its own; so the interrupted call's record is
 *          written once, after theirs, from state read again. That
 *          holds because in the ranges
 *          - the only store outside the block is the commit, one STP of
 *            the ring's ts_events (the record's time, the block's count
 *            plus one: trace/ring/ring_ts.h) and wr (the record's end):
 *            before it the block's bytes from wr on are free space that
 *            a handler's records or the next run overwrite, and nobody
 *            reads them;
 *          - x0-x9 and x30, which the next run reads, are not written;
 *          - a kind 1 must also fill its cache slot, a second store
 *            that no STP can join: that path (.Lmiss, once a block for
 *            a slot and caller) masks IRQ/FIQ with its second
 *            instruction, the last of its range, and makes both stores
 *            masked (.Lmiss_masked), so no interrupt can find the slot
 *            filled for a record not committed, nor the record
 *            committed with the slot not yet filled.
 *          After the commit (.Ldone) nothing is stored and x30 is put
 *          back: an interrupt there resumes it as usual.
 *          test/target/test_restart.c interrupts every instruction.
 *   grace period: the patcher reuses an ops only after a round in which
 *          every CPU took its IPI (trace/core/patch.c), and ring_setup
 *          swaps a CPU's ring memory in that CPU's IPI. A CPU that took
 *          such an IPI in a range restarts: it keeps nothing it read
 *          before the IPI (and it reads no literal, no ops pointer, in
 *          any case); after the commit it touches no memory. So both
 *          hold as they did when the recorder masked interrupts. As
 *          before, a CPU that executed the BL just before the patcher
 *          removed it may record one event after the round; the ring
 *          stays consistent, and the event is counted.
 *   clobbers: x10-x18 (not live at a function's entry under AAPCS64)
 *   FP/SIMD: none used.
 */
#include "core/recorder.h"
#include "restart.h"

	.section .text.restartable, "ax", %progbits
	.balign	16
	.globl	trace_rec_function
	.type	trace_rec_function, %function
trace_rec_function:				// the restart address
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
	ldr	x17, [x11, #REC_RING_TS_EVENTS]	// last_ts << 16 | events
	sub	x14, x13, x17, lsr #REC_TS_SHIFT
	and	x14, x14, #0xffffffffffff	// delta, modulo 2^48 (ring_ts_delta)
	add	x17, x17, #1
	bfi	x17, x13, #REC_TS_SHIFT, #(64 - REC_TS_SHIFT)	// what the commit stores

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
	stp	x17, x12, [x11, #REC_RING_TS_EVENTS]	// the commit: time, count; wr
.Lrange_end:				// (.Lcommit's STP is the range's last)
.Ldone:
	mov	x16, x30
	mov	x30, x9
	ret	x16

.Lslow:
	b	trace_caller

	// The hit path's side paths: a second range, also restarted at the
	// top (every instruction here may be interrupted too).
.Lside_start:
.Lkind0_long:
	mov	w13, #31
	strb	w13, [x12], #1			// header: kind 0, long delta
	REC_PUT_VARINT x14, w14, w16, x12
	strb	w15, [x12], #1			// the slot
	b	.Lcommit
.Lmiss:
	mrs	x10, daif
	msr	daifset, #3			// masked from here: see the contract
.Lside_end:
	// A kind 1, IRQ/FIQ masked (x10 = DAIF before): the slot and the
	// record, then the same commit.
.Lmiss_masked:
	str	x13, [x16, #REC_RING_CACHE]
	str	x13, [x11, #REC_RING_CACHE_USED]	// never 0: the block clears it
	REC_PUT_HEADER 1, x14, w14, x12, .Llong_delta
.Lsite:
	REC_PUT_VARINT x15, w15, w16, x12
	adrp	x16, _text			// page aligned: adrp is exact
	sub	x18, x9, x16
	lsr	x18, x18, #2			// caller_off4
	REC_PUT_VARINT x18, w18, w16, x12
	stp	x17, x12, [x11, #REC_RING_TS_EVENTS]	// time, count; wr
	msr	daif, x10
	b	.Ldone
.Llong_delta:
	mov	w13, #(1 << 5 | 31)
	strb	w13, [x12], #1
	REC_PUT_VARINT x14, w14, w16, x12
	b	.Lsite
	.size	trace_rec_function, . - trace_rec_function

	RESTARTABLE trace_rec_function, .Lrange_end, trace_rec_function
	RESTARTABLE .Lside_start, .Lside_end, trace_rec_function
