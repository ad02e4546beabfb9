/*
 * tools/baretrace/output/stats/stats.c: `baretrace stats`, a profile per
 * function: calls, total, self, average and max (stats_table.c builds
 * them), sorted by total time or by --sort (stats_sort.c). A trace with
 * only function-entry records gives call counts and says so; profile dumps
 * give the target profiler's numbers (profile.c). --per-cpu splits every
 * table by CPU. Times are in microseconds, or in instructions when the
 * capture noted an exact clock (make ci: QEMU -icount; decode/clock.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/model.h"

#include "stats.h"
#include "stats_int.h"

/* A time as the table shows it: instructions on an exact trace, else us. */
static void fmt_time(char *buf, size_t n, const struct bt_decoder *d, uint64_t ticks)
{
	if (bt_clock_exact(&d->clock))
		snprintf(buf, n, "%llu",
			 (unsigned long long)bt_ticks_insns(ticks, bt_freq(d), d->clock.shift));
	else
		bt_fmt_usecs(buf, n, ticks, bt_freq(d));
}

/* graph: functions with exits, by time; else those with entries only. */
static void print_table(struct bt_decoder *d, struct stats *s, int graph, unsigned cpu)
{
	struct bt_stat_row *v = bt_alloc(sizeof(*v) * (s->n + 1));
	char (*names)[32] = bt_alloc(sizeof(*names) * (s->n + 1));
	size_t k = 0;

	for (size_t i = 0; i < s->cap; i++) {
		const struct fn_stat *f = &s->tab[i];

		if (!f->used || f->cpu != cpu || (graph ? !f->r.calls : f->r.calls || !f->r.entries))
			continue;
		v[k] = f->r;
		v[k].name = bt_func_name(d, f->site, names[k], sizeof(names[k]));
		k++;
	}
	bt_stat_sort(v, k, s->sort);
	if (!k)
		goto out;
	if (cpu < ALL_CPUS)
		printf("# CPU %u\n", cpu);
	if (graph) {
		printf("# %zu function%s, from graph records; times in %s\n"
		       "#%11s %14s %14s %14s %14s  %s\n", k, bt_plural(k), bt_clock_exact(&d->clock) ?
		       "instructions (exact: QEMU -icount)" : "microseconds", "calls", "total",
		       "self", "avg", "max", "function");
		for (size_t i = 0; i < k; i++) {
			char t[32], sf[32], av[32], mx[32];

			fmt_time(t, sizeof(t), d, v[i].total);
			fmt_time(sf, sizeof(sf), d, v[i].self);
			fmt_time(av, sizeof(av), d, v[i].total / v[i].calls);
			fmt_time(mx, sizeof(mx), d, v[i].max);
			printf("%12llu %14s %14s %14s %14s  %s%s\n", (unsigned long long)v[i].calls,
			       t, sf, av, mx, v[i].name, v[i].spans_hole ? " *" : "");
		}
		goto out;
	}
	printf("# %zu function%s%s, from function-entry records: call counts only\n"
	       "# (times need graph records, kinds 2 and 3: trace with the graph tracer)\n"
	       "#%11s  %s\n", k, bt_plural(k), s->exits ? " more" : "", "calls", "function");
	for (size_t i = 0; i < k; i++)
		printf("%12llu  %s\n", (unsigned long long)v[i].entries, v[i].name);
out:
	free(names);
	free(v);
}

static void print_tables(struct bt_decoder *d, struct stats *s, unsigned cpu)
{
	if (s->exits)
		print_table(d, s, 1, cpu);
	if (s->entries)
		print_table(d, s, 0, cpu);
}

int bt_stats(const char *trace, const char *elf, int per_cpu, enum bt_stat_key sort)
{
	static struct bt_decoder d;
	struct stats s = { .per_cpu = per_cpu, .sort = sort };
	int rc = bt_stats_decode(&d, &s, trace, elf);

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
			uint64_t missing = l.holes_target + l.holes_other;

			printf("# warning: %llu event%s missing in holes; * marks the %llu "
			       "function%s with calls open across a hole: the calls they made "
			       "there are missing, so their self times are upper bounds\n",
			       (unsigned long long)missing, bt_plural(missing),
			       (unsigned long long)s.marked, bt_plural(s.marked));
		}
		if (!s.exits && !s.entries && !bt_profile_any(&s.prof))
			printf("# no function records in the trace\n");
		printf("# %llu event%s\n", (unsigned long long)bt_events(&d), bt_plural(bt_events(&d)));
		bt_loss_print(stdout, &d, "# ", d.bad_frames);
		bt_outcome_print(stdout, &d, "# ");
	}
	bt_stats_free(&d, &s);
	return rc;
}
