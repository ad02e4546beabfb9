/*
 * tools/baretrace/output/stats.c: `baretrace stats`, a profile per function:
 * calls, total, self (total less the time in traced callees), average
 * and max, from graph exit records, sorted by total time. Exits with no
 * entries (threshold mode) count the same: their children are the calls
 * inside their span (callstack.c). A trace with only function-entry
 * records gives call counts and says so; profile dumps give the target
 * profiler's numbers (profile.c). --per-cpu splits every table by CPU.
 *
 * State is one aggregate per function and CPU (an open-addressed table
 * keyed by site and CPU), the per-CPU stacks and the latest profile
 * dumps; it does not grow with the trace length.
 */
#include <stdlib.h>
#include <string.h>

#include "../bt.h"

#define ALL_CPUS	BT_MAX_CPUS	/* the key of merged figures */

struct fn_stat {
	uint64_t site;
	unsigned cpu;
	int used;
	uint64_t calls, total, self, max;	/* from exits, in ticks */
	uint64_t entries;			/* function-entry records */
	int spans_hole;				/* a call was open across a hole */
	const char *name;			/* for sorting */
};

struct stats {
	struct fn_stat *tab;
	size_t cap, n;
	struct bt_stacks stacks;
	struct bt_profile prof;
	int per_cpu;
	uint64_t exits, entries, others;
	uint64_t spilled;	/* records of functions past MAX_FUNCS */
	uint64_t marked;	/* functions with a call across a hole */
};

/* Distinct functions kept; more can only come from damaged site numbers. */
#define MAX_FUNCS	(1u << 20)

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
		stat_of(s, r->site, key)->entries++;
		s->entries++;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&s->stacks, cpu), r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT: {
		struct fn_stat *st;

		bt_stack_exit(&s->stacks, cpu, r, &x);
		st = stat_of(s, r->site, key);
		st->calls++;
		st->total += r->duration;
		st->self += r->duration > x.child_ticks ? r->duration - x.child_ticks : 0;
		if (r->duration > st->max)
			st->max = r->duration;
		if (bt_stack_spans_hole(bt_stack_of(&s->stacks, cpu), &x) && !st->spans_hole++)
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

static int by_total(const void *a, const void *b)
{
	const struct fn_stat *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->calls + x->entries != y->calls + y->entries)
		return x->calls + x->entries > y->calls + y->entries ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* graph: functions with exits, by time; else those with entries only. */
static void print_table(struct bt_decoder *d, struct stats *s, int graph, unsigned cpu)
{
	struct fn_stat *v = bt_alloc(sizeof(*v) * (s->n + 1));
	char (*names)[32] = bt_alloc(sizeof(*names) * (s->n + 1));
	size_t k = 0;
	uint64_t freq = bt_freq(d);

	for (size_t i = 0; i < s->cap; i++) {
		if (!s->tab[i].used || s->tab[i].cpu != cpu ||
		    (graph ? !s->tab[i].calls : s->tab[i].calls || !s->tab[i].entries))
			continue;
		v[k] = s->tab[i];
		v[k].name = bt_func_name(d, v[k].site, names[k], sizeof(names[k]));
		k++;
	}
	qsort(v, k, sizeof(*v), by_total);
	if (!k)
		goto out;
	if (cpu < ALL_CPUS)
		printf("# CPU %u\n", cpu);
	if (graph) {
		printf("# %zu functions, from graph records; times in microseconds\n"
		       "#%11s %14s %14s %14s %14s  %s\n", k, "calls", "total", "self", "avg",
		       "max", "function");
		for (size_t i = 0; i < k; i++) {
			char t[32], sf[32], av[32], mx[32];

			bt_fmt_usecs(t, sizeof(t), v[i].total, freq);
			bt_fmt_usecs(sf, sizeof(sf), v[i].self, freq);
			bt_fmt_usecs(av, sizeof(av), v[i].total / v[i].calls, freq);
			bt_fmt_usecs(mx, sizeof(mx), v[i].max, freq);
			printf("%12llu %14s %14s %14s %14s  %s%s\n", (unsigned long long)v[i].calls,
			       t, sf, av, mx, v[i].name, v[i].spans_hole ? " *" : "");
		}
		goto out;
	}
	printf("# %zu functions%s, from function-entry records: call counts only\n"
	       "# (times need graph records, kinds 2 and 3: trace with the graph tracer)\n"
	       "#%11s  %s\n", k, s->exits ? " more" : "", "calls", "function");
	for (size_t i = 0; i < k; i++)
		printf("%12llu  %s\n", (unsigned long long)v[i].entries, v[i].name);
out:
	free(names);
	free(v);
}

static const struct bt_visitor stats_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
};

static void print_tables(struct bt_decoder *d, struct stats *s, unsigned cpu)
{
	if (s->exits)
		print_table(d, s, 1, cpu);
	if (s->entries)
		print_table(d, s, 0, cpu);
}

int bt_stats(const char *trace, const char *elf, int per_cpu)
{
	static struct bt_decoder d;
	struct stats s = { .per_cpu = per_cpu };
	int rc;

	bt_dec_init(&d, &stats_visitor, &s);
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	if (!rc) {
		for (unsigned c = 0; per_cpu && c < BT_MAX_CPUS; c++)
			if (d.cpus_seen[c])
				print_tables(&d, &s, c);
		if (!per_cpu)
			print_tables(&d, &s, ALL_CPUS);
		if (bt_profile_any(&s.prof))
			bt_profile_print(&d, &s.prof, per_cpu);
		if (s.spilled)
			bt_warn("more than %u functions: %llu records of the rest not counted",
				MAX_FUNCS, (unsigned long long)s.spilled);
		bt_stacks_warn(&s.stacks);
		if (s.marked) {
			struct bt_loss l;

			bt_loss(&d, &l);
			printf("# warning: %llu events missing in holes; * marks the %llu functions "
			       "with calls open across a hole: the calls they made there are "
			       "missing, so their self times are upper bounds\n",
			       (unsigned long long)(l.holes_target + l.holes_other),
			       (unsigned long long)s.marked);
		}
		if (!s.exits && !s.entries && !bt_profile_any(&s.prof))
			printf("# no function records in the trace\n");
		printf("# %llu events\n", (unsigned long long)bt_events(&d));
		bt_loss_print(stdout, &d, "# ", d.bad_frames);
	}
	free(s.tab);
	bt_stacks_free(&s.stacks);
	bt_profile_free(&s.prof);
	bt_dec_free(&d);
	return rc;
}
