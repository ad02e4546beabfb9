/*
 * tools/baretrace/output/stats/stats_table.c: the figures `baretrace stats`
 * prints, built from one trace: calls, total, self (total less the time
 * in traced callees) and max per function, from graph exit records.
 * Exits with no entries (threshold mode) count the same: their children
 * are the calls inside their span (callstack.c). Function-entry records
 * are counted apart; profile dumps are kept as they came (profile.c).
 *
 * State is one aggregate per function and CPU (an open-addressed table
 * keyed by site and CPU; CPU ALL_CPUS for figures merged over CPUs),
 * the per-CPU stacks and the latest profile dumps; it does not grow with
 * the trace length. A trace is read into its own struct stats, so two
 * traces can be read one after the other (stats --diff).
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

#include "stats_int.h"

static size_t slot(const struct stats *s, uint64_t site, unsigned cpu)
{
	return (size_t)((site * 0x9e3779b97f4a7c15ull + cpu * 0xc2b2ae3d27d4eb4full) >> 20) &
	       (s->cap - 1);
}

static struct fn_stat *stat_of(struct stats *s, uint64_t site, unsigned cpu)
{
	static struct fn_stat spill;	/* where functions past the cap go */

	if (s->n >= MAX_FUNCS) {
		size_t i = slot(s, site, cpu);

		while (s->tab[i].used && (s->tab[i].site != site || s->tab[i].cpu != cpu))
			i = (i + 1) & (s->cap - 1);
		if (!s->tab[i].used) {
			s->spilled++;
			return &spill;
		}
		return &s->tab[i];
	}
	if (2 * (s->n + 1) > s->cap) {	/* keep the table at most half full */
		struct fn_stat *old = s->tab;
		size_t oldcap = s->cap;

		s->cap = s->cap ? s->cap * 2 : 256;
		s->tab = bt_alloc(s->cap * sizeof(*s->tab));
		s->n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].used)
				*stat_of(s, old[i].site, old[i].cpu) = old[i];
		free(old);
	}
	size_t i = slot(s, site, cpu);

	while (s->tab[i].used && (s->tab[i].site != site || s->tab[i].cpu != cpu))
		i = (i + 1) & (s->cap - 1);
	if (!s->tab[i].used) {
		s->tab[i].used = 1;
		s->tab[i].site = site;
		s->tab[i].cpu = cpu;
		s->n++;
	}
	return &s->tab[i];
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct stats *s = d->user;
	unsigned key = s->per_cpu ? cpu : ALL_CPUS;
	struct bt_exit x;

	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		stat_of(s, r->site, key)->r.entries++;
		s->entries++;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&s->stacks, cpu), r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT: {
		struct fn_stat *st;

		bt_stack_exit(&s->stacks, cpu, r, &x);
		st = stat_of(s, r->site, key);
		st->r.calls++;
		st->r.total += r->duration;
		st->r.self += r->duration > x.child_ticks ? r->duration - x.child_ticks : 0;
		if (r->duration > st->r.max)
			st->r.max = r->duration;
		if (bt_stack_spans_hole(bt_stack_of(&s->stacks, cpu), &x) && !st->r.spans_hole++)
			s->marked++;
		s->exits++;
		break;
	}
	default:
		s->others++;	/* events, messages, losses, extensions: no time */
		break;
	}
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	(void)events;
	(void)cause;
	bt_stack_hole(bt_stack_of(&((struct stats *)d->user)->stacks, cpu), d->books[cpu].ts);
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	bt_profile_add(&((struct stats *)d->user)->prof, f);
}

static const struct bt_visitor stats_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
};

int bt_stats_decode(struct bt_decoder *d, struct stats *s, const char *trace, const char *elf)
{
	bt_dec_init(d, &stats_visitor, s);
	if (elf)
		bt_dec_use_elf(d, elf);
	return bt_decode_file(d, trace);
}

void bt_stats_free(struct bt_decoder *d, struct stats *s)
{
	free(s->tab);
	bt_stacks_free(&s->stacks);
	bt_profile_free(&s->prof);
	bt_dec_free(d);
}
