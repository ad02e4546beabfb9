/*
 * tools/baretrace/output/stats/stats_sort.c: the orders of `baretrace stats
 * --sort=calls|total|self|avg|max`. Every key sorts descending; equal
 * keys put more calls first, then names in strcmp order, so a table's
 * order never depends on the order the functions were met in. The
 * default, total, is the order stats always had: total, calls, name.
 *
 * 'calls' is graph exits plus function-entry records: a table holds one
 * or the other (stats prints them apart), so in a table of function
 * entries, which has no times, every key orders by calls.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const char *const bt_stat_key_names[BT_STAT_KEYS] = {
	[BT_STAT_TOTAL] = "total", [BT_STAT_CALLS] = "calls", [BT_STAT_SELF] = "self",
	[BT_STAT_AVG] = "avg", [BT_STAT_MAX] = "max",
};

int bt_stat_key_of(const char *name)
{
	for (int k = 0; k < BT_STAT_KEYS; k++)
		if (!strcmp(name, bt_stat_key_names[k]))
			return k;
	return -1;
}

uint64_t bt_stat_value(const struct bt_stat_row *r, enum bt_stat_key key)
{
	switch (key) {
	case BT_STAT_CALLS:
		return r->calls + r->entries;
	case BT_STAT_SELF:
		return r->self;
	case BT_STAT_AVG:
		return r->calls ? r->total / r->calls : 0;
	case BT_STAT_MAX:
		return r->max;
	default:
		return r->total;
	}
}

/* qsort passes no context; the tool is one thread, so a file variable does. */
static enum bt_stat_key sort_key;

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;	/* descending */
}

/*
 * avg compares total/calls exactly (cross-multiplied in 128 bits), so two
 * averages that differ by less than a tick still sort apart.
 */
static int cmp_avg(const struct bt_stat_row *x, const struct bt_stat_row *y)
{
	unsigned __int128 a, b;

	if (!x->calls || !y->calls)
		return cmp_u64(!!x->calls, !!y->calls);
	a = (unsigned __int128)x->total * y->calls;
	b = (unsigned __int128)y->total * x->calls;
	return a > b ? -1 : a < b;
}

static int by_key(const void *pa, const void *pb)
{
	const struct bt_stat_row *x = pa, *y = pb;
	int c = sort_key == BT_STAT_AVG ? cmp_avg(x, y)
					: cmp_u64(bt_stat_value(x, sort_key), bt_stat_value(y, sort_key));

	if (!c)
		c = cmp_u64(x->calls + x->entries, y->calls + y->entries);
	return c ? c : strcmp(x->name, y->name);
}

void bt_stat_sort(struct bt_stat_row *v, size_t n, enum bt_stat_key key)
{
	sort_key = key;
	if (n > 1)
		qsort(v, n, sizeof(*v), by_key);
}
