/*
 * trace/tracers/tracer_function.c: the function tracer: one entry record, with
 * its caller, per call of every function its filter selects.
 */
#include <stdint.h>

#include "core/core.h"
#include "wire.h"
#include "ktime.h"
#include "percpu.h"
#include "ring/ring.h"
#include "core/recorder.h"
#include "fgraph.h"
#include "profile.h"
#include "tracer.h"

/* The recorders' view of the structures (recorder.h). */
_Static_assert(__builtin_offsetof(struct percpu, irq_depth) == REC_PERCPU_IRQ_DEPTH, "recorder.h");
_Static_assert(__builtin_offsetof(struct percpu, trace_callback_daif) == REC_PERCPU_CALLBACK_DAIF,
	       "recorder.h");
_Static_assert(sizeof(((struct percpu *)0)->trace_callback_daif) == 4, "recorder.h");
_Static_assert(__builtin_offsetof(struct percpu, ring) == REC_PERCPU_RING, "recorder.h");
_Static_assert(__builtin_offsetof(struct percpu, fgraph) == REC_PERCPU_FGRAPH, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, wr) == REC_RING_WR, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, wr_fast_end) == REC_RING_WR + 8, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, ts_events) == REC_RING_TS_EVENTS &&
	       __builtin_offsetof(struct ring_cpu, cur_events) == REC_RING_TS_EVENTS &&
	       RING_TS_SHIFT == REC_TS_SHIFT, "recorder.h");
_Static_assert(sizeof(((struct ring_cpu *)0)->cur_events) == 2, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, cache_used) == REC_RING_CACHE_USED, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, graph_open) == REC_RING_GRAPH_OPEN, "recorder.h");
_Static_assert(__builtin_offsetof(struct ring_cpu, cache) == REC_RING_CACHE, "recorder.h");
_Static_assert(RING_CALLER_CACHE - 1 == REC_RING_CACHE_MASK, "recorder.h");
_Static_assert(RING_CALLER_CACHE == WIRE_CALLER_CACHE, "the host keeps the same caller slots");
_Static_assert(WIRE_REC_FUNC == 0 && WIRE_REC_FUNC_CALLER == 1, "rec_function.S");
_Static_assert(__builtin_offsetof(struct percpu, profile) == REC_PERCPU_PROFILE &&
	       REC_PERCPU_FGRAPH == REC_PERCPU_PROFILE + 8 &&
	       REC_PERCPU_SITE_BIAS == REC_PERCPU_FGRAPH + 8, "recorder.h: one LDP each");
_Static_assert(__builtin_offsetof(struct percpu, trace_site_bias) == REC_PERCPU_SITE_BIAS,
	       "recorder.h");
_Static_assert(REC_PERCPU_GUARD_PAIR % 8 == 0 && REC_PERCPU_GUARD_PAIR + 8 == REC_PERCPU_RING,
	       "recorder.h: one LDP reads the guard and the ring");
_Static_assert(__builtin_offsetof(struct fgraph_stack, top) == REC_FG_TOP, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_stack, stopped) == REC_FG_STOPPED &&
	       REC_FG_STOPPED == REC_FG_TOP + 4, "recorder.h: one LDP");
_Static_assert(__builtin_offsetof(struct fgraph_stack, graph_depth) == REC_FG_GRAPH_DEPTH,
	       "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_stack, frames) == REC_FG_FRAMES, "recorder.h");
_Static_assert(sizeof(struct fgraph_frame) == REC_FG_FRAME_SIZE, "recorder.h");
_Static_assert(FGRAPH_DEPTH == REC_FG_DEPTH, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, ret) == REC_FRAME_RET, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, key) == REC_FRAME_KEY &&
	       REC_FRAME_RET == REC_FRAME_KEY + 8, "recorder.h: one LDP");
_Static_assert(REC_FRAME_SP == REC_FRAME_FP + 8 && REC_FRAME_TS == REC_FRAME_RET + 8 &&
	       REC_FRAME_SITE == REC_FRAME_TS + 8, "recorder.h: one LDP or STP each");
