/*
 * trace/tracers/tracer_graph.c: the function_graph tracer: an entry record
 * (kind 3, with the depth) and an exit record with the duration (kind 2)
 * per call, through the return hooks of fgraph.c.
 *
 * Options (set while stopped, read by the callbacks):
 *   max_depth      record no deeper than this (0: no limit)
 *   graph funcs    record only calls beneath these functions
 *   threshold      record only calls that lasted at least this long, and
 *                  only their exits (a parent lasts longer than its child,
 *                  so the parents of a recorded call are recorded too)
 *   retval         put x0 at return in the exit record
 */
#include <stdbool.h>

#include "core/core.h"
#include "fgraph.h"
#include "ktime.h"
#include "percpu.h"
#include "ring/ring.h"
#include "tracer.h"
#include "wire.h"

struct graph_options graph_opts;
extern struct trace_ops tracer_graph_ops;

static bool want_here(struct percpu *pc)
{
	if (!((trace_cpumask >> pc->cpu) & 1))
		return false;
	return pc->irq_depth ? trace_context & TRACE_CTX_IRQ : trace_context & TRACE_CTX_THREAD;
}

/* A kind-3 or kind-2 record: inline when the block has room, else
 * through ring_reserve_at (which also handles pauses and full rings).
 * Either way the record's time is 'now', the time the frame holds
 * (entry) or the duration ends at (exit): docs/wire.md 2.1. An entry
 * that went in returns its frame's key: the ring's graph_open after
 * it, in the block it went into (0: not written). */
static uint64_t put_entry(struct ring_cpu *r, unsigned int site, uint32_t depth, uint64_t now)
{
	uint8_t *p = ring_put_begin(r, 11 + 2 + 5);

	if (p) {
		p = ring_put_header(p, WIRE_REC_GRAPH_ENTRY, ring_ts_delta(r->ts_events, now));
		p = ring_put_site(p, site);
		ring_put_done(r, ring_put_varint(p, depth), now);
		return ++r->graph_open;
	}
	p = ring_reserve_at(WIRE_REC_GRAPH_ENTRY, 2 + ring_varint_len(depth), now);
	if (!p)
		return 0;
	p = ring_put_site(p, site);
	ring_put_varint(p, depth);
	uint64_t key = ++r->graph_open;	/* interrupts masked: still this block */

	ring_commit();
	return key;
}

/* The fields of a kind-2 record after its header; returns its end. */
static inline uint8_t *exit_fields(uint8_t *p, unsigned int site, uint64_t dur, bool rv,
				   uint64_t zz)
{
	p = ring_put_site(p, site);
	p = ring_put_varint(p, dur);
	*p++ = rv ? WIRE_EXIT_HAS_RETVAL : 0;
	return rv ? ring_put_varint(p, zz) : p;
}

/* Out of line, so the inline path stays as short as it was. Always a
 * whole kind 2: the block may change under ring_reserve_at. */
static void __attribute__((noinline, cold)) put_exit_slow(unsigned int site, uint64_t dur,
							  bool rv, uint64_t zz, uint64_t now)
{
	uint8_t *p = ring_reserve_at(WIRE_REC_EXIT, 2 + ring_varint_len(dur) +
				     1 + (rv ? ring_varint_len(zz) : 0), now);

	if (p) {
		exit_fields(p, site, dur, rv, zz);
		ring_commit();
	}
}

/* The exit of frame f: a return, one byte (wire.md 2.1), when its entry
 * is the reader's innermost open one in this block and there is no
 * return value to carry; a kind 2 with the site and duration otherwise
 * (threshold mode, an entry in an earlier block, or entries above it
 * left open by frames that ended without an exit record). */
static void put_exit(struct ring_cpu *r, const struct fgraph_frame *f, uint64_t dur, bool rv,
		     uint64_t zz, uint64_t now)
{
	uint8_t *p = ring_put_begin(r, 11 + 2 + 10 + 1 + 10);

	if (!p)
		return put_exit_slow(f->site, dur, rv, zz, now);
	if (!rv && f->key == r->graph_open) {
		r->graph_open--;
		p = ring_put_header(p, WIRE_KIND_RETURN, ring_ts_delta(r->ts_events, now));
		return ring_put_done(r, p, now);
	}
	p = ring_put_header(p, WIRE_REC_EXIT, ring_ts_delta(r->ts_events, now));
	ring_put_done(r, exit_fields(p, f->site, dur, rv, zz), now);
}

static void graph_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			struct trace_regs *regs);

/* Out of line, so the common path of graph_entry keeps its short frame:
 * unwinds what a longjmp abandoned, then enters as usual. */
static void __attribute__((noinline, cold)) graph_entry_unwind(uintptr_t ip,
							      struct trace_regs *regs)
{
	struct fgraph_stack *st = this_cpu()->fgraph;

	fgraph_unwind(st, regs->sp, !fgraph_is_hook(regs->lr), counter_read());
	graph_entry(ip, 0, &tracer_graph_ops, regs);
}

static void graph_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			struct trace_regs *regs)
{
	struct percpu *pc = this_cpu();
	unsigned int site = trace_site_fast(ip);
	struct fgraph_stack *st = pc->fgraph;
	const uint64_t *gf = graph_opts.graph_funcs;
	bool is_gf = gf && (gf[site / 64] >> (site % 64)) & 1;

	(void)parent;
	(void)ops;
	/* Before the depth and graph-function tests: frames a longjmp
	 * abandoned still count in graph_depth and inside. */
	if (__builtin_expect(fgraph_abandoned(st, regs), 0))
		return graph_entry_unwind(ip, regs);
	if (gf && !is_gf && !st->inside)
		return;
	if (trace_filtered && !want_here(pc))
		return;
	if (graph_opts.max_depth && st->graph_depth >= graph_opts.max_depth)
		return;
	uint64_t now = counter_read();
	struct fgraph_frame *f = fgraph_push(st, regs, site, FGRAPH_GRAPH, now);

	if (!f)
		return;
	uint32_t depth = st->graph_depth++;

	f->flags = is_gf;
	st->inside += is_gf;
	f->key = graph_opts.threshold ? 0 : put_entry(pc->ring, site, depth, now);
}

void graph_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now,
		uint64_t retval, bool returned)
{
	uint64_t dur = now - f->ts;

	st->graph_depth--;
	st->inside -= f->flags & 1;	/* not FGRAPH_FLAG_FAST */
	if (dur >= graph_opts.threshold)
		put_exit(this_cpu()->ring, f, dur, graph_opts.retval && returned,
			 wire_zigzag((int64_t)retval), now);
}

extern char trace_rec_graph[];

/* Alone on a site, with no option set, the site calls trace_rec_graph (the
 * same frame and entry record as graph_entry, in assembly; the exit is
 * recorded by fgraph_return's fast path, as graph_exit would without a
 * return value). control decides (trace_pick_function_callback). */
struct trace_ops tracer_graph_ops = {
	.func = graph_entry, .direct_call = (uintptr_t)trace_rec_graph,
	.flags = TRACE_OPS_NO_FPSIMD
};
