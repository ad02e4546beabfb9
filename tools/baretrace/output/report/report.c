/*
 * tools/baretrace/output/report/report.c: `baretrace report`, ftrace-style
 * text, in time order across CPUs.
 *
 * The decoder hands records over in block order: a CPU's block of 2.398 s
 * may come before another CPU's block of 2.392 s. So report queues each
 * CPU's items in stream order (that CPU's time order) and prints them by
 * a stable k-way merge on their time: the earliest head goes first, and
 * equal times keep the order they arrived in. A hole (events missing
 * before the next record of its CPU) takes that record's time; profile
 * dumps, no CPU's timeline event, have a queue of their own. Each line is
 * written by report_line.c (nesting kept per CPU) with report_graph.c's
 * layout pieces.
 *
 * The queues hold a window, not the trace: a first pass (report_plan.c)
 * says how many items each queue gets in each section and when each
 * CPU's next record comes, so after each block the merge prints every
 * head that no CPU can still precede, keeping the items an entry may
 * fold in (its arguments and exit: up to four). What stays queued is
 * what the CPUs' blocks overlap in time and in the stream, about a block
 * per CPU on a trace sent as the target sends it. Each item is about 64
 * bytes plus the bytes of tracepoint text and extension values. The
 * queues are merged to the end where the time base changes: at the
 * previous boot's section (docs/wire.md 2.10: a boot that ended in a
 * reset, sent by the next one first), which prints under a heading of its
 * own with its own call stacks and books after it, and at the end.
 *
 * Exits without entries nest by containment, so a call's depth is known
 * only once its callers have returned, later in the stream; the first
 * pass (depths.c) works out those exits' depths by their ordinals on
 * their CPU, which the merge does not change.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "report.h"

static struct bt_ritem *queue_add(struct bt_report *rp, unsigned cpu, unsigned kind)
{
	struct bt_rqueue *q = &rp->q[cpu];
	struct bt_ritem *it;

	q->v = bt_grow(q->v, &q->cap, q->n + 1, sizeof(*q->v));
	it = &q->v[q->n++];
	memset(it, 0, sizeof(*it));
	it->kind = (uint8_t)kind;
	it->seq = rp->seq++;
	it->text = SIZE_MAX;
	q->queued++;
	if (kind == BT_RI_HOLE && q->unsettled == SIZE_MAX)
		q->unsettled = q->n - 1;
	return it;
}

/* Copies n bytes into the CPU's arena; returns their offset. */
static size_t arena_put(struct bt_rqueue *q, const void *p, size_t n)
{
	size_t at = q->alen;

	q->arena = bt_grow(q->arena, &q->acap, q->alen + n, 1);
	memcpy(q->arena + at, p, n);
	q->alen += n;
	return at;
}

/*
 * Tracepoint and printf text is rendered now, with the schemas of this
 * point in the stream (a reboot may redefine an id); "name\0fields\0"
 * for a tracepoint, so the graph view can write "/" "* name fields *" "/".
 */
static void take_event(struct bt_decoder *d, struct bt_rqueue *q, struct bt_ritem *it,
		       const struct wire_record *r)
{
	char text[1024];
	const char *ev;

	if (r->kind == WIRE_REC_PRINTF) {
		bt_fmt_printf(d, r, text, sizeof(text));
		it->text = arena_put(q, text, strlen(text) + 1);
		return;
	}
	if (bt_fmt_event(d, r, text, sizeof(text), &ev))
		ev = "?";
	it->sub = !strcmp(ev, "irq:entry") ? BT_RI_IRQ_ENTRY :
		  !strcmp(ev, "irq:exit") ? BT_RI_IRQ_EXIT : 0;
	it->text = arena_put(q, ev, strlen(ev) + 1);
	arena_put(q, text, strlen(text) + 1);
}

/* Extensions keep their values (arguments, return addresses) as int64_t. */
static void take_ext(struct bt_decoder *d, struct bt_rqueue *q, struct bt_ritem *it,
		     const struct wire_record *r)
{
	struct wire_ext x;
	uint64_t v;

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	it->sub = x.subtype;
	it->site = x.site;
	it->action = x.action;
	it->text = q->alen;
	if (x.subtype == WIRE_EXT_ARGS) {
		int64_t args[BT_ARGS_SHOWN];

		it->a = bt_ext_args(&x, args, BT_ARGS_SHOWN);
		arena_put(q, args, it->a * sizeof(args[0]));
	} else if (x.subtype == WIRE_EXT_OUTCOME) {
		it->action = x.outcome;
		it->retval = x.status;
	} else if (x.subtype == WIRE_EXT_STACK) {
		for (unsigned i = 0; i < x.count && !wire_ext_value(&x, &v); i++, it->a++)
			arena_put(q, &v, sizeof(v));
	} else if (x.subtype == WIRE_EXT_STRING) {
		it->action = x.reg;
		it->flags = x.str_flags;
		it->a = x.count;
		arena_put(q, x.values, x.count);
	} else if (x.subtype == WIRE_EXT_PROBE) {	/* by the schema known now */
		char text[1024];

		bt_fmt_probe(d, &x, text, sizeof(text));
		it->a = strlen(text);
		arena_put(q, text, it->a + 1);
	}
}

