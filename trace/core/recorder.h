/*
 * trace/core/recorder.h: what the code in assembly reads of C structures,
 * as offsets, and the record kinds it writes: the recorders that work
 * without the trampoline (trace/tracers/rec_function.S, rec_graph.S, the
 * fast return in fgraph_entry.S) and the trampoline's recursion guard
 * (entry.S). Each is checked against its C definition by
 * trace/tracers/tracer_function.c (_Static_assert), so a layout change
 * breaks the build, not the trace.
 */
#ifndef TRACE_RECORDER_H
#define TRACE_RECORDER_H

#define REC_PERCPU_CPU		0	/* struct percpu */
#define REC_PERCPU_IRQ_DEPTH	68
#define REC_PERCPU_CALLBACK_DAIF	108	/* the recursion guard (entry.S); 32 bits */
#define REC_PERCPU_RING		112
#define REC_PERCPU_PROFILE	120	/* then fgraph: one LDP (profile_return) */
#define REC_PERCPU_FGRAPH	128	/* then the site bias: one LDP (entries) */
#define REC_PERCPU_SITE_BIAS	136	/* trace_site_slot_bias, per CPU */
/* One LDP at REC_PERCPU_GUARD_PAIR reads the recursion guard (the high
 * half of the first register) and the ring: the guard, when set, holds
 * a DAIF value, which always has D (bit 9) set, as the kernel never
 * clears PSTATE.D (it clears only A and I: exception.c, barrier.h). */
#define REC_PERCPU_GUARD_PAIR	(REC_PERCPU_CALLBACK_DAIF - 4)
#define REC_GUARD_BIT		(32 + 9)

#define REC_RING_TS_EVENTS	32	/* struct ring_cpu: last_ts << 16 | cur_events, */
#define REC_RING_WR		40	/* wr, wr_fast_end */
#define REC_RING_CACHE_USED	64	/* nonzero: clear the cache at the next block */
#define REC_RING_GRAPH_OPEN	88	/* its own word (the time is in ts_events) */
#define REC_RING_CACHE		152
#define REC_TS_SHIFT		16	/* RING_TS_SHIFT */
#define REC_RING_CACHE_MASK	255	/* RING_CALLER_CACHE - 1 */

#define REC_FG_TOP		0	/* struct fgraph_stack: top, then */
#define REC_FG_STOPPED		4	/* stopped (one LDP) */
#define REC_FG_GRAPH_DEPTH	8
#define REC_FG_FRAMES		32	/* after no_fp, no_sp: frames[-1]'s fp, sp */
#define REC_FG_FRAME_SIZE	48	/* struct fgraph_frame */
#define REC_FG_DEPTH		128	/* FGRAPH_DEPTH */
#define REC_TOP_FRAME		(REC_FG_FRAMES - REC_FG_FRAME_SIZE)	/* frames[top - 1], */
				/* from the stack + top * frame size */
#define REC_FRAME_KEY		0	/* then ret: one LDP (the graph exit) */
#define REC_FRAME_RET		8	/* then ts: one LDP (the profiler's) */
#define REC_FRAME_TS		16
#define REC_FRAME_SITE		24	/* site (32 bits), owner, flags, aux */
#define REC_FRAME_OWNER		28
#define REC_FRAME_FLAGS		29
#define REC_FRAME_FP		32	/* then sp: one LDP; last, so that */
#define REC_FRAME_SP		40	/*   frames[-1]'s are the stack's no_fp, no_sp */
#define REC_OWNER_GRAPH		1	/* enum fgraph_owner */
#define REC_OWNER_PROFILE	2
#define REC_OWNER_HIST		3
#define REC_FRAME_FAST_BIT	7	/* FGRAPH_FLAG_FAST */
#define REC_PROFILE_STAT_SHIFT	5	/* struct profile_stat: 32 bytes */
#define REC_HIST_EPOCH		0	/* struct hist_fast (trace/tracers/hist.c) */
#define REC_HIST_SLOT_OF	8
#define REC_HIST_ROWS		16
#define REC_HIST_SEEN		80	/* 16 + 8 * NR_CPUS */
#define REC_HIST_ROW_SIZE	520	/* struct hist_row: 64 buckets, then */
#define REC_HIST_SUM		512	/* the sum */

#define REC_KIND_EXIT		2	/* WIRE_REC_EXIT */
#define REC_KIND_RETURN		6	/* WIRE_KIND_RETURN (version 5) */
#define REC_KIND_GRAPH_ENTRY	3	/* WIRE_REC_GRAPH_ENTRY */
/* Bytes of room the fast paths need: wr < wr_fast_end leaves
 * RING_FAST_ROOM (27), enough for any record they write, the largest
 * an exit record with no return value (11 + 5 + 10 + 1). */

#ifdef __ASSEMBLER__
/* Writes \xv as a varint at \p (advanced); \xv is consumed, \wt is a
 * scratch register. Values below 0x80 take three instructions. */
	.macro	REC_PUT_VARINT xv, wv, wt, p
.Lvarint\@:
	cmp	\xv, #0x80
	b.lo	.Lvarint_last\@
	orr	\wt, \wv, #0x80
	strb	\wt, [\p], #1
	lsr	\xv, \xv, #7
	b	.Lvarint\@
.Lvarint_last\@:
	strb	\wv, [\p], #1
	.endm

/* delta = now - the last record's time of ring \r, modulo 2^48
 * (ring_ts_delta); \word keeps ts_events for REC_COMMIT. Nothing is
 * stored. */
	.macro	REC_TAKE_DELTA r, now, delta, word
	ldr	\word, [\r, #REC_RING_TS_EVENTS]
	sub	\delta, \now, \word, lsr #REC_TS_SHIFT
	and	\delta, \delta, #0xffffffffffff
	.endm

/* The header byte of a \kind record at \p for a delta below 31; a
 * larger one branches to \long, which writes kind << 5 | 31 and then
 * the delta as a varint. */
	.macro	REC_PUT_HEADER kind, xd, wd, p, long
	cmp	\xd, #31
	b.hs	\long
	orr	\wd, \wd, #(\kind << 5)
	strb	\wd, [\p], #1
	.endm

/* The record ends at \p and was taken at \now; \word is ts_events as
 * REC_TAKE_DELTA read it: one STP makes \p ring \r's wr, \now its last
 * time and adds one to the block's events. */
	.macro	REC_COMMIT r, p, now, word
	add	\word, \word, #1
	bfi	\word, \now, #REC_TS_SHIFT, #(64 - REC_TS_SHIFT)
	stp	\word, \p, [\r, #REC_RING_TS_EVENTS]	// time, events; wr
	.endm
#endif

#endif /* TRACE_RECORDER_H */
