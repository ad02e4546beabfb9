/*
 * tools/baretrace/model/flame.c: calls merged by call path, the tree behind
 * folded stacks and flame graphs.
 *
 * Graph exits build it (callstack.c decides who is whose child, by
 * containment, with or without entries). A returned call becomes a node;
 * the children it claims are moved under it, merged by name. A call no
 * exit can claim any more (outermost, handed on early, or still waiting
 * at the end of the trace) goes into the tree under the open frames that
 * hold it: their names form its path, with "CPU n" first in per-CPU mode.
 * Function-entry records build a second, two-level tree of caller and
 * function with call counts.
 *
 * Memory is the merged tree (bounded by the program's call structure)
 * plus the subtrees of calls that wait for their caller.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/symtab.h"

#include "flame.h"
#include "model.h"

/* ---- names: one copy of each, so nodes compare names by pointer ---------- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

const char *bt_flame_name(struct bt_flame *fl, const char *name)
{
	size_t i;

	if (2 * (fl->nnames + 1) > fl->names_cap) {	/* at most half full */
		char **old = fl->names;
		size_t oldcap = fl->names_cap;

		fl->names_cap = oldcap ? 2 * oldcap : 256;
		fl->names = bt_alloc(fl->names_cap * sizeof(*fl->names));
		for (size_t k = 0; k < oldcap; k++) {
			if (!old[k])
				continue;
			for (i = hash_str(old[k]) & (fl->names_cap - 1); fl->names[i];)
				i = (i + 1) & (fl->names_cap - 1);
			fl->names[i] = old[k];
		}
		free(old);
	}
	for (i = hash_str(name) & (fl->names_cap - 1); fl->names[i]; i = (i + 1) & (fl->names_cap - 1))
		if (!strcmp(fl->names[i], name))
			return fl->names[i];
	fl->nnames++;
	return fl->names[i] = bt_strndup(name, strlen(name));
}

/* ---- nodes ----------------------------------------------------------------- */

static uint32_t node_new(struct bt_flame *fl, const char *name)
{
	uint32_t i;

	if (fl->free_list) {
		i = fl->free_list;
		fl->free_list = fl->n[i].next;
	} else {
		fl->n = bt_grow(fl->n, &fl->cap, fl->len + 1, sizeof(*fl->n));
		i = (uint32_t)fl->len++;
	}
	fl->n[i] = (struct bt_fnode){ .name = name };
	return i;
}

static uint32_t find_child(const struct bt_flame *fl, uint32_t parent, const char *name)
{
	uint32_t c = fl->n[parent].child;

	while (c && fl->n[c].name != name)
		c = fl->n[c].next;
	return c;
}

/* The child of 'parent' called 'name' (interned), made if missing. */
static uint32_t child_named(struct bt_flame *fl, uint32_t parent, const char *name)
{
	uint32_t c = find_child(fl, parent, name);

	if (!c) {
		c = node_new(fl, name);
		fl->n[c].next = fl->n[parent].child;
		fl->n[parent].child = c;
	}
	return c;
}

/* Moves the subtree 'src' under 'dst', merged into a same-named child. */
static void adopt(struct bt_flame *fl, uint32_t dst, uint32_t src)
{
	uint32_t same = find_child(fl, dst, fl->n[src].name), c, next;

	if (!same) {
		fl->n[src].next = fl->n[dst].child;
		fl->n[dst].child = src;
		return;
	}
	fl->n[same].calls += fl->n[src].calls;
	fl->n[same].ticks += fl->n[src].ticks;
	fl->n[same].self += fl->n[src].self;
	for (c = fl->n[src].child; c; c = next) {
		next = fl->n[c].next;
		adopt(fl, same, c);
	}
	fl->n[src].next = fl->free_list;
	fl->free_list = src;
}

static const char *site_name(struct bt_flame *fl, uint64_t site)
{
	char nb[32];

	return bt_flame_name(fl, bt_func_name(fl->d, site, nb, sizeof(nb)));
}

/* Where a path starts: the root, then "CPU n" in per-CPU mode. */
static uint32_t base(struct bt_flame *fl, uint32_t root, unsigned cpu)
{
	char nb[32];

	if (!fl->per_cpu)
		return root;
	snprintf(nb, sizeof(nb), "CPU %u", cpu);
	return child_named(fl, root, bt_flame_name(fl, nb));
}

