/*
 * tools/baretrace/output/stats/hist_ev.c: the hist command's part for the
 * tracepoint field histograms (frame type 10 kind 1, docs/wire.md 2.12;
 * model/hist.c keeps each spec's keys as a struct bt_hist whose "sites"
 * are the key values). Per spec, per key: its hits per power-of-two
 * range of the field's value as bars (all CPUs summed, or each CPU with
 * --per-cpu), or the same numbers as JSON; and the hits of keys the
 * target had no room for. The JSON buckets of a histogram are written
 * here for both kinds (hist.c's durations too).
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "stats.h"

#define BAR_WIDTH	40

/* The event's name and a field's, from the schemas (metadata key 7). */
const char *bt_hist_ev_event(const struct bt_decoder *d, const struct bt_hist_ev *e,
			     char *buf, size_t n)
{
	const struct bt_schema *s = bt_meta_schema(&d->meta, e->event);

	if (s)
		return s->name;
	snprintf(buf, n, "event %llu", (unsigned long long)e->event);
	return buf;
}

const char *bt_hist_ev_field(const struct bt_decoder *d, const struct bt_hist_ev *e,
			     uint64_t i, char *buf, size_t n)
{
	const struct bt_schema *s = bt_meta_schema(&d->meta, e->event);

	if (s && i < s->nfields)
		return s->fields[i].name;
	snprintf(buf, n, "field %llu", (unsigned long long)i);
	return buf;
}

static void bars(const struct bt_hist_fn *f, const char *unit)
{
	unsigned lo = WIRE_HIST_BUCKETS, hi = 0;
	uint64_t most = 0;

	for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++)
		if (f->bucket[b]) {
			lo = b < lo ? b : lo;
			hi = b;
			most = f->bucket[b] > most ? f->bucket[b] : most;
		}
	printf("%30s : %-10s distribution\n", unit, "count");
	for (unsigned b = lo; b <= hi && most; b++) {
		uint64_t from, to;
		unsigned stars = (unsigned)(f->bucket[b] * BAR_WIDTH / most);
		char range[64];

		bt_hist_range(b, &from, &to);
		snprintf(range, sizeof(range), "%llu -> %llu", (unsigned long long)from,
			 (unsigned long long)to);
		printf("%30s : %-10llu |%-*.*s|\n", range, (unsigned long long)f->bucket[b],
		       BAR_WIDTH, stars, "****************************************");
	}
}

static void head(const char *keyname, const struct bt_hist_fn *f, const char *where)
{
	if (keyname)
		printf("%s = %llu%s: ", keyname, (unsigned long long)f->site, where);
	else
		printf("all hits%s: ", where);
	printf("%llu hit%s", (unsigned long long)f->calls, bt_plural(f->calls));
	if (f->cpus)
		printf(" on %u CPU%s", f->cpus, f->cpus == 1 ? "" : "s");
	if (f->calls)
		printf(", average %llu, p50 <= %llu, p99 <= %llu",
		       (unsigned long long)(f->sum / f->calls),
		       (unsigned long long)bt_hist_percentile(f, 50),
		       (unsigned long long)bt_hist_percentile(f, 99));
	putchar('\n');
}

static uint64_t other_of(const struct bt_hist_ev *e)
{
	uint64_t n = 0;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		n += e->other[c];
	return n;
}

/* Every spec's bars; how many specs there were. */
size_t bt_hist_ev_print(const struct bt_decoder *d, const struct bt_hist *h, int per_cpu,
			int any_before)
{
	size_t specs = 0;

	for (unsigned k = 0; k < BT_HIST_EV_MAX; k++) {
		const struct bt_hist_ev *e = &h->ev[k];
		char b1[32], b2[32], b3[32];
		uint64_t *keys;
		size_t n;

		if (!e->used)
			continue;
		const char *key = e->keyf ? bt_hist_ev_field(d, e, e->keyf - 1, b3, sizeof(b3)) : NULL;
		const char *val = bt_hist_ev_field(d, e, e->field, b2, sizeof(b2));

		if (any_before || specs)
			putchar('\n');
		specs++;
		printf("%s: %s", bt_hist_ev_event(d, e, b1, sizeof(b1)), val);
		if (key)
			printf(" per %s", key);
		putchar('\n');
		n = bt_hist_sites(e->keys, &keys);
		for (size_t i = 0; i < n; i++) {
			struct bt_hist_fn sum;

			bt_hist_sum(e->keys, keys[i], &sum);
			head(key, &sum, "");
			bars(&sum, val);
			for (unsigned c = 0; per_cpu && c < BT_MAX_CPUS; c++) {
				const struct bt_hist_fn *f = bt_hist_of(e->keys, c, keys[i]);
				char where[32];

				if (!f)
					continue;
				snprintf(where, sizeof(where), " on CPU %u", c);
				head(key, f, where);
				bars(f, val);
			}
		}
		if (!n)
			printf("no hits\n");
		if (other_of(e))
			printf("%llu hits of keys the target had no room for (not above)\n",
			       (unsigned long long)other_of(e));
		free(keys);
	}
	return specs;
}

