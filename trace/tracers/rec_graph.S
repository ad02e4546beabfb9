/*
 * trace/tracers/rec_graph.S: the function_graph tracer's and the
 * profiler's entries in assembly, called straight from a site's BL when
 * the tracer is the only ops on the site and has no option that needs C
 * (trace/control/options.c), the duration histograms' entry likewise
 * (trace_rec_hist, trace/tracers/hist.c), and their exits: the graph's
 * and the histograms', reached from fgraph_return for the frames these
 * entries pushed, and the profiler's own, profile_return. They
 * do what graph_entry/graph_exit and profile_entry/profile_exit do for
 * those cases, in the same memory and byte for byte in the ring, with no
 * register saved, nothing called and IRQ/FIQ masked once per entry and
 * once per exit.
 *
 * Contract (trace_rec_graph, trace_rec_profile, trace_rec_hist):
 *   in:    x30 = func + 8, x9 = the traced function's return address,
 *          x0-x8 its arguments, x29 its caller's frame pointer, sp as at
 *          the call (trace_caller's contract)
 *   state: EL1, MMU on, TPIDR_EL1 = this CPU's struct percpu, any DAIF
 *   does:  with IRQ/FIQ masked, unless this CPU is inside a callback
 *          (percpu->trace_callback_daif, the recursion guard of
 *          entry.S): pushes a frame
 *          {fp = x29, sp, ret = x9, ts = now, site, owner, flags =
 *          FGRAPH_FLAG_FAST, aux = 0} on this CPU's shadow stack and
 *          makes the return address fgraph_return (profile_return for
 *          the profiler); the graph entry also appends a kind-3 record
 *          (site in two bytes, depth), counts the depth and adds one to
 *          the ring's graph_open, which its frame keeps as its key (the
 *          others leave the key as it was: no exit of theirs reads it).
 *          Continues at func + 8 with x30 = the return address (x9 as
 *          it came when nothing was hooked).
 *          Anything unusual changes nothing and branches to trace_caller
 *          (the C callback through the site's literal): hooking stopped,
 *          a full shadow stack, frames a longjmp abandoned (or a second
 *          hook on this call: the top frame's sp is not above ours), no
 *          room inline in the ring.
 *   clobbers: x10-x18
 *
 * Contract (fgraph_fast_exit):
 *   in:    from fgraph_return: IRQ/FIQ masked, x10 = the DAIF to restore,
 *          x11 = this CPU's struct percpu, x12 = its shadow stack, w13 =
 *          its top (>= 1), x14 = x12 + top * frame size, so the top
 *          frame is at x14 + REC_TOP_FRAME; it has
 *          FGRAPH_FLAG_FAST and matches this return (fp and sp), w15 =
 *          its owner | flags << 8 (one halfword load); x0-x8
 *          the function's return values, x29 and sp as it returned
 *   does:  pops the frame; for a graph frame counts the depth down and
 *          appends a return (kind 6, the header alone: wire.md 2.1)
 *          when its key is the ring's graph_open (its entry is the
 *          reader's innermost open one of this block), taking one off
 *          it, else a kind-2 record (site in two bytes, duration, no
 *          return value);
 *          for a profiler frame (none is popped here: its call returns
 *          to profile_return) goes to fgraph_return_c; for a histogram
 *          frame adds it to its bucket and
 *          sum (hist_exit's work when this CPU's rows are current);
 *          restores DAIF and returns to the saved address with x30 =
 *          it. With no room inline in the ring, or histogram rows
 *          missing, not current (a clear to apply first)
 *          or without a slot for the site, it changes nothing and goes
 *          to fgraph_return_c.
 *   clobbers: x9-x18
 *   A frame keeps the choice made when it was pushed: one pushed fast
 *   before the graph options changed (the tracer was stopped, an option
 *   set and the tracer started again while the call was still open) is
 *   popped without a return value or threshold.
 *
 * FP/SIMD: none used.
 */
#include "core/recorder.h"

