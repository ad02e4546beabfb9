/*
 * tools/baretrace/output/export/chrome_calls.c: the order in which
 * export_chrome.c writes complete events. Viewers nest them by time and,
 * when a caller and its callee start on the same tick, by file order: the
 * caller must come first. Exits arrive callee first, so each CPU's calls
 * are held and written sorted by start, longest first, then latest to
 * return first (a caller returns after its callees). Past BT_CALLS_HOLD
 * held calls the earliest half goes out; only a caller that starts on the
 * very tick of a callee written that early can then land after it.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"

#include "export.h"

static int call_order(const void *a, const void *b)
{
	const struct bt_call *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)			/* the longer one holds the other */
		return x->end > y->end ? -1 : 1;
	return x->arrival > y->arrival ? -1 : 1;
}

struct bt_call *bt_calls_add(struct bt_calls *h, bt_call_writer write, void *ctx)
{
	if (h->n >= BT_CALLS_HOLD)
		bt_calls_write(h, h->n / 2, write, ctx);
	h->v = bt_grow(h->v, &h->cap, h->n + 1, sizeof(*h->v));
	memset(&h->v[h->n], 0, sizeof(h->v[h->n]));
	h->v[h->n].arrival = h->arrivals++;
	return &h->v[h->n++];
}

void bt_calls_write(struct bt_calls *h, size_t keep, bt_call_writer write, void *ctx)
{
	size_t out = h->n - keep;

	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), call_order);
	for (size_t i = 0; i < out; i++)
		write(ctx, &h->v[i]);
	if (keep)	/* h->v may still be NULL: memmove wants a real pointer */
		memmove(h->v, h->v + out, keep * sizeof(*h->v));
	h->n = keep;
}

void bt_calls_free(struct bt_calls *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}
