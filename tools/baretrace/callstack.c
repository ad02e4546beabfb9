/*
 * tools/baretrace/callstack.c: what each CPU is inside, rebuilt from
 * graph records. Entries carry their depth, so a lost exit is healed at
 * the next entry: frames at or below the new depth are taken as ended.
 * A stack deeper than BT_STACK_MAX keeps its bottom frames and counts
 * the rest, whose exits then match nothing.
 */
#include <stdlib.h>

#include "bt.h"

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
		s->f[s->n++] = (struct bt_frame){ site, depth, ts, 0 };
	else
		s->overflow++;
}

int bt_stack_exit(struct bt_stack *s, uint64_t site, uint64_t duration,
		  struct bt_frame *out, unsigned *level)
{
	if (s->overflow) {	/* the exit of a frame too deep to store */
		s->overflow--;
		*out = (struct bt_frame){ site, 0, 0, 0 };
		*level = s->n;
		return 0;
	}
	for (unsigned i = s->n; i-- > 0;) {
		if (s->f[i].site != site)
			continue;
		*out = s->f[i];
		*level = i;
		s->n = i;
		if (i)
			s->f[i - 1].child_ticks += duration;
		else
			s->orphan_child_ticks += duration;
		return 1;
	}
	/* Entered before the trace began, or its entry was lost: children
	 * that ended with no frame to charge belong to it. */
	*out = (struct bt_frame){ site, s->n ? s->f[s->n - 1].depth + 1 : 0, 0,
				  s->orphan_child_ticks };
	*level = s->n;
	s->orphan_child_ticks = 0;
	if (s->n)
		s->f[s->n - 1].child_ticks += duration;
	else
		s->orphan_child_ticks += duration;
	return 0;
}

void bt_stacks_free(struct bt_stacks *s)
{
	for (unsigned i = 0; i < BT_MAX_CPUS; i++) {
		free(s->cpu[i]);
		s->cpu[i] = NULL;
	}
}
