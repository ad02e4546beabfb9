/*
 * tools/baretrace/output/report/report_merge.c: report's merge of the per-CPU
 * queues (report.c fills them) in time order: a stable k-way merge on
 * the items' times, the earliest head first and equal times in the
 * order they arrived.
 *
 * bt_report_merge_ready runs after each block and prints what is safe
 * to print already, using the first pass's plan (report_plan.c);
 * bt_report_merge_all prints the rest where a section ends. Both make
 * the same choices as one merge of the whole section would: an item
 * goes out only when the next head of every queue is known or known to
 * come later.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../input/tracefile.h"

#include "report.h"

/* A hole takes the time of its CPU's next record; with none after it
 * (events lost at the end of the run) it goes after every record. The
 * queue stays in time order. */
static void settle_times(struct bt_rqueue *q)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = q->n; i-- > 0;) {
		if (q->v[i].kind == BT_RI_HOLE)
			q->v[i].ts = next;
		else
			next = q->v[i].ts;
	}
}

static int before(const struct bt_ritem *a, const struct bt_ritem *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

/* A section begins: its layouts, CPU column and queues, from the plan. */
void bt_report_section_start(struct bt_report *rp)
{
	const struct bt_rsection *s;

	rp->nactive = 0;
	if (rp->section >= rp->plan.nsec)
		return;		/* past the plan (it cannot be): merge at the end */
	s = &rp->plan.sec[rp->section];
	rp->seg_graph = s->graph;
	rp->seg_function = s->function;
	rp->cpu_width = s->cpu_width;
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++)
		if (s->items[c])
			rp->active[rp->nactive++] = c;
}

/* Drops the printed items of a queue that has printed many. */
static void compact(struct bt_rqueue *q)
{
	size_t base = q->alen, keep = q->n - q->at;

	if (q->at < 4096 || q->at < keep)
		return;
	for (size_t i = q->at; i < q->n; i++)
		if (q->v[i].text != SIZE_MAX) {
			base = q->v[i].text;
			break;
		}
	memmove(q->arena, q->arena + base, q->alen - base);
	q->alen -= base;
	memmove(q->v, q->v + q->at, keep * sizeof(*q->v));
	for (size_t i = 0; i < keep; i++)
		if (q->v[i].text != SIZE_MAX)
			q->v[i].text -= base;
	if (q->unsettled != SIZE_MAX)
		q->unsettled -= q->at;
	q->n = keep;
	q->at = 0;
}

/* Whether printing it may look at the items after it on its CPU: an
 * entry folds in its arguments and exit, arguments their entry. */
static int folds(const struct bt_ritem *it)
{
	return it->kind <= WIRE_REC_FUNC_CALLER || it->kind == WIRE_REC_GRAPH_ENTRY ||
	       (it->kind == WIRE_REC_EXT && it->sub == WIRE_EXT_ARGS);
}

/*
 * Decodes CPU c's next block now, ahead of its place in the file, if
 * nothing between here and there could change how it decodes: no
 * barrier (report_plan.c), no block waiting for metadata, no filter
 * (its queue keeps the stream's order), not inside the previous boot's
 * section. Its items keep the seq of their place. 1 if it did.
 */
static int pull(struct bt_report *rp, unsigned c)
{
	static uint8_t buf[WIRE_MAX_PAYLOAD];
	struct bt_rplan *pl = &rp->plan;
	struct bt_decoder *d = rp->d;
	const struct bt_rframe *e;
	uint64_t seq = rp->seq;

	if (c >= BT_MAX_CPUS || rp->pulling || d->filter || d->npending || d->prev.active ||
	    !d->meta.seen || pl->at[c] >= pl->nframes[c])
		return 0;
	e = &pl->frames[c][pl->at[c]];
	while (pl->next_barrier < pl->nbarriers && pl->barriers[pl->next_barrier] <= rp->index)
		pl->next_barrier++;
	if (!e->pullable || e->index <= rp->index ||
	    (pl->next_barrier < pl->nbarriers && pl->barriers[pl->next_barrier] < e->index))
		return 0;
	if (!rp->pull_f && !(rp->pull_f = bt_file_reopen(rp->trace)))
		return 0;
	if (fseek(rp->pull_f, e->end - (long)e->len, SEEK_SET) ||
	    fread(buf, 1, e->len, rp->pull_f) != e->len)
		return 0;
	rp->pulled_end[c] = e->end;
	rp->pulling = 1;
	rp->seq = e->index << BT_RSEQ_SHIFT;
	bt_dec_frame(d, buf, e->len);
	rp->seq = seq;
	rp->pulling = 0;
	return 1;
}

