/*
 * tools/baretrace/output/stats/stats_read.c: one trace's rows for stats --diff:
 * merged over CPUs, names copied (the decoder that named them is gone
 * when the second trace is read) and times in ns, so traces of two
 * counter frequencies compare; or, from an exact capture (QEMU -icount,
 * decode/clock.c), in instructions.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/model.h"

#include "stats.h"
#include "stats_int.h"

/* A time of the trace in the set's unit: instructions when exact, else ns. */
static uint64_t in_unit(const struct bt_decoder *d, uint64_t ticks)
{
	if (bt_clock_exact(&d->clock))
		return bt_ticks_insns(ticks, bt_freq(d), d->clock.shift);
	return bt_ticks_ns(ticks, bt_freq(d));
}

/* The rows of graph exits (graph), or of function entries only. */
static void rows_of_table(struct bt_decoder *d, struct stats *s, int graph,
			  struct bt_stat_set *set)
{
	char nb[32];

	set->rows = bt_alloc(sizeof(*set->rows) * (s->n + 1));
	for (size_t i = 0; i < s->cap; i++) {
		const struct fn_stat *f = &s->tab[i];
		struct bt_stat_row *r = &set->rows[set->n];

		if (!f->used || (graph ? !f->r.calls : !f->r.entries))
			continue;
		*r = f->r;
		r->name = bt_func_name(d, f->site, nb, sizeof(nb));
		r->name = bt_strndup(r->name, strlen(r->name));
		r->total = in_unit(d, r->total);
		r->self = in_unit(d, r->self);
		r->max = in_unit(d, r->max);
		if (!graph)	/* calls are what this table has */
			r->calls = r->entries;
		r->entries = 0;
		set->n++;
	}
}

static void rows_of_profile(struct bt_decoder *d, struct stats *s, struct bt_stat_set *set)
{
	struct wire_profile_entry *e;
	size_t n = bt_profile_rows(&s->prof, BT_MAX_CPUS, &e);
	char nb[32];

	set->rows = bt_alloc(sizeof(*set->rows) * (n + 1));
	for (size_t i = 0; i < n; i++) {
		struct bt_stat_row *r = &set->rows[set->n++];
		const char *name = bt_func_name(d, e[i].site, nb, sizeof(nb));

		r->name = bt_strndup(name, strlen(name));
		r->calls = e[i].calls;
		r->total = in_unit(d, e[i].total);
		r->max = in_unit(d, e[i].max);
	}
	free(e);
}

int bt_stats_read(const char *trace, const char *elf, struct bt_stat_set *set)
{
	static struct bt_decoder d;
	struct stats s = { .per_cpu = 0 };
	int rc = bt_stats_decode(&d, &s, trace, elf);

	memset(set, 0, sizeof(*set));
	set->source = "no function records";
	if (!rc && s.exits) {
		rows_of_table(&d, &s, 1, set);
		set->times = set->self = 1;
		set->source = "graph records";
	} else if (!rc && bt_profile_any(&s.prof)) {
		rows_of_profile(&d, &s, set);
		set->times = 1;
		set->source = "profile dumps";
	} else if (!rc && s.entries) {
		rows_of_table(&d, &s, 0, set);
		set->source = "function entries";
	}
	set->clock = d.clock;
	set->exact = bt_clock_exact(&d.clock);
	set->ncpus = d.meta.ncpus;
	if (!rc && s.spilled)
		bt_warn("%s: more than %u functions: %llu records of the rest not counted", trace,
			MAX_FUNCS, (unsigned long long)s.spilled);
	bt_stats_free(&d, &s);
	return rc;
}

void bt_stat_set_free(struct bt_stat_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free((char *)set->rows[i].name);
	free(set->rows);
	set->rows = NULL;
	set->n = 0;
}
