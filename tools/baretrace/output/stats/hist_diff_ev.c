/*
 * tools/baretrace/output/stats/hist_diff_ev.c: the rows of `stats --diff
 * --hist` for the tracepoint field histograms (frame type 10 kind 1):
 * per key of a spec found in both traces (the same event, field and key
 * field, by name: two builds may number events apart), its hits and the
 * p50, p90 and p99 bounds of the values, old and new, with the change in
 * % of OLD. The values are the field's own (not times), so --floor does
 * not apply to them: --fail-above counts a key whose bound grew by more
 * than PCT %.
 */
#include <stdlib.h>
#include <string.h>

#include "../../decode/decode.h"
#include "../../model/model.h"

#include "stats.h"

static const unsigned pcts[] = { 50, 90, 99 };
#define NPCT	(sizeof(pcts) / sizeof(pcts[0]))

/* "event field[ per key]" of a spec, into buf. */
static const char *title(const struct bt_decoder *d, const struct bt_hist_ev *e, char *buf,
			 size_t n)
{
	char b1[32], b2[32], b3[32];

	snprintf(buf, n, "%s %s%s%s", bt_hist_ev_event(d, e, b1, sizeof(b1)),
		 bt_hist_ev_field(d, e, e->field, b2, sizeof(b2)), e->keyf ? " per " : "",
		 e->keyf ? bt_hist_ev_field(d, e, e->keyf - 1, b3, sizeof(b3)) : "");
	return buf;
}

/* The spec of oh with new spec ne's title, or NULL. */
static const struct bt_hist_ev *match(const struct bt_decoder *od, const struct bt_hist *oh,
				      const char *want)
{
	char buf[128];

	for (unsigned k = 0; k < BT_HIST_EV_MAX; k++)
		if (oh->ev[k].used && !strcmp(title(od, &oh->ev[k], buf, sizeof(buf)), want))
			return &oh->ev[k];
	return NULL;
}

static size_t diff_spec(const struct bt_hist_ev *oe, const struct bt_hist_ev *ne,
			const char *name, const struct bt_diff_opts *opt, size_t *over)
{
	uint64_t *keys;
	size_t n = bt_hist_sites(ne->keys, &keys), rows = 0;

	for (size_t i = 0; i < n; i++) {
		struct bt_hist_fn a, b;
		int grew = 0;

		bt_hist_sum(oe->keys, keys[i], &a);
		if (!a.calls)
			continue;	/* the key is new */
		bt_hist_sum(ne->keys, keys[i], &b);
		rows++;
		printf(" %9llu %10llu", (unsigned long long)a.calls, (unsigned long long)b.calls);
		for (size_t p = 0; p < NPCT; p++) {
			uint64_t x = bt_hist_percentile(&a, pcts[p]), y = bt_hist_percentile(&b, pcts[p]);
			double chg = x ? ((double)y - (double)x) * 100.0 / (double)x : 0;

			printf("  %12llu %12llu %+7.0f%%", (unsigned long long)x,
			       (unsigned long long)y, chg);
			if (opt->fail && y > x && chg > opt->fail_pct)
				grew = 1;
		}
		if (ne->keyf)
			printf("  %s = %llu\n", name, (unsigned long long)keys[i]);
		else
			printf("  %s\n", name);
		if (grew) {
			++*over;
			fflush(stdout);
			fprintf(stderr, "baretrace: stats --diff --hist: %s key %llu grew past %g%%\n",
				name, (unsigned long long)keys[i], opt->fail_pct);
		}
	}
	free(keys);
	return rows;
}

size_t bt_hist_diff_ev(const struct bt_decoder *od, const struct bt_hist *oh,
		       const struct bt_decoder *nd, const struct bt_hist *nh,
		       const struct bt_diff_opts *opt, size_t *over)
{
	size_t rows = 0;
	int said = 0;

	for (unsigned k = 0; k < BT_HIST_EV_MAX; k++) {
		char name[128];
		const struct bt_hist_ev *ne = &nh->ev[k], *oe;

		if (!ne->used || !(oe = match(od, oh, title(nd, ne, name, sizeof(name)))))
			continue;
		if (!said++)
			printf("# tracepoint fields: hits old and new, bounds in the field's own "
			       "values; --floor does not apply\n");
		rows += diff_spec(oe, ne, name, opt, over);
	}
	return rows;
}
