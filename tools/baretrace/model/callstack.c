/*
 * tools/baretrace/model/callstack.c: what each CPU is inside, rebuilt from
 * graph records.
 *
 * Two structures per CPU. The open frames come from graph entries; an
 * entry carries its depth, so a lost exit is healed at the next entry:
 * frames at or below the new depth are taken as ended. A stack deeper
 * than BT_STACK_MAX keeps its bottom frames and counts the rest.
 *
 * The 'done' list holds calls that returned and that no later exit has
 * claimed yet. Every exit knows its span, [ts - duration, ts], and calls
 * on one CPU nest (docs/wire.md 2.7), so an exit's children are exactly
 * the unclaimed calls inside its span: the tail of the list. That holds
 * with or without entries, so threshold traces (exits only) nest the
 * same way as full ones. Exit times are taken a little after the return,
 * so a child can seem to start a few ticks before its parent; a call is
 * claimed if it ends after the exit's start, and the parent's span is
 * widened to hold it, so spans nest for every reader.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/units.h"

#include "model.h"

struct bt_stack *bt_stack_of(struct bt_stacks *s, unsigned cpu)
{
	cpu %= BT_MAX_CPUS;
	if (!s->cpu[cpu])
		s->cpu[cpu] = bt_alloc(sizeof(*s->cpu[cpu]));
	return s->cpu[cpu];
}

void bt_stack_enter(struct bt_stack *s, uint64_t site, uint64_t depth, uint64_t ts)
{
	if (s->n && s->f[s->n - 1].depth >= depth)
		s->overflow = 0;	/* back inside the stored frames */
	while (s->n && s->f[s->n - 1].depth >= depth)
		s->n--;
	if (s->n < BT_STACK_MAX)
		s->f[s->n++] = (struct bt_frame){ .site = site, .depth = depth, .ts = ts,
						  .holes_at = s->holes };
	else
		s->overflow++;
}

void bt_stack_hole(struct bt_stack *s, uint64_t ts)
{
	s->holes++;
	s->hole_ts = ts;
}

int bt_stack_spans_hole(const struct bt_stack *s, const struct bt_exit *x)
{
	if (!s->holes)
		return 0;
	if (x->matched)
		return x->frame->holes_at != s->holes;
	/* No entry: its span reaches back past the latest hole. */
	return x->start < s->hole_ts;
}

int bt_stack_args(struct bt_stack *s, const struct wire_ext *x)
{
	struct bt_frame *f = s->n && !s->overflow ? &s->f[s->n - 1] : NULL;

	if (!f || f->site != x->site || f->nargs)
		return 0;
	f->nargs = bt_ext_args(x, f->args, BT_ARGS_MAX);
	return 1;
}

unsigned bt_stack_holding(const struct bt_stack *s, const struct bt_done *d)
{
	unsigned k = 0;

	/* Open frames are nested, so those that began before d ended are a
	 * prefix of the stack; all of them are still running, so hold it. */
	while (k < s->n && (s->f[k].ts < d->end || s->f[k].ts <= d->start))
		k++;
	return k;
}

/* Makes room in 'done' by handing its older half on. */
static void spill(struct bt_stacks *ss, unsigned cpu, struct bt_stack *s)
{
	size_t half = s->ndone / 2;

	for (size_t i = 0; i < half; i++) {
		const struct bt_done *d = &s->done[i];
		unsigned open = bt_stack_holding(s, d);

		if (open) {	/* its caller is still running: charge it there */
			s->f[open - 1].child_ticks += d->ticks;
		} else {
			s->spill_loose = 1;
			s->spill_start = d->start;
		}
		if (ss->spill)
			ss->spill(ss->ctx, cpu, d, open);
		s->spilled++;
	}
	memmove(s->done, s->done + half, (s->ndone - half) * sizeof(*s->done));
	s->ndone -= half;
}

void bt_stack_exit(struct bt_stacks *ss, unsigned cpu, const struct wire_record *r,
		   struct bt_exit *x)
{
	struct bt_stack *s = bt_stack_of(ss, cpu);
	uint64_t end = r->ts, start = r->duration <= end ? end - r->duration : 0;
	uint64_t held = 0;
	size_t k;

	memset(x, 0, sizeof(*x));
	x->level = s->n;
	x->depth = s->n ? s->f[s->n - 1].depth + 1 : 0;
	if (s->overflow) {		/* the exit of a frame too deep to store */
		s->overflow--;
	} else {
		for (unsigned i = s->n; i-- > 0;) {
			if (s->f[i].site != r->site)
				continue;
			x->matched = 1;
			x->level = i;
			x->depth = s->f[i].depth;
			x->frame = &s->f[i];	/* stays readable until the next entry */
			held = s->f[i].child_ticks;
			s->n = i;
			break;
		}
	}
	/*
	 * Claim the unclaimed calls inside [start, end]. An earlier sibling
	 * cannot seem to overlap: its exit was recorded before this call
	 * was made, and this call's start is taken later than it was.
	 */
	for (k = s->ndone; k > 0; k--) {
		const struct bt_done *d = &s->done[k - 1];

		if (d->start < start && d->end <= start)
			break;
		if (d->start < start)
			start = d->start;
	}
	x->nkids = s->ndone - k;
	if (x->nkids) {
		s->kids = bt_grow(s->kids, &s->kids_cap, x->nkids, sizeof(*s->kids));
		memcpy(s->kids, s->done + k, x->nkids * sizeof(*s->kids));
	}
	x->kids = s->kids;
	s->ndone = k;
	x->child_ticks = held;
	for (size_t i = 0; i < x->nkids; i++)
		x->child_ticks += s->kids[i].ticks;
	if (s->spill_loose && start <= s->spill_start) {
		s->misnested++;		/* one of its children was handed on early */
		s->spill_loose = 0;
	}
	x->start = start;
	x->end = end;
	/* Depth 0 is the outermost traced call: nothing will claim it. */
	if (x->matched && x->depth == 0)
		return;
	if (s->ndone >= BT_DONE_MAX)
		spill(ss, cpu, s);
	s->done = bt_grow(s->done, &s->done_cap, s->ndone + 1, sizeof(*s->done));
	x->self = &s->done[s->ndone++];
	*x->self = (struct bt_done){ start, end, r->duration, 0 };
}

void bt_stacks_warn(struct bt_stacks *s)
{
	uint64_t spilled = 0, misnested = 0;

	for (unsigned i = 0; i < BT_MAX_CPUS; i++)
		if (s->cpu[i]) {
			spilled += s->cpu[i]->spilled;
			misnested += s->cpu[i]->misnested;
		}
	if (misnested)
		bt_warn("%llu calls returned with more than %u unclaimed calls before them: %llu "
			"calls were taken as having no caller, some wrongly",
			(unsigned long long)misnested, BT_DONE_MAX, (unsigned long long)spilled);
}

void bt_stacks_free(struct bt_stacks *s)
{
	for (unsigned i = 0; i < BT_MAX_CPUS; i++) {
		if (s->cpu[i]) {
			free(s->cpu[i]->done);
			free(s->cpu[i]->kids);
		}
		free(s->cpu[i]);
		s->cpu[i] = NULL;
	}
}