/* A call nothing will claim: into the tree under the frames holding it. */
static void place(struct bt_flame *fl, unsigned cpu, const struct bt_frame *f, unsigned nopen,
		  uint32_t node)
{
	uint32_t p = base(fl, BT_FLAME_GRAPH, cpu);

	for (unsigned i = 0; i < nopen; i++)
		p = child_named(fl, p, site_name(fl, f[i].site));
	adopt(fl, p, node);
}

static void on_spill(void *ctx, unsigned cpu, const struct bt_done *d, unsigned open)
{
	struct bt_flame *fl = ctx;

	place(fl, cpu, fl->stacks.cpu[cpu]->f, open, (uint32_t)d->tag);
}

void bt_flame_init(struct bt_flame *fl, struct bt_decoder *d, int per_cpu)
{
	memset(fl, 0, sizeof(*fl));
	fl->d = d;
	fl->per_cpu = per_cpu;
	fl->stacks.spill = on_spill;
	fl->stacks.ctx = fl;
	node_new(fl, bt_flame_name(fl, "all"));		/* BT_FLAME_GRAPH */
	node_new(fl, bt_flame_name(fl, "all"));		/* BT_FLAME_EDGES */
	node_new(fl, bt_flame_name(fl, "all"));		/* BT_FLAME_OTHER */
}

void bt_flame_record(struct bt_flame *fl, unsigned cpu, const struct wire_record *r)
{
	struct bt_exit x;
	uint32_t me;
	char nb[32];

	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		if (!r->has_caller)
			break;
		me = child_named(fl, base(fl, BT_FLAME_EDGES, cpu),
				 bt_flame_name(fl, bt_caller_name(&fl->d->syms, r->caller, nb,
								  sizeof(nb))));
		me = child_named(fl, me, site_name(fl, r->site));
		fl->n[me].calls++;
		fl->n[me].ticks++;
		fl->n[me].self++;
		fl->entries++;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&fl->stacks, cpu), r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT:
		bt_stack_exit(&fl->stacks, cpu, r, &x);
		me = node_new(fl, site_name(fl, r->site));
		fl->n[me].calls = 1;
		fl->n[me].ticks = r->duration;
		fl->n[me].self = r->duration > x.child_ticks ? r->duration - x.child_ticks : 0;
		for (size_t i = 0; i < x.nkids; i++)
			adopt(fl, me, (uint32_t)x.kids[i].tag);
		if (x.self)
			x.self->tag = me;
		else
			place(fl, cpu, bt_stack_of(&fl->stacks, cpu)->f, x.level, me);
		fl->exits++;
		break;
	}
}

void bt_flame_add(struct bt_flame *fl, const char *const *path, unsigned n, uint64_t calls,
		  uint64_t ticks)
{
	uint32_t p = BT_FLAME_OTHER;

	for (unsigned i = 0; i < n; i++)
		p = child_named(fl, p, bt_flame_name(fl, path[i]));
	fl->n[p].calls += calls;
	fl->n[p].ticks += ticks;
}

/* A frame's width: its own time, or its children's if they add up to more
 * (a frame known only as the caller of others). */
static uint64_t settle(struct bt_flame *fl, uint32_t i)
{
	uint64_t sum = 0;

	for (uint32_t c = fl->n[i].child; c; c = fl->n[c].next)
		sum += settle(fl, c);
	fl->n[i].value = sum > fl->n[i].ticks ? sum : fl->n[i].ticks;
	return fl->n[i].value;
}

void bt_flame_finish(struct bt_flame *fl)
{
	for (unsigned cpu = 0; cpu < BT_MAX_CPUS; cpu++) {
		struct bt_stack *s = fl->stacks.cpu[cpu];

		for (size_t i = 0; s && i < s->ndone; i++)
			place(fl, cpu, s->f, bt_stack_holding(s, &s->done[i]),
			      (uint32_t)s->done[i].tag);
		if (s)
			s->ndone = 0;
	}
	bt_stacks_warn(&fl->stacks);
	for (uint32_t root = 0; root < BT_FLAME_ROOTS; root++)
		settle(fl, root);
}

void bt_flame_free(struct bt_flame *fl)
{
	for (size_t i = 0; i < fl->names_cap; i++)
		free(fl->names[i]);
	free(fl->names);
	free(fl->n);
	bt_stacks_free(&fl->stacks);
	memset(fl, 0, sizeof(*fl));
}
