/*
 * tools/baretrace/output/report/report_plan.c: report's first pass, and what it
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
 *  - per CPU, its data blocks in the order they are decoded: where each
 *    ends in the file, its place among the file's frames, the time of
 *    its first record, whether it may be decoded ahead of its place;
 *  - the barriers: frames no block may be decoded ahead of (the end,
 *    profile dumps, the previous boot's summary, metadata or a symbol
 *    dump that says something new or starts a new boot).
 *
 * With them the printing pass can print an item as soon as no CPU can
 * still queue an earlier one, and decode a CPU's next block ahead of its
 * place when the merge waits for it (report_merge.c), instead of holding
 * the section whole: a block of a mostly idle CPU, sent long after its
 * first event, is read from where it lies in the file. The END totals
 * this pass met are handed on too, so the printing pass needs no pass of
 * its own for the holes' causes.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

#include "report.h"

struct plan_pass {
	struct bt_rplan *pl;
	struct bt_depths *dp;
	struct bt_stacks stacks;
	struct bt_rsection cur;
	/* The frame being decoded (frame_hook). */
	const uint8_t *buf;
	size_t len;
	long end;
	uint64_t index;
	uint32_t *said;			/* CRCs of the symbol dumps seen */
	size_t nsaid, said_cap;
	uint64_t meta_seq;		/* the last metadata frame's */
	uint32_t meta_crc;
	size_t meta_len;
	int have_meta;
};

/*
 * Metadata repeated as the last one was (the target repeats it every few
 * hundred blocks), or a symbol dump seen before (sent once, at the
 * start), says nothing new: blocks may be decoded across it. Compared by
 * CRC-32 and length.
 */
static int says_something_new(struct plan_pass *p, const struct wire_frame *f)
{
	uint32_t crc = wire_crc32(0, f->body, f->body_len);

	if (f->type == WIRE_FRAME_META) {
		int same = p->have_meta && f->seq > p->meta_seq && crc == p->meta_crc &&
			   f->body_len == p->meta_len;

		p->have_meta = 1;
		p->meta_seq = f->seq;
		p->meta_crc = crc;
		p->meta_len = f->body_len;
		return !same;
	}
	for (size_t i = 0; i < p->nsaid; i++)
		if (p->said[i] == crc)
			return 0;
	p->said = bt_grow(p->said, &p->said_cap, p->nsaid + 1, sizeof(*p->said));
	p->said[p->nsaid++] = crc;
	return 1;
}

static int on_frame(struct bt_decoder *d, long end, const uint8_t *payload, size_t len)
{
	struct plan_pass *p = d->user;
	struct bt_rplan *pl = p->pl;
	struct wire_frame f;

	p->buf = payload;
	p->len = len;
	p->end = end;
	p->index = pl->frames_read++;
	if (wire_frame_parse(payload, len, &f) || f.type == WIRE_FRAME_DATA)
		return 0;
	if ((f.type == WIRE_FRAME_META || f.type == WIRE_FRAME_SYMS) && !says_something_new(p, &f))
		return 0;
	pl->barriers = bt_grow(pl->barriers, &pl->barriers_cap, pl->nbarriers + 1,
			       sizeof(*pl->barriers));
	pl->barriers[pl->nbarriers++] = p->index;
	return 0;
}

static void on_block_begin(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts)
{
	struct plan_pass *p = d->user;
	struct bt_rplan *pl = p->pl;
	unsigned c = f->cpu;
	/* A block kept for want of metadata is decoded from its copy, later:
	 * it stays in its place. */
	int own = f->body >= p->buf && f->body < p->buf + p->len;

	(void)base_ts;
	pl->frames[c] = bt_grow(pl->frames[c], &pl->frames_cap[c], pl->nframes[c] + 1,
				sizeof(*pl->frames[c]));
	pl->frames[c][pl->nframes[c]++] = (struct bt_rframe){
		.end = p->end, .len = (uint32_t)p->len, .index = p->index, .first_ts = UINT64_MAX,
		.pullable = own && f->type == WIRE_FRAME_DATA };
}

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

	if (r->kind == WIRE_REC_LOST)	/* report queues none */
		return;
	p->cur.items[cpu]++;
	p->cur.function |= r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER;
	p->cur.graph |= r->kind == WIRE_REC_EXIT || r->kind == WIRE_REC_GRAPH_ENTRY;
	if (pl->nframes[cpu]) {
		struct bt_rframe *e = &pl->frames[cpu][pl->nframes[cpu] - 1];

		e->first_ts = e->first_ts == UINT64_MAX ? r->ts : e->first_ts;
		/* Where the run ended: the first such record sets the mark,
		 * so its block stays in its place. */
		if (r->kind == WIRE_REC_EXT && r->subtype == WIRE_EXT_OUTCOME)
			e->pullable = 0;
	}
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

static void on_section(struct bt_decoder *d, int prev)
{
	(void)prev;
	close_section(d, d->user);
}

static const struct bt_visitor plan_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
	.block_begin = on_block_begin,
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
	d->frame_hook = on_frame;
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
	free(p.said);
	d->frame_hook = NULL;
	d->v = NULL;
	d->user = NULL;
	return d;
}

uint64_t bt_rplan_next_ts(const struct bt_rplan *pl, unsigned cpu)
{
	for (size_t i = pl->at[cpu]; i < pl->nframes[cpu]; i++)
		if (pl->frames[cpu][i].first_ts != UINT64_MAX)
			return pl->frames[cpu][i].first_ts;
	return UINT64_MAX;
}

uint64_t bt_rplan_next_seq(const struct bt_rplan *pl, unsigned cpu)
{
	if (pl->at[cpu] >= pl->nframes[cpu])
		return UINT64_MAX;
	return pl->frames[cpu][pl->at[cpu]].index << BT_RSEQ_SHIFT;
}

void bt_rplan_free(struct bt_rplan *pl)
{
	free(pl->sec);
	free(pl->barriers);
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		free(pl->frames[c]);
	memset(pl, 0, sizeof(*pl));
}
