/*
 * tools/baretrace/model/graph.c: `baretrace graph`'s tree: graph calls
 * merged by call path (flame.c builds it; callstack.c nests them, with
 * or without entries), every node's children ordered by total time,
 * most first, then by name. "Beneath FUNC" is the filter's -F FUNC
 * (filter.c): only FUNC's calls and what they call reach the tree, so
 * each call of FUNC is a root, wherever it was called from, and
 * recursive calls of FUNC stay under the outermost one.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../decode/decode.h"

#include "flame.h"

static const struct bt_flame *sort_fl;

static int by_total(const void *a, const void *b)
{
	const struct bt_fnode *x = &sort_fl->n[*(const uint32_t *)a];
	const struct bt_fnode *y = &sort_fl->n[*(const uint32_t *)b];

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Relinks the children of node i (and below) in the order above. */
static void order(struct bt_flame *fl, uint32_t i)
{
	uint32_t *kids = NULL, c;
	size_t n = 0, cap = 0;

	for (c = fl->n[i].child; c; c = fl->n[c].next) {
		kids = bt_grow(kids, &cap, n + 1, sizeof(*kids));
		kids[n++] = c;
	}
	if (!n)
		return;
	sort_fl = fl;
	qsort(kids, n, sizeof(*kids), by_total);
	fl->n[i].child = kids[0];
	for (size_t k = 0; k < n; k++)
		fl->n[kids[k]].next = k + 1 < n ? kids[k + 1] : 0;
	for (size_t k = 0; k < n; k++)
		order(fl, kids[k]);
	free(kids);
}

int bt_graph_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace, const char *elf)
{
	int rc = bt_flame_read(fl, d, trace, elf, 0);

	if (!rc)
		order(fl, BT_FLAME_GRAPH);
	return rc;
}