/* The common part of the entries: checks, then pushes the frame. Out:
 * x11 = this CPU's ring (when \ring), x12 = shadow stack, w15 = site,
 * x16 = the ring's wr (when \ring), x18 = now, x9 as it came (the
 * real return address); when \ring (the graph entry, which always
 * writes its kind 3 after this), the frame's key is the ring's
 * graph_open + 1, stored back (the time and the count of events, in
 * ts_events, are the record's own: REC_TAKE_DELTA, REC_COMMIT). The
 * caller then returns with HOOK_RETURN (its return hook), or HOOK_PASS
 * from \done. */
	.macro	HOOK_PUSH owner, ring, done, slow
	mrs	x10, daif
	msr	daifset, #3
	mrs	x11, tpidr_el1			// this CPU's struct percpu
	ldr	w16, [x11, #REC_PERCPU_CALLBACK_DAIF]
	cbnz	w16, \done			// inside a callback: not hooked
	ldp	x12, x18, [x11, #REC_PERCPU_FGRAPH]	// st, the site look-up base
	ldp	w13, w16, [x12, #REC_FG_TOP]	// top, stopped (fgraph_stopped)
	cbnz	w16, \slow
	mov	w14, #REC_FG_FRAME_SIZE
	umaddl	x14, w13, w14, x12		// + REC_FG_FRAMES: &frames[top]
	mov	x17, sp
	cbz	w13, .Lempty\@
	cmp	w13, #REC_FG_DEPTH
	b.hs	\slow			// full: the C path says so
	ldr	x16, [x14, #(REC_FG_FRAMES - REC_FG_FRAME_SIZE + REC_FRAME_SP)]
	cmp	x16, x17
	b.ls	\slow			// abandoned frames, or hooked twice
.Lempty\@:
	.if \ring
	ldr	x11, [x11, #REC_PERCPU_RING]
	ldp	x16, x15, [x11, #REC_RING_WR]
	cmp	x16, x15
	b.hs	\slow			// no block, full, paused or ended
	.endif
	lsr	x15, x30, #2
	ldrh	w15, [x18, x15]			// site
	isb
	mrs	x18, cntvct_el0			// now
	stp	x29, x17, [x14, #(REC_FG_FRAMES + REC_FRAME_FP)]	// fp, sp
	movk	x15, #(\owner | 0x80 << 8), lsl #32	// site word: site, owner,
	add	w13, w13, #1			//   FGRAPH_FLAG_FAST, aux 0
	str	w13, [x12, #REC_FG_TOP]
	.if \ring
	stp	x18, x15, [x14, #(REC_FG_FRAMES + REC_FRAME_TS)]	// ts, site word
	ldr	x17, [x11, #REC_RING_GRAPH_OPEN]
	add	x17, x17, #1			// the kind 3 after this opens one more
	stp	x17, x9, [x14, #(REC_FG_FRAMES + REC_FRAME_KEY)]	// key, ret
	str	x17, [x11, #REC_RING_GRAPH_OPEN]
	.else
	stp	x9, x18, [x14, #(REC_FG_FRAMES + REC_FRAME_RET)]	// ret, ts
	str	x15, [x14, #(REC_FG_FRAMES + REC_FRAME_SITE)]	// site word
	.endif
	.endm

/* Hooked: back to func + 8 (in x30) with x30 = \hook (this file: in
 * reach of ADR). */
	.macro	HOOK_RETURN hook
	mov	x16, x30
	adr	x30, \hook
	msr	daif, x10
	ret	x16
	.endm

/* Not hooked: back to func + 8 with x30 = x9, the real return address. */
	.macro	HOOK_PASS
	msr	daif, x10
	mov	x16, x30
	mov	x30, x9
	ret	x16
	.endm

	.text
	.balign	16
	.globl	trace_rec_graph
	.type	trace_rec_graph, %function
trace_rec_graph:
	HOOK_PUSH REC_OWNER_GRAPH, 1, .Ldone1, .Lslow1
	ldr	w14, [x12, #REC_FG_GRAPH_DEPTH]	// depth
	add	w17, w14, #1
	str	w17, [x12, #REC_FG_GRAPH_DEPTH]
	REC_TAKE_DELTA x11, x18, x13, x12	// x12: ts_events for the commit
	cmp	w14, #0x80			// depth below 0x80: one byte
	ccmp	x13, #31, #2, lo		// and delta < 31 (a long one sets C)
	b.hs	.Lentry_long
	orr	w13, w13, #(REC_KIND_GRAPH_ENTRY << 5)
	orr	w13, w13, w15, lsl #8		// site: two bytes, any number
	orr	w13, w13, w14, lsl #24
	str	w13, [x16], #4			// header, site, depth
.Lentry_commit:
	REC_COMMIT x11, x16, x18, x12
	HOOK_RETURN fgraph_return
.Ldone1:
	HOOK_PASS
.Lentry_long:
	REC_PUT_HEADER REC_KIND_GRAPH_ENTRY, x13, w13, x16, .Lentry_long_delta
.Lentry_site:
	strh	w15, [x16], #2
	REC_PUT_VARINT x14, w14, w17, x16
	b	.Lentry_commit
.Lentry_long_delta:
	mov	w17, #(REC_KIND_GRAPH_ENTRY << 5 | 31)
	strb	w17, [x16], #1
	REC_PUT_VARINT x13, w13, w17, x16
	b	.Lentry_site
.Lslow1:
	msr	daif, x10
	b	trace_caller
	.size	trace_rec_graph, . - trace_rec_graph

	.balign	16
	.globl	trace_rec_profile
	.type	trace_rec_profile, %function
trace_rec_profile:
	HOOK_PUSH REC_OWNER_PROFILE, 0, .Ldone2, .Lslow2
	HOOK_RETURN profile_return
.Ldone2:
	HOOK_PASS
.Lslow2:
	msr	daif, x10
	b	trace_caller
	.size	trace_rec_profile, . - trace_rec_profile

	.balign	16
	.globl	trace_rec_hist
	.type	trace_rec_hist, %function
trace_rec_hist:
	HOOK_PUSH REC_OWNER_HIST, 0, .Ldone3, .Lslow3
	HOOK_RETURN fgraph_return
.Ldone3:
	HOOK_PASS
.Lslow3:
	msr	daif, x10
	b	trace_caller
	.size	trace_rec_hist, . - trace_rec_hist

/*
 * fgraph_return: where a hooked function returns to. Here, next to the
 * entries that form its address (one ADR) and the fast exit it falls
 * into.
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
 *   core's own exit handlers (graph_exit, profile_exit, hist_exit), built
 *   -mgeneral-regs-only; there is no application return hook. One that
 *   is added must save q0-q7, FPCR and FPSR as trace/core/fp_call.S does.
 */
	.balign	16
	.globl	fgraph_return
	.type	fgraph_return, %function
fgraph_return:
	mrs	x10, daif
	msr	daifset, #3			// the shadow stack is this CPU's, masked
	mrs	x11, tpidr_el1
	ldr	x12, [x11, #REC_PERCPU_FGRAPH]	// st
	ldr	w13, [x12, #REC_FG_TOP]		// 0: frames[-1] is no_fp, no_sp (0),
	add	w14, w13, w13, lsl #1		//   which no return matches
	add	x14, x12, w14, uxtw #4		// st + top * 48: frames[top - 1] at
	.if	REC_FG_FRAME_SIZE != 48		//   x14 + REC_TOP_FRAME
	.error	"the two adds above multiply by 48"
	.endif
	.if	REC_TOP_FRAME + REC_FRAME_OWNER != 12	// top 0: the halfword above
	.error	"an empty stack's owner and flags must be inside's low half"
	.endif
	ldrh	w15, [x14, #(REC_TOP_FRAME + REC_FRAME_OWNER)]	// owner | flags << 8
	tbz	w15, #(8 + REC_FRAME_FAST_BIT), fgraph_return_c	// (top 0: inside's
						//   low half, < 0x8000)
	ldp	x16, x17, [x14, #(REC_TOP_FRAME + REC_FRAME_FP)]	// fp, sp at the call
	cmp	sp, x17
	ccmp	x16, x29, #0, eq
	b.ne	fgraph_return_c			// empty, abandoned frames or a mismatch
	.size	fgraph_return, . - fgraph_return
	// falls into fgraph_fast_exit, x10-x15 as its contract says
	.globl	fgraph_fast_exit
	.type	fgraph_fast_exit, %function
fgraph_fast_exit:
	tbz	w15, #0, fgraph_return_c	// owner: graph 1, profile 2 (pushed
						// fast, it returns to profile_return), hist 3
	tbnz	w15, #1, .Lhist_exit
	ldr	x11, [x11, #REC_PERCPU_RING]
	ldp	x16, x17, [x11, #REC_RING_WR]
	cmp	x16, x17			// (the room left holds an exit record)
	b.hs	fgraph_return_c			// wr NULL, full, paused or ended
	isb
	mrs	x17, cntvct_el0			// now
	ldp	x15, x30, [x14, #(REC_TOP_FRAME + REC_FRAME_KEY)]	// key, ret
	sub	w13, w13, #1
	str	w13, [x12, #REC_FG_TOP]		// popped
	ldr	w13, [x12, #REC_FG_GRAPH_DEPTH]
	sub	w13, w13, #1
	str	w13, [x12, #REC_FG_GRAPH_DEPTH]
	REC_TAKE_DELTA x11, x17, x13, x9	// x9: ts_events for the commit
	ldr	x18, [x11, #REC_RING_GRAPH_OPEN]
	cmp	x15, x18			// its entry: the reader's innermost
	b.ne	.Lexit_whole			//   open one of this block?
	sub	x18, x18, #1
	str	x18, [x11, #REC_RING_GRAPH_OPEN]	// one fewer open
	cmp	x13, #31
	b.hs	.Lreturn_long
	orr	w13, w13, #(REC_KIND_RETURN << 5)
	strb	w13, [x16], #1			// a return: the header alone
.Lexit_commit:
	REC_COMMIT x11, x16, x17, x9
	msr	daif, x10
	ret
.Lreturn_long:
	mov	w12, #(REC_KIND_RETURN << 5 | 31)
	strb	w12, [x16], #1
	REC_PUT_VARINT x13, w13, w12, x16
	b	.Lexit_commit
.Lexit_whole:					// a kind 2 with site and duration
	ldr	x18, [x14, #(REC_TOP_FRAME + REC_FRAME_TS)]
	sub	x18, x17, x18			// duration
	ldr	w15, [x14, #(REC_TOP_FRAME + REC_FRAME_SITE)]
	cmp	x13, #31
	b.hs	.Lexit_long
	orr	w13, w13, #(REC_KIND_EXIT << 5)
	orr	w13, w13, w15, lsl #8
	str	w13, [x16], #3			// header, site: two bytes (a 4th
						// the duration overwrites)
.Lexit_duration:
	REC_PUT_VARINT x18, w18, w12, x16
	strb	wzr, [x16], #1			// flags: no return value
	b	.Lexit_commit
.Lexit_long:
	REC_PUT_HEADER REC_KIND_EXIT, x13, w13, x16, .Lexit_long_delta
.Lexit_site:
	strh	w15, [x16], #2
	b	.Lexit_duration
.Lexit_long_delta:
	mov	w12, #(REC_KIND_EXIT << 5 | 31)
	strb	w12, [x16], #1
	REC_PUT_VARINT x13, w13, w12, x16
	b	.Lexit_site

/* As hist_exit (trace/tracers/hist.c) when this CPU's rows are current. */
.Lhist_exit:
	adrp	x16, hist_fast
	add	x16, x16, :lo12:hist_fast
	ldr	w17, [x11, #REC_PERCPU_CPU]	// cpu
	add	x9, x16, x17, lsl #2
	ldr	w9, [x9, #REC_HIST_SEEN]	// seen[cpu]: this CPU's own
	ldr	w18, [x16, #REC_HIST_EPOCH]
	cmp	w9, w18
	b.ne	fgraph_return_c			// a clear to apply: hist_exit zeroes
	add	x9, x16, x17, lsl #3
	ldr	x9, [x9, #REC_HIST_ROWS]	// rows[cpu]
	ldr	x17, [x16, #REC_HIST_SLOT_OF]
	cbz	x9, fgraph_return_c
	cbz	x17, fgraph_return_c
	ldr	w15, [x14, #(REC_TOP_FRAME + REC_FRAME_SITE)]
	ldrb	w15, [x17, x15]			// slot + 1, 0: none
	cbz	w15, fgraph_return_c
	isb
	mrs	x17, cntvct_el0			// now
	ldr	x18, [x14, #(REC_TOP_FRAME + REC_FRAME_TS)]
	sub	x18, x17, x18			// duration
	ldr	x30, [x14, #(REC_TOP_FRAME + REC_FRAME_RET)]
	sub	w13, w13, #1
	str	w13, [x12, #REC_FG_TOP]		// popped
	sub	w15, w15, #1
	mov	w16, #REC_HIST_ROW_SIZE
	umaddl	x9, w15, w16, x9		// &rows[cpu][slot]
	clz	x16, x18
	mov	w17, #64
	sub	w16, w17, w16			// bucket = 64 - clz (0 for 0 ticks)
	cmp	w16, #64
	mov	w17, #63
	csel	w16, w17, w16, eq		// 64: bucket 63 takes the rest
	ldr	x17, [x9, x16, lsl #3]		// bucket[b]++
	add	x17, x17, #1
	str	x17, [x9, x16, lsl #3]
	ldr	x17, [x9, #REC_HIST_SUM]	// sum += duration
	add	x17, x17, x18
	str	x17, [x9, #REC_HIST_SUM]
	msr	daif, x10
	ret
	.size	fgraph_fast_exit, . - fgraph_fast_exit

/*
 * profile_return: where a call hooked by trace_rec_profile returns; the
 * profiler's exit, all of it in the common case.
 *
 * Contract (profile_return):
 *   in:    reached by the traced function's RET (trace_rec_profile made
 *          its x30 this address), so x0-x7 and x8 hold its return
 *          values, x29 its caller's frame pointer, sp as before the call
 *   state: EL1, MMU on, any DAIF
 *   does:  with IRQ/FIQ masked, when the top frame of this CPU's shadow
 *          stack matches this return (fp and sp): pops it, adds the
 *          call to its site's row of this CPU's profile rows (calls + 1,
 *          total + duration, min, max; duration = now - ts), restores
 *          DAIF and returns to the frame's return address with x30 = it.
 *          Anything else (an empty stack, frames a longjmp abandoned
 *          above this call's, a frame pointer that differs) goes to
 *          fgraph_return_c with nothing changed, which unwinds or
 *          reports as for every other hook.
 *   why the matching top frame is this call's profiler frame: only
 *          trace_rec_profile makes a return profile_return, after
 *          pushing a frame with this call's sp; a frame pushed later
 *          with the same sp (a tail call from the hooked function, or a
 *          second tracer in C) hooks its own return to fgraph_return,
 *          which pops it first; frames are in SP order (fgraph.h).
 *   why the rows are there: trace_rec_profile is a site's target only
 *          while the profiler is registered, which trace_profile() does
 *          after profile_alloc() gave every CPU its rows; they are
 *          never freed (trace/tracers/profile.c).
 *   clobbers: x9-x18 (caller-saved across the call that just returned)
 *   FP/SIMD: none used (q0-q7, FPCR and FPSR are the program's).
 */
	.balign	16
	.globl	profile_return
	.type	profile_return, %function
profile_return:
	mrs	x10, daif
	msr	daifset, #3			// the stack and rows are this CPU's, masked
	mrs	x11, tpidr_el1
	ldp	x9, x12, [x11, #REC_PERCPU_PROFILE]	// rows, st
	ldr	w13, [x12, #REC_FG_TOP]		// 0: frames[-1] is no_fp, no_sp (0),
	add	w14, w13, w13, lsl #1		//   which no return matches
	add	x14, x12, w14, uxtw #4		// st + top * 48: frames[top - 1] at
						//   x14 + REC_TOP_FRAME
	ldp	x16, x17, [x14, #(REC_TOP_FRAME + REC_FRAME_FP)]	// fp, sp at the call
	cmp	sp, x17
	ccmp	x16, x29, #0, eq
	b.ne	fgraph_return_c			// empty, abandoned frames or a mismatch
	isb
	mrs	x17, cntvct_el0			// now
	ldp	x30, x18, [x14, #(REC_TOP_FRAME + REC_FRAME_RET)]	// ret, ts
	ldr	w15, [x14, #(REC_TOP_FRAME + REC_FRAME_SITE)]
	sub	x18, x17, x18			// duration
	sub	w13, w13, #1
	str	w13, [x12, #REC_FG_TOP]		// popped
	add	x9, x9, x15, lsl #REC_PROFILE_STAT_SHIFT	// &rows[site]
	ldp	x16, x17, [x9]			// calls, total
	add	x16, x16, #1
	add	x17, x17, x18
	stp	x16, x17, [x9]
	ldp	x16, x17, [x9, #16]		// min, max
	cmp	x18, x16
	csel	x16, x18, x16, lo
	cmp	x18, x17
	csel	x17, x18, x17, hi
	stp	x16, x17, [x9, #16]
	msr	daif, x10
	ret
	.size	profile_return, . - profile_return
