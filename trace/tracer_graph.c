/*
 * trace/tracer_graph.c: the function_graph tracer: an entry record
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

#include "core.h"
#include "fgraph.h"
#include "ktime.h"
#include "percpu.h"
#include "ring.h"
#include "tracer.h"
#include "wire.h"

struct graph_options graph_opts;

static bool want_here(void)
{
	struct percpu *pc = this_cpu();

	if (!((trace_cpumask >> pc->cpu) & 1))
		return false;
	return pc->irq_depth ? trace_context & TRACE_CTX_IRQ : trace_context & TRACE_CTX_THREAD;
}

static void graph_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			struct trace_regs *regs)
{
	unsigned int site = trace_site_fast(ip);
	struct fgraph_stack *st = &fgraph_stacks[cpu_id()];
	const uint64_t *gf = graph_opts.graph_funcs;
	bool is_gf = gf && (gf[site / 64] >> (site % 64)) & 1;

	(void)parent;
	(void)ops;
	if ((gf && !is_gf && !st->inside) || !want_here())
		return;
	if (graph_opts.max_depth && st->graph_depth >= graph_opts.max_depth)
		return;
	uint64_t now = counter_read();
	struct fgraph_frame *f = fgraph_push(regs, site, FGRAPH_GRAPH, now);

	if (!f)
		return;
	uint32_t depth = st->graph_depth++;

	f->flags = is_gf;
	st->inside += is_gf;
	if (graph_opts.threshold)
		return;
	uint8_t *p = ring_reserve(WIRE_REC_GRAPH_ENTRY,
				  wire_varint_len(site) + wire_varint_len(depth));

	if (p) {
		p += wire_varint_put(p, site);
		wire_varint_put(p, depth);
		ring_commit();
	}
}

void graph_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now,
		uint64_t retval)
{
	uint64_t dur = now - f->ts;
	bool rv = graph_opts.retval;
	uint64_t zz = wire_zigzag((int64_t)retval);

	st->graph_depth--;
	st->inside -= f->flags;
	if (dur < graph_opts.threshold)
		return;
	uint8_t *p = ring_reserve(WIRE_REC_EXIT, wire_varint_len(f->site) + wire_varint_len(dur) +
				  1 + (rv ? wire_varint_len(zz) : 0));

	if (!p)
		return;
	p += wire_varint_put(p, f->site);
	p += wire_varint_put(p, dur);
	*p++ = rv ? WIRE_EXIT_HAS_RETVAL : 0;
	if (rv)
		wire_varint_put(p, zz);
	ring_commit();
}

struct trace_ops tracer_graph_ops = { .func = graph_entry };
