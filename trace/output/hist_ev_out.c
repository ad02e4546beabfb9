/*
 * trace/output/hist_ev_out.c: the tracepoint field histograms
 * (trace/events/hist_ev.c) to the host, frame type 10 kind 1
 * (docs/wire.md 2.12), and as bars on the console, one per key, all
 * CPUs added together.
 */
#include <stdint.h>

#include "core/core.h"
#include "events/hist_ev.h"
#include "export.h"
#include "kprintf.h"
#include "percpu.h"
#include "ring/ring.h"
#include "wire.h"

extern const struct tp_event __bt_events_start[];

static bool row_used(const struct hist_ev_row *r)
{
	if (!__atomic_load_n(&r->used, __ATOMIC_ACQUIRE))
		return false;
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		if (r->bucket[b])
			return true;
	return false;
}

/* One CPU's dump of spec k, in as many frames as it takes. */
static void send_one(unsigned int k, const struct hist_ev_spec *s, unsigned int c)
{
	static uint8_t body[RING_FRAME_BODY_MAX];
	const struct hist_ev_table *t = hist_ev_table_of(k, c);
	unsigned int i = 0, part = 0;

	do {
		struct wire_out o;
		unsigned int count = 0;
		size_t at;

		wire_out_init(&o, body, sizeof(body));
		wire_out_u8(&o, WIRE_HIST_EVENT);
		wire_out_varint(&o, part);
		wire_out_varint(&o, k);
		wire_out_varint(&o, (uint64_t)(s->ev - __bt_events_start));
		wire_out_varint(&o, s->field);
		wire_out_varint(&o, s->key == HIST_EV_NOKEY ? 0 : s->key + 1u);
		wire_out_varint(&o, t ? t->other : 0);
		at = o.len;
		wire_out_u8(&o, 0);	/* count: one byte, patched */
		for (; t && i < HIST_EV_KEYS && count < 127; i++) {
			size_t before = o.len;

			if (!row_used(&t->rows[i]))
				continue;
			hist_put_row(&o, t->rows[i].key, t->rows[i].sum, t->rows[i].bucket);
			if (o.overflow) {	/* goes in the next frame */
				o.len = before;
				o.overflow = 0;
				break;
			}
			count++;
		}
		body[at] = (uint8_t)count;
		export_frame(WIRE_FRAME_HIST, c, hist_frame_seq(), body, o.len);
		part++;
	} while (t && i < HIST_EV_KEYS);
}

/* Callers: the console, the end of the run, one at a time (as
 * hist_send). Every CPU online gets a dump of every spec. */
void hist_ev_send(void)
{
	const struct hist_ev_spec *s;
	unsigned int n = hist_ev_specs(&s);

	for (unsigned int k = 0; k < n; k++)
		for (unsigned int c = 0; c < smp_num_cpus(); c++)
			send_one(k, &s[k], c);
}

/* The smallest key above 'after' (any, if 'first') used on any CPU in
 * spec k; false when there is none. */
static bool next_key(unsigned int k, bool first, uint64_t after, uint64_t *key)
{
	bool found = false;

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct hist_ev_table *t = hist_ev_table_of(k, c);

		for (unsigned int i = 0; t && i < HIST_EV_KEYS; i++) {
			const struct hist_ev_row *r = &t->rows[i];

			if (row_used(r) && (first || r->key > after) && (!found || r->key < *key)) {
				*key = r->key;
				found = true;
			}
		}
	}
	return found;
}

/* Spec k's bars for each key seen on any CPU, in key order, all CPUs
 * added. */
static void print_spec(unsigned int k, const struct hist_ev_spec *s)
{
	uint64_t other = 0, key = 0;
	bool keyed = s->key != HIST_EV_NOKEY, any = false;

	kprintf("hist: %s: %s", s->ev->name, s->ev->fields[s->field].name);
	if (keyed)
		kprintf(" per %s", s->ev->fields[s->key].name);
	kprintf("\n");
	for (bool first = true; next_key(k, first, key, &key); first = false) {
		uint64_t sum[HIST_BUCKETS] = { 0 }, hits = 0, total = 0;

		for (unsigned int c = 0; c < smp_num_cpus(); c++) {
			const struct hist_ev_table *t = hist_ev_table_of(k, c);

			for (unsigned int j = 0; t && j < HIST_EV_KEYS; j++) {
				const struct hist_ev_row *r = &t->rows[j];

				if (!row_used(r) || r->key != key)
					continue;
				for (unsigned int b = 0; b < HIST_BUCKETS; b++) {
					sum[b] += r->bucket[b];
					hits += r->bucket[b];
				}
				total += r->sum;
			}
		}
		if (!hits)
			continue;
		any = true;
		if (keyed)
			kprintf("hist: %s = %lu: ", s->ev->fields[s->key].name, (unsigned long)key);
		else
			kprintf("hist: ");
		kprintf("%lu hit%s, average %lu\n", (unsigned long)hits, hits == 1 ? "" : "s",
			(unsigned long)(total / hits));
		hist_print_bars(sum, s->ev->fields[s->field].name);
	}
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct hist_ev_table *t = hist_ev_table_of(k, c);

		other += t ? t->other : 0;
	}
	if (!any)
		kprintf("hist: no hits\n");
	if (other)
		kprintf("hist: %lu hits of keys past the %u a CPU keeps, not counted above\n",
			(unsigned long)other, HIST_EV_KEYS);
}

void hist_ev_print(void)
{
	const struct hist_ev_spec *s;
	unsigned int n = hist_ev_specs(&s);

	for (unsigned int k = 0; k < n; k++)
		print_spec(k, &s[k]);
}
