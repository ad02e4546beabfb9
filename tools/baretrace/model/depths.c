/*
 * tools/baretrace/model/depths.c: how deep each graph exit sits, for report's
 * indentation. An exit with an entry has the entry's depth. One without
 * (threshold mode) is one deeper than the exit that contains it, which
 * comes later in the stream, or, if none does, as deep as the frames
 * open around it. So the trace is read once, quietly, before report
 * prints it: the answer is 12 bytes per exit, indexed by each exit's
 * ordinal on its CPU.
 */
#include <stdlib.h>

#include "../bt.h"

#define NO_PARENT	UINT32_MAX

struct bt_depth {
	uint32_t parent;	/* ordinal of the exit containing it, or NO_PARENT */
	uint32_t depth;
	int fixed;		/* its entry gave the depth */
};

struct pass {
	struct bt_depths *dp;
	struct bt_stacks stacks;
};

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct pass *p = d->user;
	struct bt_depths *dp = p->dp;
	struct bt_exit x;
	uint64_t k = dp->n[cpu];

	dp->graph |= r->kind == WIRE_REC_GRAPH_ENTRY || r->kind == WIRE_REC_EXIT;
	dp->function |= r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER;
	if (r->kind == WIRE_REC_GRAPH_ENTRY)
		bt_stack_enter(bt_stack_of(&p->stacks, cpu), r->site, r->depth, r->ts);
	if (r->kind != WIRE_REC_EXIT)
		return;
	bt_stack_exit(&p->stacks, cpu, r, &x);
	if (x.self)
		x.self->tag = k;
	dp->v[cpu] = bt_grow(dp->v[cpu], &dp->cap[cpu], k + 1, sizeof(*dp->v[cpu]));
	dp->v[cpu][k] = (struct bt_depth){ NO_PARENT, (uint32_t)x.depth, x.matched };
	dp->n[cpu] = k + 1;
	for (size_t i = 0; i < x.nkids; i++)
		dp->v[cpu][x.kids[i].tag].parent = (uint32_t)k;
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
	/* Callers come later in the stream, so settle from the end. */
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		for (size_t k = dp->n[c]; k-- > 0;) {
			struct bt_depth *e = &dp->v[c][k];

			if (!e->fixed && e->parent != NO_PARENT)
				e->depth = dp->v[c][e->parent].depth + 1;
		}
}

uint64_t bt_depth_of(const struct bt_depths *dp, unsigned cpu, uint64_t k, uint64_t guess)
{
	return k < dp->n[cpu] ? dp->v[cpu][k].depth : guess;
}

void bt_depths_free(struct bt_depths *dp)
{
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		free(dp->v[c]);
		dp->v[c] = NULL;
		dp->n[c] = dp->cap[c] = 0;
	}
}