/* "buckets":[...] of one histogram, the bounds named lo/hi plus 'unit'
 * ("_ticks" for durations, "" for a field's own values). */
void bt_hist_json_buckets(const struct bt_hist_fn *f, const char *unit)
{
	int first = 1;

	fputs("\"buckets\":[", stdout);
	for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++) {
		uint64_t lo, hi;

		if (!f->bucket[b])
			continue;
		bt_hist_range(b, &lo, &hi);
		printf("%s{\"bucket\":%u,\"lo%s\":%llu,\"hi%s\":%llu,\"count\":%llu}",
		       first ? "" : ",", b, unit, (unsigned long long)lo, unit,
		       (unsigned long long)hi, (unsigned long long)f->bucket[b]);
		first = 0;
	}
	putchar(']');
}

static void json_key(const struct bt_hist_ev *e, uint64_t key)
{
	struct bt_hist_fn sum;
	int first = 1;

	bt_hist_sum(e->keys, key, &sum);
	printf("{\"key\":%llu,\"hits\":%llu,\"sum\":%llu,\"cpus\":%u,\"p50\":%llu,\"p90\":%llu,"
	       "\"p99\":%llu,", (unsigned long long)key, (unsigned long long)sum.calls,
	       (unsigned long long)sum.sum, sum.cpus,
	       (unsigned long long)bt_hist_percentile(&sum, 50),
	       (unsigned long long)bt_hist_percentile(&sum, 90),
	       (unsigned long long)bt_hist_percentile(&sum, 99));
	bt_hist_json_buckets(&sum, "");
	fputs(",\"per_cpu\":[", stdout);
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		const struct bt_hist_fn *f = bt_hist_of(e->keys, c, key);

		if (!f)
			continue;
		printf("%s{\"cpu\":%u,\"hits\":%llu,\"sum\":%llu,", first ? "" : ",", c,
		       (unsigned long long)f->calls, (unsigned long long)f->sum);
		bt_hist_json_buckets(f, "");
		putchar('}');
		first = 0;
	}
	fputs("]}", stdout);
}

/* "events":[...], each spec with its keys. */
void bt_hist_ev_json(const struct bt_decoder *d, const struct bt_hist *h)
{
	int first = 1;

	fputs("\"events\":[", stdout);
	for (unsigned k = 0; k < BT_HIST_EV_MAX; k++) {
		const struct bt_hist_ev *e = &h->ev[k];
		char b1[32], b2[32], b3[32];
		uint64_t *keys;
		size_t n;

		if (!e->used)
			continue;
		printf("%s{\"spec\":%u,\"event\":", first ? "" : ",", k);
		bt_json_str(stdout, bt_hist_ev_event(d, e, b1, sizeof(b1)));
		fputs(",\"field\":", stdout);
		bt_json_str(stdout, bt_hist_ev_field(d, e, e->field, b2, sizeof(b2)));
		fputs(",\"key\":", stdout);
		if (e->keyf)
			bt_json_str(stdout, bt_hist_ev_field(d, e, e->keyf - 1, b3, sizeof(b3)));
		else
			fputs("null", stdout);
		printf(",\"other\":%llu,\"keys\":[", (unsigned long long)other_of(e));
		n = bt_hist_sites(e->keys, &keys);
		for (size_t i = 0; i < n; i++) {
			if (i)
				putchar(',');
			json_key(e, keys[i]);
		}
		fputs("]}", stdout);
		free(keys);
		first = 0;
	}
	putchar(']');
}
