/*
 * tools/baretrace/model/hist.c: the duration histograms of a run, from its
 * type-10 frames (docs/wire.md 2.12): the latest dump of each CPU, each
 * function's calls per log2 bucket of counter ticks.
 *
 * A frame with part 0 begins a new dump of its CPU, replacing what the
 * CPU had (dumps are totals); part 1, 2, ... add to it. A body is read
 * whole into a scratch list first, so a malformed one changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "model.h"

void bt_hist_init(struct bt_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void bt_hist_free(struct bt_hist *h)
{
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		free(h->cpu[c].fn);
	for (unsigned k = 0; k < BT_HIST_EV_MAX; k++)
		if (h->ev[k].keys) {
			bt_hist_free(h->ev[k].keys);
			free(h->ev[k].keys);
		}
	memset(h, 0, sizeof(*h));
}

/* A body's head: kind 0 has the part only; kind 1 (a tracepoint field)
 * also spec, event, field, key field + 1 and the other count. */
struct head {
	unsigned kind;
	uint64_t part, spec, event, field, keyf, other;
};

/* One body into out[] (room for 127 entries); the count, or -1. */
static int parse(const uint8_t *p, size_t n, struct head *hd, struct bt_hist_fn *out)
{
	uint64_t *want[] = { &hd->part, &hd->spec, &hd->event, &hd->field, &hd->keyf, &hd->other };
	size_t at = 1;
	unsigned count;
	int k;

	memset(hd, 0, sizeof(*hd));
	if (n < 3 || (p[0] != WIRE_HIST_DURATION && p[0] != WIRE_HIST_EVENT))
		return -1;
	hd->kind = p[0];
	for (unsigned i = 0; i < (hd->kind == WIRE_HIST_EVENT ? 6u : 1u); i++)
		if ((k = wire_varint_get(p + at, n - at, want[i])) < 0 || (at += (size_t)k) >= n)
			return -1;
	count = p[at++];
	if (count > 127)
		return -1;
	for (unsigned i = 0; i < count; i++) {
		struct bt_hist_fn *f = &out[i];
		uint64_t used;
		int last = -1;

		memset(f, 0, sizeof(*f));
		if ((k = wire_varint_get(p + at, n - at, &f->site)) < 0)
			return -1;
		at += (size_t)k;
		if ((k = wire_varint_get(p + at, n - at, &f->sum)) < 0)
			return -1;
		at += (size_t)k;
		if ((k = wire_varint_get(p + at, n - at, &used)) < 0 || !used ||
		    used > WIRE_HIST_BUCKETS)
			return -1;
		at += (size_t)k;
		for (uint64_t j = 0; j < used; j++) {
			uint64_t calls;

			if (at >= n || p[at] >= WIRE_HIST_BUCKETS || (int)p[at] <= last)
				return -1;	/* buckets ascend, each once */
			last = p[at++];
			if ((k = wire_varint_get(p + at, n - at, &calls)) < 0 || !calls)
				return -1;
			at += (size_t)k;
			f->bucket[last] = calls;
			f->calls += calls;
		}
	}
	return (int)count;
}

/* count entries of one part into h's CPU cpu. */
static void add_part(struct bt_hist *h, unsigned cpu, uint64_t part,
		     const struct bt_hist_fn *scratch, int count)
{
	struct bt_hist_cpu *c = &h->cpu[cpu];

	if (part == 0) {
		c->n = 0;	/* a new dump replaces the CPU's last one */
		c->dumps++;
	} else if (!c->dumps || part != c->next_part) {
		h->orphans++;	/* its dump's first frames are missing */
		return;
	}
	c->next_part = part + 1;
	h->frames++;
	if (!count)	/* an empty dump: nothing to add (fn may be NULL) */
		return;
	c->fn = bt_grow(c->fn, &c->cap, c->n + (size_t)count, sizeof(*c->fn));
	memcpy(c->fn + c->n, scratch, (size_t)count * sizeof(*scratch));
	c->n += (size_t)count;
}

int bt_hist_add_frame(struct bt_hist *h, unsigned cpu, const uint8_t *body, size_t len)
{
	static struct bt_hist_fn scratch[127];
	struct head hd;
	struct bt_hist_ev *e;
	int count;

	if (cpu >= BT_MAX_CPUS || (count = parse(body, len, &hd, scratch)) < 0)
		return -1;
	if (hd.kind == WIRE_HIST_DURATION) {
		add_part(h, cpu, hd.part, scratch, count);
		return 0;
	}
	if (hd.spec >= BT_HIST_EV_MAX)
		return -1;
	e = &h->ev[hd.spec];
	if (e->used && (e->event != hd.event || e->field != hd.field || e->keyf != hd.keyf)) {
		bt_hist_free(e->keys);	/* the run started other specs: a new one */
		memset(e->other, 0, sizeof(e->other));
	}
	if (!e->keys) {
		e->keys = bt_grow(NULL, &(size_t){ 0 }, 1, sizeof(*e->keys));
		bt_hist_init(e->keys);
	}
	e->used = 1;
	e->event = hd.event;
	e->field = hd.field;
	e->keyf = hd.keyf;
	e->other[cpu] = hd.other;
	add_part(e->keys, cpu, hd.part, scratch, count);
	h->frames++;
	h->orphans += e->keys->orphans;
	e->keys->orphans = 0;
	return 0;
}

/* The function's entry in a CPU's dump, or NULL. */
const struct bt_hist_fn *bt_hist_of(const struct bt_hist *h, unsigned cpu, uint64_t site)
{
	const struct bt_hist_cpu *c = &h->cpu[cpu];

	for (size_t i = 0; i < c->n; i++)
		if (c->fn[i].site == site)
			return &c->fn[i];
	return NULL;
}

void bt_hist_sum(const struct bt_hist *h, uint64_t site, struct bt_hist_fn *out)
{
	memset(out, 0, sizeof(*out));
	out->site = site;
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		const struct bt_hist_fn *f = bt_hist_of(h, c, site);

		if (!f)
			continue;
		for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++)
			out->bucket[b] += f->bucket[b];
		out->calls += f->calls;
		out->sum += f->sum;
		out->cpus++;
	}
}

/* Sites with a histogram on any CPU, ascending, each once. */
size_t bt_hist_sites(const struct bt_hist *h, uint64_t **sites)
{
	size_t n = 0, cap = 0;
	uint64_t *s = NULL;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		for (size_t i = 0; i < h->cpu[c].n; i++) {
			uint64_t site = h->cpu[c].fn[i].site;
			size_t k = 0;

			while (k < n && s[k] < site)
				k++;
			if (k < n && s[k] == site)
				continue;
			s = bt_grow(s, &cap, n + 1, sizeof(*s));
			memmove(s + k + 1, s + k, (n - k) * sizeof(*s));
			s[k] = site;
			n++;
		}
	*sites = s;
	return n;
}

void bt_hist_range(unsigned b, uint64_t *lo, uint64_t *hi)
{
	*lo = b ? 1ULL << (b - 1) : 0;
	*hi = b == 0 ? 0 : b == WIRE_HIST_BUCKETS - 1 ? UINT64_MAX : (1ULL << b) - 1;
}

uint64_t bt_hist_percentile(const struct bt_hist_fn *f, unsigned pct)
{
	uint64_t want = (f->calls * pct + 99) / 100, seen = 0, lo, hi;

	for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++) {
		seen += f->bucket[b];
		if (want && seen >= want) {
			bt_hist_range(b, &lo, &hi);
			return hi;
		}
	}
	return 0;
}