/*
 * After a block: prints, earliest first, every head that nothing still
 * to come can precede. A CPU whose queue is empty will next queue at its
 * next record's time (or a hole before it, at that time), with a seq
 * from its next block's place (a block decoded ahead may hold a later
 * place than one still to come); a hole at a head whose record has not come yet sits
 * at that time too but may precede an equal one. Profile dumps take the
 * latest time queued, never earlier than a queued item. An entry prints
 * when the items it may fold in are queued (arguments, up to eight
 * strings, the entry or exit: BT_FOLD_ITEMS), or its CPU is done.
 * When a CPU's next block holds the merge up, it is decoded now if it
 * may be (pull), so what is held stays about a block per CPU however the
 * blocks lie in the file.
 */
void bt_report_merge_ready(struct bt_report *rp)
{
	const struct bt_rsection *s;

	if (rp->section >= rp->plan.nsec || rp->pulling)
		return;
	s = &rp->plan.sec[rp->section];
	for (;;) {
		const struct bt_ritem *best = NULL;
		unsigned bc = 0, uc = 0, wc = 0;
		uint64_t upto = UINT64_MAX, below = UINT64_MAX, upto_seq = UINT64_MAX;
		int wait = -1;

		for (unsigned k = 0; k < rp->nactive; k++) {
			unsigned c = rp->active[k];
			struct bt_rqueue *q = &rp->q[c];

			if (q->at < q->n && (q->unsettled == SIZE_MAX || q->at < q->unsettled)) {
				if (!best || before(&q->v[q->at], best)) {
					best = &q->v[q->at];
					bc = c;
				}
			} else if (q->at < q->n) {
				uint64_t t = bt_rplan_next_ts(&rp->plan, c);

				if (t < below) {
					below = t;
					wc = c;
				}
			} else if (q->queued < s->items[c] && c < BT_MAX_CPUS) {
				uint64_t t = bt_rplan_next_ts(&rp->plan, c);
				uint64_t seq = bt_rplan_next_seq(&rp->plan, c);

				if (t < upto || (t == upto && seq < upto_seq)) {
					upto = t;
					upto_seq = seq;
					uc = c;
				}
			}
		}
		if (!best)
			break;
		if (best->ts > upto || (best->ts == upto && best->seq > upto_seq))
			wait = (int)uc;
		else if (best->ts >= below)
			wait = (int)wc;
		else if (rp->q[bc].n - rp->q[bc].at < BT_FOLD_ITEMS && rp->q[bc].queued < s->items[bc] &&
			 folds(best))
			wait = (int)bc;
		if (wait < 0) {
			bt_report_item(rp, bc);
			continue;
		}
		for (unsigned k = 0; k < rp->nactive; k++)
			compact(&rp->q[rp->active[k]]);
		if (!pull(rp, (unsigned)wait))
			break;
	}
}

/* Prints every queued item, earliest first, and empties the queues. */
void bt_report_merge_all(struct bt_report *rp)
{
	unsigned active[BT_MAX_CPUS + 1], n = 0;

	for (unsigned c = 0; c <= BT_MAX_CPUS; c++) {
		if (rp->q[c].n > rp->q[c].at) {
			settle_times(&rp->q[c]);
			active[n++] = c;
		}
	}
	if (rp->section >= rp->plan.nsec) {
		/* ftrace pads the CPU column to the widest CPU number */
		unsigned top = rp->d->meta.ncpus ? (unsigned)rp->d->meta.ncpus - 1 : 0;

		for (unsigned k = 0; k < n; k++)
			top = active[k] > top && active[k] < BT_MAX_CPUS ? active[k] : top;
		for (rp->cpu_width = 1; top >= 10; top /= 10)
			rp->cpu_width++;
	}
	while (n) {
		unsigned best = 0;

		for (unsigned k = 1; k < n; k++) {
			const struct bt_ritem *a = &rp->q[active[k]].v[rp->q[active[k]].at];
			const struct bt_ritem *b = &rp->q[active[best]].v[rp->q[active[best]].at];

			if (before(a, b))
				best = k;
		}
		bt_report_item(rp, active[best]);
		if (rp->q[active[best]].at >= rp->q[active[best]].n)
			active[best] = active[--n];
	}
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++) {
		struct bt_rqueue *q = &rp->q[c];

		q->n = q->at = q->alen = 0;
		q->queued = 0;
		q->unsettled = SIZE_MAX;
	}
	rp->seg_graph = rp->seg_function = 0;
	rp->now = 0;
	rp->section++;
	bt_report_section_start(rp);
}
