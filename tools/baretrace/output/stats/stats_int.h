/*
 * tools/baretrace/output/stats/stats_int.h: what stats.c (the tables) and
 * stats_read.c (one trace's rows, for --diff) share: the aggregate per
 * function that stats_table.c builds from one trace.
 */
#ifndef TOOLS_BARETRACE_STATS_INT_H
#define TOOLS_BARETRACE_STATS_INT_H
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

#include "stats.h"

#define ALL_CPUS	BT_MAX_CPUS	/* the key of merged figures */

struct fn_stat {
	uint64_t site;
	unsigned cpu;
	int used;
	struct bt_stat_row r;		/* ticks; the name is set when printed */
};

struct stats {
	struct fn_stat *tab;
	size_t cap, n;
	struct bt_stacks stacks;
	struct bt_profile prof;
	int per_cpu;
	enum bt_stat_key sort;
	uint64_t exits, entries, others;
	uint64_t spilled;	/* records of functions past MAX_FUNCS */
	uint64_t marked;	/* functions with a call across a hole */
};

/* Distinct functions kept; more can only come from damaged site numbers. */
#define MAX_FUNCS	(1u << 20)

/* Reads a trace into s (s->per_cpu set or not); returns the exit status. */
int bt_stats_decode(struct bt_decoder *d, struct stats *s, const char *trace, const char *elf);
void bt_stats_free(struct bt_decoder *d, struct stats *s);

#endif /* TOOLS_BARETRACE_STATS_INT_H */
