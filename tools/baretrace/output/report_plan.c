/*
 * tools/baretrace/output/report_plan.c: report's first pass, and what it
 * tells the second about the stream ahead.
 *
 * The first pass decodes the trace quietly through the same decoder (and
 * filters) as the printing pass, so both see the same records, holes,
 * block edges and sections in the same order. It works out the depths
 * of exits without entries (depths.c) and a plan:
 *
 *  - per section (a stretch report merges and prints as one: the
 *    previous boot's blocks, this boot's), how many items each CPU's
 *    queue will get, which layouts it has, the CPU column's width;
 *  - per CPU, the time of its next record after each block end (the
 *    printing pass's merge points), as runs: "after block ends from..to,
 *    CPU c's next record is at ts". A run starts at each record that
 *    comes after a block end, so there are about as many as blocks.
 *
 * With them the printing pass can print an item as soon as no CPU can
 * still queue an earlier one (report.c), instead of holding the section
 * whole. The END totals this pass met are handed on too, so the printing
 * pass needs no pass of its own for the holes' causes.
 */
#include <stdlib.h>
#include <string.h>

#include "../bt.h"

struct plan_pass {
	struct bt_rplan *pl;
	struct bt_depths *dp;
	struct bt_stacks stacks;
	struct bt_rsection cur;
	uint64_t last_at[BT_MAX_CPUS];	/* block ends before c's last record */
	uint8_t have_last[BT_MAX_CPUS];
};

static void close_section(struct bt_decoder *d, struct plan_pass *p)
{
	struct bt_rplan *pl = p->pl;
	unsigned top = d->meta.ncpus ? (unsigned)d->meta.ncpus - 1 : 0;

	/* ftrace pads the CPU column to the widest CPU number */
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		top = p->cur.items[c] && c > top ? c : top;
	for (p->cur.cpu_width = 1; top >= 10; top /= 10)
		p->cur.cpu_width++;
	pl->sec = bt_grow(pl->sec, &pl->sec_cap, pl->nsec + 1, sizeof(*pl->sec));
	pl->sec[pl->nsec++] = p->cur;
	memset(&p->cur, 0, sizeof(p->cur));
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct plan_pass *p = d->user;
	struct bt_rplan *pl = p->pl;
	uint64_t now = pl->block_ends;

	if (r->kind == WIRE_REC_LOST)	/* report queues none */
		return;
	p->cur.items[cpu]++;
	p->cur.function |= r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER;
	p->cur.graph |= r->kind == WIRE_REC_EXIT || r->kind == WIRE_REC_GRAPH_ENTRY;
	if (now && (!p->have_last[cpu] || p->last_at[cpu] < now)) {
		uint64_t from = p->have_last[cpu] ? p->last_at[cpu] + 1 : 1;

		pl->next[cpu] = bt_grow(pl->next[cpu], &pl->next_cap[cpu], pl->nnext[cpu] + 1,
					sizeof(*pl->next[cpu]));
		pl->next[cpu][pl->nnext[cpu]++] = (struct bt_rnext){ from, now, r->ts };
	}
	p->have_last[cpu] = 1;
	p->last_at[cpu] = now;
	if (!d->prev.active)	/* the first pass has depths for this boot's exits */
		bt_depths_record(p->dp, &p->stacks, cpu, r);
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct plan_pass *p = d->user;

	(void)events;
	(void)cause;
	p->cur.items[cpu]++;
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	struct plan_pass *p = d->user;

	(void)f;
	p->cur.items[BT_MAX_CPUS]++;
}

static void on_block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	struct plan_pass *p = d->user;

	(void)f;
	p->pl->block_ends++;
}

static void on_section(struct bt_decoder *d, int prev)
{
	(void)prev;
	close_section(d, d->user);
}

static const struct bt_visitor plan_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
	.block_end = on_block_end,
	.section = on_section,
};

struct bt_decoder *bt_rplan_read(struct bt_rplan *pl, struct bt_depths *dp, const char *trace,
				 const char *elf)
{
	struct bt_decoder *d = bt_alloc(sizeof(*d));
	struct plan_pass p = { .pl = pl, .dp = dp };

	bt_dec_init(d, &plan_visitor, &p);
	d->quiet = 1;		/* the printing pass says what is wrong */
	d->want_prev = 1;
	/* No pass for the holes' causes: this pass does not print them. */
	d->pre = bt_alloc(sizeof(*d->pre));
	if (elf)
		bt_dec_use_elf(d, elf);
	bt_decode_file(d, trace);
	if (d->prev.active)	/* report's on_section(0) at the end */
		close_section(d, &p);
	close_section(d, &p);
	bt_stacks_free(&p.stacks);
	bt_depths_settle(dp);
	pl->block_ends = 0;
	d->v = NULL;
	d->user = NULL;
	return d;
}

uint64_t bt_rplan_next_ts(struct bt_rplan *pl, unsigned cpu)
{
	size_t *at = &pl->at[cpu];
	uint64_t j = pl->block_ends;

	while (*at < pl->nnext[cpu] && pl->next[cpu][*at].to < j)
		(*at)++;
	if (*at < pl->nnext[cpu] && pl->next[cpu][*at].from <= j)
		return pl->next[cpu][*at].ts;
	return *at < pl->nnext[cpu] ? 0 : UINT64_MAX;	/* 0: not known, hold */
}

void bt_rplan_free(struct bt_rplan *pl)
{
	free(pl->sec);
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		free(pl->next[c]);
	memset(pl, 0, sizeof(*pl));
}