_Static_assert(__builtin_offsetof(struct fgraph_stack, no_fp) ==
	       REC_FG_FRAMES - REC_FG_FRAME_SIZE + REC_FRAME_FP &&
	       __builtin_offsetof(struct fgraph_stack, no_sp) ==
	       REC_FG_FRAMES - REC_FG_FRAME_SIZE + REC_FRAME_SP, "recorder.h: frames[-1]");
_Static_assert(__builtin_offsetof(struct fgraph_frame, fp) == REC_FRAME_FP, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, sp) == REC_FRAME_SP, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, ts) == REC_FRAME_TS, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, site) == REC_FRAME_SITE, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, owner) == REC_FRAME_OWNER, "recorder.h");
_Static_assert(__builtin_offsetof(struct fgraph_frame, flags) == REC_FRAME_FLAGS, "recorder.h");
/* fgraph_fast_exit tells the owners apart by bit 0 of one halfword
 * load of owner and flags; HOOK_PUSH writes the site word with one
 * MOVK of owner | flags << 8 above the site's 32 bits. */
_Static_assert((REC_OWNER_GRAPH & 1) && !(REC_OWNER_PROFILE & 1) &&
	       REC_FRAME_FLAGS == REC_FRAME_OWNER + 1 && REC_FRAME_OWNER == REC_FRAME_SITE + 4 &&
	       sizeof(((struct fgraph_frame *)0)->site) == 4, "recorder.h");
_Static_assert(FGRAPH_GRAPH == REC_OWNER_GRAPH && FGRAPH_PROFILE == REC_OWNER_PROFILE,
	       "recorder.h");
_Static_assert(FGRAPH_FLAG_FAST == 1 << REC_FRAME_FAST_BIT, "recorder.h");
_Static_assert(sizeof(struct profile_stat) == 1 << REC_PROFILE_STAT_SHIFT, "recorder.h");
_Static_assert(__builtin_offsetof(struct profile_stat, calls) == 0 &&
	       __builtin_offsetof(struct profile_stat, total) == 8 &&
	       __builtin_offsetof(struct profile_stat, min) == 16 &&
	       __builtin_offsetof(struct profile_stat, max) == 24, "rec_graph.S");
_Static_assert(WIRE_KIND_RETURN == REC_KIND_RETURN, "recorder.h");
_Static_assert(WIRE_REC_EXIT == REC_KIND_EXIT && WIRE_REC_GRAPH_ENTRY == REC_KIND_GRAPH_ENTRY,
	       "recorder.h");
_Static_assert(RING_FAST_ROOM >= 11 + 2 + 10 + 1 && RING_FAST_ROOM >= RING_FUNC_RECORD_MAX,
	       "recorder.h");
_Static_assert(REC_RING_TS_EVENTS + 8 == REC_RING_WR, "recorder.h: one STP");
_Static_assert(RING_BLOCK_SIZE < 1 << RING_TS_SHIFT, "ring_ts.h: a block's count fits below the time");

extern char trace_rec_function[];

/* Everything inline: this runs on every traced call (see make bench). */
void tracer_function_fast(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			  struct trace_regs *regs)
{
	/* Every online CPU has a ring while a tracer is registered. */
	struct ring_cpu *r = this_cpu()->ring;

	(void)ops;
	(void)regs;
	ring_put_func(r, trace_site_fast(ip), parent,
		      counter_read());
}

/* With a CPU mask or a context filter set (control.c picks). */
void tracer_function_filtered(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			      struct trace_regs *regs)
{
	struct percpu *pc = this_cpu();
	unsigned int ctx = pc->irq_depth ? TRACE_CTX_IRQ : TRACE_CTX_THREAD;

	if (((trace_cpumask >> pc->cpu) & 1) && (trace_context & ctx))
		tracer_function_fast(ip, parent, ops, regs);
}

/* Alone on a site, the site calls trace_rec_function (the same record as
 * tracer_function_fast, in assembly) unless a filter needs the C path. */
struct trace_ops tracer_function_ops = {
	.func = tracer_function_fast, .direct_call = (uintptr_t)trace_rec_function,
	.flags = TRACE_OPS_NO_FPSIMD | TRACE_OPS_ENTRY
};
