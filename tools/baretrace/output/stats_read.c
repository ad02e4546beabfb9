/*
 * tools/baretrace/output/stats_read.c: one trace's rows for stats --diff:
 * merged over CPUs, names copied (the decoder that named them is gone
 * when the second trace is read) and times in ns, so traces of two
 * counter frequencies compare.
 */
#include <stdlib.h>
#include <string.h>

#include "../bt.h"
#include "stats_int.h"

/* The rows of graph exits (graph), or of function entries only. */
static void rows_of_table(struct bt_decoder *d, struct stats *s, int graph,
			  struct bt_stat_set *set)
{
	uint64_t freq = bt_freq(d);
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
		r->total = bt_ticks_ns(r->total, freq);
		r->self = bt_ticks_ns(r->self, freq);
		r->max = bt_ticks_ns(r->max, freq);
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
	uint64_t freq = bt_freq(d);
	char nb[32];

	set->rows = bt_alloc(sizeof(*set->rows) * (n + 1));
	for (size_t i = 0; i < n; i++) {
		struct bt_stat_row *r = &set->rows[set->n++];
		const char *name = bt_func_name(d, e[i].site, nb, sizeof(nb));

		r->name = bt_strndup(name, strlen(name));
		r->calls = e[i].calls;
		r->total = bt_ticks_ns(e[i].total, freq);
		r->max = bt_ticks_ns(e[i].max, freq);
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
