/*
 * tools/baretrace/decode/books.c: accounting for every event (docs/wire.md 2.4,
 * 2.8). Each data block says the number of its first event; a jump past
 * the end of the CPU's previous block is a hole, told to the command
 * right where it is. The end-of-stream frame gives each CPU's totals, so
 * the hole after the last block and the split of all losses by cause
 * (overwritten, ring full, discarded on the target; the rest on the
 * wire) are known too.
 *
 * The cause of a hole: consecutive sequence numbers around it mean no
 * frame is missing, so the target lost the events (ring full or a
 * discard). A sequence gap is an overwritten block or a frame lost on
 * the way; the totals settle it when they show only one of the two.
 * What they add up to for a whole trace is loss.c's.
 */
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "decode.h"

#define CAUSE_TARGET	"lost on the target (ring full or discarded)"
#define CAUSE_EITHER	"ring overwritten or frames lost"
#define CAUSE_WIRE	"frames lost on the wire"

/* The totals to judge by: the first pass's if any, else what arrived. */
static const struct bt_end_books *judge(const struct bt_decoder *d, unsigned cpu)
{
	if (d->pre && d->pre->has[cpu])
		return d->pre;
	return d->end.has[cpu] ? &d->end : NULL;
}

static const char *cause_of(const struct bt_decoder *d, unsigned cpu, int consecutive)
{
	const struct bt_end_books *b = judge(d, cpu);
	const struct wire_end_cpu *e;
	uint64_t target, wire, dec;

	if (!b)
		return consecutive ? CAUSE_TARGET : CAUSE_EITHER;
	e = &b->end[cpu];
	/* No block missing: refused by a full ring or discarded. */
	if (consecutive)
		return e->dropped && !e->discarded ? "ring full (stop mode)" :
		       e->discarded && !e->dropped ? "discarded" : CAUSE_TARGET;
	target = e->overwritten + e->dropped + e->discarded;
	/* Decoded so far: all of it after a first pass or at the END frame. */
	dec = b == d->pre ? b->decoded[cpu] : d->books[cpu].decoded;
	wire = e->produced >= dec + target ? e->produced - dec - target : 0;
	if (!target)
		return wire ? CAUSE_WIRE : CAUSE_EITHER;
	if (!wire)
		return !e->dropped && !e->discarded ? "ring overwritten" :
		       !e->overwritten && !e->discarded ? "ring full (stop mode)" :
		       !e->overwritten && !e->dropped ? "discarded" : "lost on the target";
	/* Both: a full ring in stop mode opens no block, so with no
	 * overwrite nor discard the missing blocks were lost on the way,
	 * but the hole may hold refused events too. */
	if (!e->overwritten && !e->discarded)
		return "ring full (stop mode) or frames lost";
	return CAUSE_EITHER;
}

static void hole(struct bt_decoder *d, unsigned cpu, uint64_t n, int consecutive)
{
	struct bt_cpu_books *c = &d->books[cpu];

	c->holes++;
	if (consecutive)
		c->hole_target += n;
	else
		c->hole_other += n;
	if (d->v && d->v->hole)
		d->v->hole(d, cpu, n, cause_of(d, cpu, consecutive));
}

void bt_books_restart(struct bt_decoder *d, unsigned cpu)
{
	d->books[cpu].have_block = 0;
	d->books[cpu].end_unknown = 0;
}

void bt_books_new_boot(struct bt_decoder *d)
{
	/* The totals of an end-of-stream frame to come count the new boot's
	 * events only (a capture that went on across a reset, wire.md 2.10). */
	memset(d->books, 0, sizeof(d->books));
}

void bt_books_block(struct bt_decoder *d, unsigned cpu, uint64_t first, int consecutive,
		    uint64_t seq)
{
	struct bt_cpu_books *c = &d->books[cpu];

	if (!c->have_block) {
		/* Nothing of this CPU before: events 0 .. first-1 are gone;
		 * seq 0 means no block before this one was opened. */
		if (first && !c->end_unknown)
			hole(d, cpu, first, seq == 0);
	} else if (first > c->next_event && !c->end_unknown) {
		hole(d, cpu, first - c->next_event, consecutive);
	}
	c->have_block = 1;
	c->end_unknown = 0;
	c->next_event = first;
	c->last_seq = seq;
}

void bt_books_block_end(struct bt_decoder *d, unsigned cpu, uint64_t n, int cut)
{
	struct bt_cpu_books *c = &d->books[cpu];

	c->next_event += n;
	c->decoded += n;
	c->blocks++;
	/* The events after a bad record are unknown: the next block's
	 * first is taken as it is, and the books count them on the wire. */
	c->end_unknown = cut != 0;
}

void bt_books_end(struct bt_decoder *d, const struct wire_frame *f)
{
	struct wire_end_cpu e[BT_MAX_CPUS];
	int n = wire_end_decode(f->body, f->body_len, e, BT_MAX_CPUS, &d->run);

	if (n < 0) {
		if (!d->quiet)
			bt_warn("end-of-stream frame %llu is malformed; its totals are ignored",
				(unsigned long long)f->seq);
		return;
	}
	if (n == 0) {
		d->end.empty_end = 1;
		return;
	}
	d->end.totals = 1;
	for (int i = 0; i < n && i < BT_MAX_CPUS; i++) {
		unsigned cpu = (unsigned)e[i].cpu;
		struct bt_cpu_books *c;

		if (e[i].cpu >= BT_MAX_CPUS)
			continue;
		c = &d->books[cpu];
		d->end.end[cpu] = e[i];
		d->end.has[cpu] = 1;
		d->end.decoded[cpu] = c->decoded;
		if (c->end_unknown)
			continue;
		uint64_t have = c->have_block ? c->next_event : 0;

		/* No frame missing after the last one: seqs end at blocks - 1. */
		if (e[i].produced > have)
			hole(d, cpu, e[i].produced - have,
			     c->have_block ? c->last_seq + 1 == e[i].blocks : e[i].blocks == 0);
	}
}