/* Holes before a record take its time. */
static void settle_holes(struct bt_rqueue *q, uint64_t ts)
{
	if (q->unsettled == SIZE_MAX)
		return;
	for (size_t i = q->unsettled; i + 1 < q->n; i++)
		q->v[i].ts = ts;
	q->unsettled = SIZE_MAX;
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct bt_report *rp = d->user;
	struct bt_ritem *it;

	if (r->kind == WIRE_REC_LOST)	/* informational; holes say it */
		return;
	it = queue_add(rp, cpu, r->kind);
	it->ts = r->ts;
	settle_holes(&rp->q[cpu], r->ts);
	rp->now = r->ts > rp->now ? r->ts : rp->now;
	it->site = r->site;
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		rp->seg_function = 1;
		it->a = r->caller;
		it->flags = (uint8_t)r->has_caller;
		break;
	case WIRE_REC_EXIT:
		it->a = r->duration;
		it->flags = r->flags;
		it->retval = r->retval;
		rp->seg_graph = 1;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		it->a = r->depth;
		rp->seg_graph = 1;
		break;
	case WIRE_REC_EVENT:
	case WIRE_REC_PRINTF:
		take_event(d, &rp->q[cpu], it, r);
		break;
	case WIRE_REC_EXT:
		take_ext(d, &rp->q[cpu], it, r);
		break;
	}
}

/* Events missing here, before the next record of this CPU. */
static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct bt_report *rp = d->user;
	struct bt_ritem *it = queue_add(rp, cpu, BT_RI_HOLE);

	it->a = events;
	it->cause = cause;
}

/* A profile dump has no time and is no CPU's timeline event: it goes in
 * a queue of its own, at the latest time seen when it arrived, so it
 * prints where it came in the stream. */
static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	struct bt_report *rp = d->user;
	struct wire_profile_iter iter;
	struct bt_ritem *it = queue_add(rp, BT_MAX_CPUS, BT_RI_PROFILE);

	wire_profile_begin(&iter, f->body, f->body_len);
	it->a = iter.left;
	it->site = f->cpu;
	it->ts = rp->now;
}

/* Each frame read in order: its place orders its items (equal times
 * print in the order they arrived); a block already decoded ahead of its
 * place (report_merge.c) is skipped. */
static int on_frame(struct bt_decoder *d, long end, const uint8_t *payload, size_t len)
{
	struct bt_report *rp = d->user;
	struct wire_frame f;

	rp->index = rp->plan.frames_read++;
	if (!wire_frame_parse(payload, len, &f) && f.type == WIRE_FRAME_DATA &&
	    end <= rp->pulled_end[f.cpu])
		return 1;
	rp->seq = rp->index << BT_RSEQ_SHIFT;
	return 0;
}

static void on_block_begin(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts)
{
	struct bt_report *rp = d->user;

	(void)base_ts;
	rp->plan.at[f->cpu]++;	/* the plan's blocks, in the same order */
}

static void on_block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)f;
	bt_report_merge_ready(d->user);
}

/* The previous boot's events: a heading before, their books after. */
static void on_section(struct bt_decoder *d, int prev)
{
	struct bt_report *rp = d->user;

	bt_report_merge_all(rp);
	if (prev) {
		printf("#\n# ==== previous boot %llu, up to its reset (kept in RAM, sent by the "
		       "next boot) ====\n", (unsigned long long)d->prev.boot);
	} else {
		bt_prev_print(stdout, d, "# ");
		printf("# ==== this boot ====\n");
	}
	rp->said_function = rp->said_graph = 0;
	rp->seg_prev = prev;
}

static const struct bt_visitor report_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
	.section = on_section,
	.block_begin = on_block_begin,
	.block_end = on_block_end,
};

int bt_report(const char *trace, const char *elf)
{
	static struct bt_decoder d;
	static struct bt_report rp;
	int rc;

	bt_decode_strings = 1;	/* both passes: the plan counts them as items */
	rp.names = bt_rplan_read(&rp.plan, &rp.depths, trace, elf);
	rp.d = &d;
	rp.trace = trace;
	rp.last_graph_cpu = -1;
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++)
		rp.q[c].unsettled = SIZE_MAX;
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		rp.pulled_end[c] = -1;
	rp.plan.frames_read = 0;
	bt_report_section_start(&rp);
	bt_dec_init(&d, &report_visitor, &rp);
	d.want_prev = 1;
	d.frame_hook = on_frame;
	/* The first pass read the END totals the holes' causes need. */
	d.pre = bt_alloc(sizeof(*d.pre));
	*d.pre = rp.names->end;
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	if (d.prev.active)	/* nothing of this boot after it */
		on_section(&d, 0);
	bt_report_merge_all(&rp);
	if (!rc) {
		printf("# %llu event%s\n", (unsigned long long)bt_events(&d), bt_plural(bt_events(&d)));
		bt_loss_print(stdout, &d, "# ", d.bad_frames);
		bt_outcome_print(stdout, &d, "# ");
	}
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++) {
		free(rp.q[c].v);
		free(rp.q[c].arena);
	}
	bt_stacks_free(&rp.stacks);
	bt_stacks_free(&rp.prev_stacks);
	bt_depths_free(&rp.depths);
	bt_rplan_free(&rp.plan);
	if (rp.pull_f)
		fclose(rp.pull_f);
	bt_dec_free(rp.names);
	free(rp.names);
	bt_dec_free(&d);
	return rc;
}
