/*
 * tools/gentrace/walk.c: one CPU's random walk: a call or a return
 * (graph: durations and depths that nest, a return value on some exits;
 * threshold: the exits only), an entry and its caller (function).
 * Deterministic: rnd() is a xorshift seeded by main() from SEED.
 */
#include <stdint.h>

#include "gentrace.h"

uint64_t rng = 0x9e3779b97f4a7c15ull;
uint64_t slow_cpu = UINT64_MAX, slowness = 1;
int exits_only;

uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

void step(struct cpu *c, unsigned cpu, int graph)
{
	uint64_t ts = c->ts + (1 + rnd() % 40) * (cpu == slow_cpu ? slowness : 1);
	struct wire_record r = { 0 };
	/* Deeper calls return sooner: stacks stay a few frames deep. */
	int call = c->depth == 0 || (c->depth < MAX_DEPTH && rnd() % 100 < 56 - 4 * c->depth);

	if (!graph) {
		uint64_t site = rnd() % nsites;
		uint64_t caller = (0x1000 + (rnd() % nsites) * 64 + 16) / 4;

		if (c->last_site == site && rnd() % 4)
			caller = c->last_caller;
		r.kind = site == c->last_site && caller == c->last_caller ? WIRE_REC_FUNC
									  : WIRE_REC_FUNC_CALLER;
		r.site = site;
		r.caller = caller;
		c->last_site = site;
		c->last_caller = caller;
		record(c, cpu, &r, ts);
		return;
	}
	if (call) {
		uint64_t site = c->depth ? (c->site[c->depth - 1] * 31 + rnd() % 3) % nsites
					 : rnd() % 50;

		r.kind = WIRE_REC_GRAPH_ENTRY;
		r.site = site;
		r.depth = c->depth;
		c->key[c->depth] = 0;
		if (!exits_only) {
			record(c, cpu, &r, ts);
			c->key[c->depth] = c->entry_key;
		} else {
			c->ts = ts;
		}
		c->site[c->depth] = site;
		c->start[c->depth++] = ts;
		return;
	}
	c->depth--;
	r.kind = WIRE_REC_EXIT;
	r.site = c->site[c->depth];
	r.duration = ts - c->start[c->depth];
	if (rnd() % 4 == 0) {
		r.flags = WIRE_EXIT_HAS_RETVAL;
		r.retval = (int64_t)(rnd() % 200) - 20;
	}
	/* A return, as the target writes one: no value to carry, and its
	 * entry the innermost one still open in this block. */
	r.paired = !r.flags && c->key[c->depth] && c->key[c->depth] == c->open;
	record(c, cpu, &r, ts);
}
