/*
 * tools/baretrace/output/stats/hist_diff.c: `baretrace stats --diff --hist OLD
 * NEW`: per function with a duration histogram in both traces (frame
 * type 10, CPUs summed), its calls and the p50, p90 and p99 bounds, old
 * and new, with the change in % of OLD, for CI.
 *
 * Functions meet by name (two builds number their sites apart); the
 * bounds are compared in ns, so traces of different counter frequencies
 * compare too. A bound is the top of the bucket the percentile falls in:
 * the histogram cannot say more, so a percentile moves in steps of a
 * bucket, +100 % (or -50 %) at a time, and a change under one bucket
 * shows as none.
 *
 * On exact traces (make ci: QEMU -icount, diff_clock.c) the bounds are in
 * instructions and repeat exactly run to run.
 *
 * --fail-above PCT: exit status 3 when a function's p50, p90 or p99 grew
 * by more than PCT % and by at least the floor (diff_clock.c: none on
 * exact traces, 100 ms per CPU on host time, else 1 us; --floor sets it).
 * The tracepoint field histograms follow (hist_diff_ev.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../model/model.h"

#include "stats.h"

static const unsigned pcts[] = { 50, 90, 99 };
#define NPCT	(sizeof(pcts) / sizeof(pcts[0]))

struct side {
	struct bt_decoder d;
	struct bt_hist h;
	uint64_t *sites;
	size_t n;
};

/* A bucket's top bound (2^k - 1 ticks) in the diff's unit, as 2^k - 1
 * of it: instructions on exact traces, else ns. */
static uint64_t in_unit(uint64_t ticks, const struct bt_decoder *d, int exact)
{
	uint64_t hz = d->meta.freq;

	if (!hz || !ticks || ticks == UINT64_MAX)
		return ticks;
	if (exact)
		return bt_ticks_insns(ticks + 1, hz, d->clock.shift) - 1;
	return (uint64_t)((unsigned __int128)(ticks + 1) * 1000000000u / hz) - 1;
}

/* The site named 'name' in s, or -1. */
static long find(struct side *s, const char *name)
{
	char buf[64];

	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(bt_site_name(&s->d.syms, s->sites[i], buf, sizeof(buf)), name))
			return (long)i;
	return -1;
}

static void load(struct side *s, const char *trace, const char *elf)
{
	bt_hist_load(trace, elf, &s->d, &s->h);
	s->n = bt_hist_sites(&s->h, &s->sites);
}

static void release(struct side *s)
{
	free(s->sites);
	bt_dec_free(&s->d);
	bt_hist_free(&s->h);
}

int bt_hist_diff(const struct bt_diff_opts *opt)
{
	static struct side o, n;
	struct bt_diff_unit u;
	size_t both = 0, over = 0;
	char buf[64];

	load(&o, opt->old_trace, opt->old_elf);
	load(&n, opt->new_trace, opt->new_elf);
	printf("# stats --diff --hist: OLD %s, NEW %s; bounds in %s (the top of the log2 "
	       "bucket each percentile falls in), changes in %% of OLD\n", opt->old_trace,
	       opt->new_trace, bt_clock_exact(&o.d.clock) && bt_clock_exact(&n.d.clock) &&
	       o.d.clock.shift == n.d.clock.shift ? "instructions" : "ns");
	bt_diff_unit(&u, &o.d.clock, &n.d.clock,
		     o.d.meta.ncpus > n.d.meta.ncpus ? o.d.meta.ncpus : n.d.meta.ncpus, opt);
	bt_diff_unit_say(&u, &o.d.clock, &n.d.clock);
	printf("#%9s %10s", "calls old", "new");
	for (size_t p = 0; p < NPCT; p++)
		printf("  %10s%-2u %12s %8s", "p", pcts[p], "new", "change");
	printf("  function\n");
	for (size_t i = 0; i < n.n; i++) {
		const char *name = bt_site_name(&n.d.syms, n.sites[i], buf, sizeof(buf));
		long k = find(&o, name);
		struct bt_hist_fn a, b;
		int grew = 0;

		if (k < 0)
			continue;
		both++;
		bt_hist_sum(&o.h, o.sites[k], &a);
		bt_hist_sum(&n.h, n.sites[i], &b);
		printf(" %9llu %10llu", (unsigned long long)a.calls, (unsigned long long)b.calls);
		for (size_t p = 0; p < NPCT; p++) {
			uint64_t x = in_unit(bt_hist_percentile(&a, pcts[p]), &o.d, u.exact);
			uint64_t y = in_unit(bt_hist_percentile(&b, pcts[p]), &n.d, u.exact);
			double chg = x ? ((double)y - (double)x) * 100.0 / (double)x : 0;

			printf("  %12llu %12llu %+7.0f%%", (unsigned long long)x,
			       (unsigned long long)y, chg);
			if (opt->fail && y > x && chg > opt->fail_pct && y - x >= u.floor)
				grew = 1;
		}
		printf("  %s\n", name);
		if (grew) {
			over++;
			fflush(stdout);
			fprintf(stderr, "baretrace: stats --diff --hist: %s grew past %g%%\n", name,
				opt->fail_pct);
		}
	}
	both += bt_hist_diff_ev(&o.d, &o.h, &n.d, &n.h, opt, &over);
	if (!both) {
		fflush(stdout);
		fprintf(stderr, "baretrace: stats --diff --hist: %s and %s share no function or "
			"tracepoint field with a histogram: nothing to compare\n", opt->old_trace,
			opt->new_trace);
		release(&o);
		release(&n);
		return BT_EXIT_INPUT;
	}
	if (opt->fail) {
		printf("# --fail-above %g%%: %zu row%s over (p50, p90 or p99)\n",
		       opt->fail_pct, over, bt_plural(over));
		bt_diff_floor_say(&u);
	}
	release(&o);
	release(&n);
	return over ? BT_EXIT_OVER : 0;
}
