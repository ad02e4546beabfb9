/*
 * tools/baretrace/decode/prev.c: the previous boot's trace (docs/wire.md
 * 2.10): what a boot that ended in a reset left in RAM, sent by the next
 * boot before its own. Its books are its own: the events that boot
 * recorded before the reset (the summary frame) are those decoded here,
 * those before or between the blocks kept (sent during that boot and
 * then overwritten, or lost there) and those after the last block kept
 * (in a block that did not check).
 */
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "decode.h"

int bt_prev_info(struct bt_decoder *d, const struct wire_frame *f)
{
	struct bt_prev *p = &d->prev;
	struct wire_prev_cpu c[BT_MAX_CPUS];
	uint64_t boot;
	int n = wire_prev_decode(f->body, f->body_len, &boot, c, BT_MAX_CPUS);

	if (n < 0)
		return -1;
	/* A new summary starts the books afresh (another reset). */
	memset(p, 0, sizeof(*p));
	p->seen = 1;
	p->boot = boot;
	for (int i = 0; i < n; i++) {
		p->cpu[c[i].cpu] = c[i];
		p->has[c[i].cpu] = 1;
	}
	return 0;
}

void bt_prev_block(struct bt_decoder *d, unsigned cpu, uint64_t first)
{
	struct bt_prev *p = &d->prev;
	uint64_t from = p->have_block[cpu] ? p->next_event[cpu] : 0;

	if (first > from) {
		p->holes[cpu] += first - from;
		if (d->v && d->v->hole)
			d->v->hole(d, cpu, first - from, p->have_block[cpu] ?
				   "not kept between two blocks of the previous boot" :
				   "previous boot: before the oldest block kept");
	}
	p->next_event[cpu] = first;
	p->have_block[cpu] = 1;
}

void bt_prev_block_end(struct bt_decoder *d, unsigned cpu, uint64_t events)
{
	d->prev.next_event[cpu] += events;
	d->prev.decoded[cpu] += events;
	d->prev.events += events;
}

void bt_prev_print(FILE *f, const struct bt_decoder *d, const char *prefix)
{
	const struct bt_prev *p = &d->prev;
	uint64_t produced = 0, before = 0, after = 0, sent = 0, over = 0, full = 0, disc = 0;
	uint64_t torn = 0, kept = 0, odd = 0;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		const struct wire_prev_cpu *e = &p->cpu[c];
		uint64_t end = p->have_block[c] ? p->next_event[c] : 0;

		if (!p->has[c] && !p->have_block[c])
			continue;
		produced += e->produced;
		before += p->holes[c];
		if (e->produced >= end)
			after += e->produced - end;
		else
			odd++;	/* more decoded than that boot recorded */
		sent += e->sent;
		over += e->overwritten;
		full += e->dropped;
		disc += e->discarded;
		torn += e->torn;
		kept += e->kept;
	}
	fprintf(f, "%sprevious boot %llu: %llu events recorded before the reset: %llu kept "
		"and decoded, %llu before or between the blocks kept, %llu after the last\n",
		prefix, (unsigned long long)p->boot, (unsigned long long)produced,
		(unsigned long long)p->events, (unsigned long long)before,
		(unsigned long long)after);
	fprintf(f, "%sprevious boot %llu: %llu blocks kept, %llu sent here, %llu did not "
		"check (dropped on the target); during that boot %llu events were sent, "
		"%llu overwritten, %llu refused by a full ring (stop mode), %llu discarded\n",
		prefix, (unsigned long long)p->boot, (unsigned long long)kept,
		(unsigned long long)p->blocks, (unsigned long long)torn,
		(unsigned long long)sent, (unsigned long long)over,
		(unsigned long long)full, (unsigned long long)disc);
	if (odd)
		fprintf(f, "%sprevious boot %llu: the books of %llu CPUs do not balance (more "
			"events decoded than recorded)\n", prefix, (unsigned long long)p->boot,
			(unsigned long long)odd);
}
