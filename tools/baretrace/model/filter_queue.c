/*
 * tools/baretrace/model/filter_queue.c: the filter stage's queue. Items
 * (records, holes, block and section edges, profile dumps) pass straight
 * on while nothing waits; once an item waits for its verdict, every item
 * after it is queued as a copy, and the head is passed on as soon as its
 * verdict is known, so the command sees the stream in its order. Queued
 * ids are consecutive: an item goes straight on only when the queue is
 * empty.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../decode/decode.h"

#include "filter_int.h"

/* ---- the queue ------------------------------------------------------------ */

struct item *bt_fq_lookup(struct bt_filter *fi, uint64_t id)
{
	uint64_t first;

	if (id == NO_ITEM || fi->head == fi->len)
		return NULL;
	first = fi->q[fi->head].id;
	if (id < first || id - first >= fi->len - fi->head)
		return NULL;
	return &fi->q[fi->head + (id - first)];
}

static void fq_deliver(struct bt_decoder *d, struct item *it)
{
	struct bt_filter *fi = d->filter;
	int prev = d->prev.active;
	uint64_t ts = d->books[it->cpu].ts;

	if (it->type == IT_REC && it->verdict == V_DROP && !it->prev)
		fi->left_out++;
	if (it->verdict != V_KEEP)
		return;
	d->prev.active = it->prev;	/* as it was when the item came */
	switch (it->type) {
	case IT_REC:
		fi->inner->record(d, it->cpu, &it->r);
		break;
	case IT_HOLE:
		d->books[it->cpu].ts = it->ts;
		fi->inner->hole(d, it->cpu, it->n, it->cause);
		d->books[it->cpu].ts = ts;
		break;
	case IT_BEGIN:
		fi->inner->block_begin(d, &it->f, it->ts);
		break;
	case IT_END:
		fi->inner->block_end(d, &it->f);
		break;
	case IT_PROFILE:
		fi->inner->profile(d, &it->f);
		break;
	case IT_SECTION:
		fi->inner->section(d, it->section);
		break;
	}
	d->prev.active = prev;
}

void bt_fq_drain(struct bt_decoder *d)
{
	struct bt_filter *fi = d->filter;

	while (fi->head < fi->len && fi->q[fi->head].verdict != V_WAIT) {
		struct item *it = &fi->q[fi->head++];

		fq_deliver(d, it);
		free((void *)it->r.data);
		free((void *)it->f.body);
	}
	if (fi->head == fi->len)
		fi->head = fi->len = 0;
}

/* Passes it on now if nothing waits and its verdict is known, else
 * queues a copy. Returns its id. */
uint64_t bt_fq_put(struct bt_decoder *d, struct item *it)
{
	struct bt_filter *fi = d->filter;
	struct item *q;

	it->id = fi->next_id++;
	it->prev = (uint8_t)d->prev.active;
	if (fi->head == fi->len && it->verdict != V_WAIT) {
		fq_deliver(d, it);
		return it->id;
	}
	fi->q = bt_grow(fi->q, &fi->cap, fi->len + 1, sizeof(*fi->q));
	q = &fi->q[fi->len++];
	*q = *it;
	if (it->r.data_len) {
		q->r.data = bt_alloc(it->r.data_len);
		memcpy((void *)q->r.data, it->r.data, it->r.data_len);
	}
	if (it->f.body) {
		q->f.body = bt_alloc(it->f.body_len + 1);
		memcpy((void *)q->f.body, it->f.body, it->f.body_len);
	}
	return it->id;
}

/* A waiting entry's fate is known: it and the records that follow it. */
void bt_fq_settle(struct bt_filter *fi, uint64_t id, uint8_t v)
{
	struct item *it = bt_fq_lookup(fi, id), *f;

	if (!it || it->verdict != V_WAIT)
		return;
	it->verdict = v;
	for (unsigned i = 0; i < it->nfollow; i++)	/* arguments' strings follow them */
		if ((f = bt_fq_lookup(fi, it->follow[i])) && f->verdict == V_WAIT)
			bt_fq_settle(fi, it->follow[i], v);
}

/* A record that shares the fate of entry 'id' (still waiting). */
void bt_fq_follow(struct bt_filter *fi, uint64_t id, uint64_t follower)
{
	struct item *it = bt_fq_lookup(fi, id);

	if (it && it->nfollow < FOLLOWERS)
		it->follow[it->nfollow++] = follower;
	else if ((it = bt_fq_lookup(fi, follower)))
		it->verdict = V_KEEP;	/* nothing to follow: keep */
}
