/*
 * tools/baretrace/model/depths.c: how deep each graph exit sits, for report's
 * and the trace-cmd export's indentation. An exit with an entry has the
 * entry's depth: the second pass knows it from its own stack. One
 * without (threshold mode) is one deeper than the exit that contains
 * it, which comes later in the stream, or, if none does, as deep as the
 * frames open around it. So the trace is read once, quietly, before the
 * printing pass, and the answer kept for those exits only: 16 bytes per
 * exit without an entry (a threshold-only trace of 10M exits: 160 MB), nothing for one with an entry, so a trace with
 * entries costs no memory here however long it is. After an outcome
 * record report closes the calls still open on that CPU; from there on
 * every exit of that CPU is kept, since report may find no entry for an
 * exit this pass matched.
 */
#include <stdlib.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"

#include "model.h"

#define NO_PARENT	UINT32_MAX
#define NO_TAG		UINT64_MAX	/* a returned call with its depth fixed */

struct bt_depth {
	uint64_t ordinal;	/* the exit's, on its CPU */
	uint32_t parent;	/* index of the kept exit containing it, or NO_PARENT */
	uint32_t depth : 31;
	uint32_t fixed : 1;	/* the depth is known (an entry or a fixed parent) */
};

struct pass {
	struct bt_depths *dp;
	struct bt_stacks stacks;
};

static struct bt_depth *keep(struct bt_depths *dp, unsigned cpu, uint64_t k)
{
	dp->v[cpu] = bt_grow(dp->v[cpu], &dp->cap[cpu], dp->n[cpu] + 1, sizeof(*dp->v[cpu]));
	dp->v[cpu][dp->n[cpu]] = (struct bt_depth){ k, NO_PARENT, 0, 0 };
	return &dp->v[cpu][dp->n[cpu]++];
}

void bt_depths_record(struct bt_depths *dp, struct bt_stacks *st, unsigned cpu,
		      const struct wire_record *r)
{
	struct wire_ext x;
	struct bt_exit e;
	uint64_t k;
	uint64_t self = NO_TAG;

	dp->graph |= r->kind == WIRE_REC_GRAPH_ENTRY || r->kind == WIRE_REC_EXIT;
	dp->function |= r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER;
	if (r->kind == WIRE_REC_EXT && !wire_ext_parse(r, &x) && x.subtype == WIRE_EXT_OUTCOME)
		dp->keep_all[cpu] = 1;
	if (r->kind == WIRE_REC_GRAPH_ENTRY)
		bt_stack_enter(bt_stack_of(st, cpu), r->site, r->depth, r->ts);
	if (r->kind != WIRE_REC_EXIT)
		return;
	k = dp->exits[cpu]++;
	bt_stack_exit(st, cpu, r, &e);
	if (!e.matched || dp->keep_all[cpu]) {
		struct bt_depth *me = keep(dp, cpu, k);

		me->depth = (uint32_t)e.depth & 0x7fffffff;
		me->fixed = e.matched != 0;
		self = dp->n[cpu] - 1;
	}
	for (size_t i = 0; i < e.nkids; i++) {
		struct bt_depth *kid;

		if (e.kids[i].tag == NO_TAG)
			continue;	/* an entry gave its depth */
		kid = &dp->v[cpu][e.kids[i].tag];
		if (kid->fixed)
			continue;
		if (e.matched) {	/* the parent's depth is known now */
			kid->depth = ((uint32_t)e.depth + 1) & 0x7fffffff;
			kid->fixed = 1;
		} else {
			kid->parent = (uint32_t)self;
		}
	}
	if (e.self)
		e.self->tag = self;
}

void bt_depths_settle(struct bt_depths *dp)
{
	/* Callers come later in the stream, so settle from the end. */
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		for (size_t k = dp->n[c]; k-- > 0;) {
			struct bt_depth *e = &dp->v[c][k];

			if (!e->fixed && e->parent != NO_PARENT)
				e->depth = (dp->v[c][e->parent].depth + 1) & 0x7fffffff;
		}
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct pass *p = d->user;

	bt_depths_record(p->dp, &p->stacks, cpu, r);
}

static const struct bt_visitor depth_visitor = { .record = on_record };

void bt_depths_read(struct bt_depths *dp, const char *trace, const char *elf)
{
	static struct bt_decoder d;
	struct pass p = { .dp = dp };

	bt_dec_init(&d, &depth_visitor, &p);
	d.quiet = 1;		/* the printing pass says what is wrong */
	if (elf)
		bt_dec_use_elf(&d, elf);
	bt_decode_file(&d, trace);
	bt_dec_free(&d);
	bt_stacks_free(&p.stacks);
	bt_depths_settle(dp);
}

uint64_t bt_depth_of(struct bt_depths *dp, unsigned cpu, uint64_t k, uint64_t guess)
{
	size_t *at = &dp->at[cpu];

	/* Asked in increasing order of k: a cursor finds the kept ones. */
	while (*at < dp->n[cpu] && dp->v[cpu][*at].ordinal < k)
		(*at)++;
	return *at < dp->n[cpu] && dp->v[cpu][*at].ordinal == k ? dp->v[cpu][*at].depth : guess;
}

void bt_depths_free(struct bt_depths *dp)
{
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		free(dp->v[c]);
		dp->v[c] = NULL;
		dp->n[c] = dp->cap[c] = dp->at[c] = 0;
	}
}
