/*
 * tools/baretrace/output/stats/stats_diff.c: `baretrace stats --diff OLD NEW`,
 * what changed per function between two traces: calls, total, self, avg
 * and max, old and new side by side with the change in % of OLD, for CI
 * ("this commit made sensor_read 30 % slower").
 *
 * Functions meet by name, not by site: two builds number their sites
 * apart. Times are compared in instructions when both traces are exact
 * (make ci: QEMU -icount, diff_clock.c), else in ns, so traces of
 * different counter frequencies compare too. A name met twice in one
 * trace (two static functions of one name) is one row with both
 * functions' figures added.
 *
 * Rows in both traces come first, by the largest change (absolute, in %)
 * of any column, or of the --sort column; then functions only in NEW
 * ("added"), then only in OLD ("removed"), each by that column's value.
 * Ties by name.
 *
 * --fail-above PCT: exit status 3 when a function in both traces grew by
 * more than PCT %, and, for a time, by at least the floor (diff_clock.c).
 * Exact traces gate on calls and self: a function one instruction
 * slower in its own code is the one named, and its callers, whose total
 * grew by what it grew, are marked [inherited] and pass (their own code
 * did not change; a trace without self times gates on total). A function
 * only in NEW fails there too (newly called: new work no other row
 * shows); one only in OLD never fails (less work). Host-time and other
 * traces gate on calls, total and avg, and a function in one trace only
 * never fails (whether a function runs may follow the host's timing).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/units.h"
#include "../ci/junit.h"
#include "../ci/junit_gate.h"

#include "stats.h"

enum { IN_BOTH, ADDED, REMOVED };

struct diff_row {
	const struct bt_stat_row *old, *new;	/* NULL: not in that trace */
	int group;				/* IN_BOTH, ADDED, REMOVED */
	double chg[BT_STAT_KEYS];		/* % of OLD; NAN: not known */
	double order;				/* what the rows sort by */
	unsigned over;				/* keys past --fail-above, a bit each */
	int inherited;				/* exact: total grew, self did not */
};

static struct bt_diff_unit unit;	/* the two traces' unit and floor */

/* One row per name: equal names' figures added (the set sorted by name). */
static void merge_names(struct bt_stat_set *s)
{
	size_t k = 0;

	for (size_t i = 0; i < s->n; i++) {
		struct bt_stat_row *m = &s->rows[k - (k > 0)];

		if (k && !strcmp(m->name, s->rows[i].name)) {
			m->calls += s->rows[i].calls;
			m->total += s->rows[i].total;
			m->self += s->rows[i].self;
			if (s->rows[i].max > m->max)
				m->max = s->rows[i].max;
			free((char *)s->rows[i].name);
		} else {
			s->rows[k++] = s->rows[i];
		}
	}
	s->n = k;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct bt_stat_row *)a)->name, ((const struct bt_stat_row *)b)->name);
}

/* A key's value as a double: avg exactly, as total / calls. */
static double value(const struct bt_stat_row *r, int key)
{
	if (key == BT_STAT_AVG)
		return r->calls ? (double)r->total / (double)r->calls : 0;
	return (double)bt_stat_value(r, key);
}

static int known(const struct bt_stat_set *a, const struct bt_stat_set *b, int key)
{
	if (key == BT_STAT_CALLS)
		return 1;
	if (key == BT_STAT_SELF)
		return a->self && b->self;
	return a->times && b->times;
}

/* The keys --fail-above looks at (see the top of the file). */
static int gated(int key, const struct bt_stat_set *o, const struct bt_stat_set *n)
{
	if (key == BT_STAT_CALLS)
		return 1;
	if (unit.exact)
		return o->self && n->self ? key == BT_STAT_SELF : key == BT_STAT_TOTAL;
	return key == BT_STAT_TOTAL || key == BT_STAT_AVG;
}

static void compare(struct diff_row *r, const struct bt_stat_set *o, const struct bt_stat_set *n,
		    const struct bt_diff_opts *opt)
{
	for (int k = 0; k < BT_STAT_KEYS; k++) {
		double vo = value(r->old, k), vn = value(r->new, k);
		double c = vo ? (vn - vo) * 100.0 / vo : vn ? INFINITY : 0;

		r->chg[k] = known(o, n, k) ? c : NAN;
		if (isnan(r->chg[k]))
			continue;
		if (opt->sort < 0 ? (c < 0 ? -c : c) > r->order : k == opt->sort)
			r->order = c < 0 ? -c : c;
		/* Calls count without a floor: a call more is the code's doing. */
		if (opt->fail && c > opt->fail_pct && gated(k, o, n) &&
		    (k == BT_STAT_CALLS || vn - vo >= (double)unit.floor))
			r->over |= 1u << k;
	}
	r->inherited = unit.exact && o->self && n->self && !r->over &&
		       r->new->total > r->old->total && r->new->self <= r->old->self;
}

/* An exact set's instructions as ns (2^shift ns each), beside a trace in time. */
static void to_ns(struct bt_stat_set *s)
{
	if (!s->exact)
		return;
	for (size_t i = 0; i < s->n; i++) {
		s->rows[i].total <<= s->clock.shift;
		s->rows[i].self <<= s->clock.shift;
		s->rows[i].max <<= s->clock.shift;
	}
	s->exact = 0;
}

static int sort_key;	/* for by_order: the --sort key, total by default */

static int by_order(const void *pa, const void *pb)
{
	const struct diff_row *x = pa, *y = pb;
	const struct bt_stat_row *a = x->new ? x->new : x->old, *b = y->new ? y->new : y->old;

	if (x->group != y->group)
		return x->group - y->group;
	if (x->group == IN_BOTH && x->order != y->order)
		return x->order > y->order ? -1 : 1;
	if (x->group != IN_BOTH && value(a, sort_key) != value(b, sort_key))
		return value(a, sort_key) > value(b, sort_key) ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void fmt_pct(char *buf, size_t n, double c)
{
	if (isnan(c))
		snprintf(buf, n, "-");
	else if (isinf(c))
		snprintf(buf, n, "+inf%%");
	else if (c == 0)
		snprintf(buf, n, "0.0%%");
	else
		snprintf(buf, n, "%+.1f%%", c);
}

/* One value: calls as a count, times in microseconds or instructions,
 * "-" if absent. */
static void fmt_val(char *buf, size_t n, const struct bt_stat_row *r, int key, int times)
{
	if (!r || (key != BT_STAT_CALLS && !times))
		snprintf(buf, n, "-");
	else if (key == BT_STAT_CALLS || unit.exact)
		snprintf(buf, n, "%llu", (unsigned long long)bt_stat_value(r, key));
	else
		bt_fmt_usecs(buf, n, bt_stat_value(r, key), 1000000000);
}

static const int columns[] = { BT_STAT_CALLS, BT_STAT_TOTAL, BT_STAT_SELF, BT_STAT_AVG,
			       BT_STAT_MAX };

static void print_row(const struct diff_row *r, const struct bt_stat_set *o,
		      const struct bt_stat_set *n)
{
	for (size_t c = 0; c < sizeof(columns) / sizeof(columns[0]); c++) {
		int k = columns[c], w = k == BT_STAT_CALLS ? 8 : 11;
		char a[40], b[40], p[40];

		fmt_val(a, sizeof(a), r->old, k, o->times && (k != BT_STAT_SELF || o->self));
		fmt_val(b, sizeof(b), r->new, k, n->times && (k != BT_STAT_SELF || n->self));
		fmt_pct(p, sizeof(p), r->group == IN_BOTH ? r->chg[k] : NAN);
		printf("%s%*s %*s %8s", c ? "  " : " ", w, a, w, b, p);
	}
	printf("  %s", (r->new ? r->new : r->old)->name);
	if (r->group != IN_BOTH)
		printf("  [%s]", r->group == ADDED ? "added" : "removed");
	if (r->inherited)
		printf("  [inherited: total %+lld from callees]",
		       (long long)(r->new->total - r->old->total));
	if (r->over) {
		printf("  [over:");
		for (size_t c = 0; c < sizeof(columns) / sizeof(columns[0]); c++)
			if (r->over & (1u << columns[c]))
				printf(" %s", bt_stat_key_names[columns[c]]);
		printf("]");
	}
	printf("\n");
}

/*
 * stderr, for a CI log: "sensor_read grew more than 25%: total +30.0%";
 * on exact traces with the delta: "self +37 instructions (+0.3%)", and
 * "newly called: 2 calls, total 120 instructions".
 */
static void say_over(const struct diff_row *r, const char *limit)
{
	char p[40];
	int said = 0;

	fprintf(stderr, "baretrace: stats --diff: %s grew more than %s%%:", r->new->name, limit);
	if (r->group == ADDED) {
		fprintf(stderr, " newly called: %llu call%s, total %llu %s\n",
			(unsigned long long)r->new->calls, bt_plural(r->new->calls),
			(unsigned long long)r->new->total, unit.name);
		return;
	}
	for (size_t c = 0; c < sizeof(columns) / sizeof(columns[0]); c++) {
		int k = columns[c];

		if (!(r->over & (1u << k)))
			continue;
		fmt_pct(p, sizeof(p), r->chg[k]);
		if (unit.exact)
			fprintf(stderr, "%s %s %+lld%s (%s)", said++ ? "," : "", bt_stat_key_names[k],
				(long long)(bt_stat_value(r->new, k) - bt_stat_value(r->old, k)),
				k == BT_STAT_CALLS ? "" : " instructions", p);
		else
			fprintf(stderr, "%s %s %s", said++ ? "," : "", bt_stat_key_names[k], p);
	}
	fputc('\n', stderr);
}

/* --junit: each row's verdict, a testcase (output/ci/junit_gate.c). */
static int junit_verdicts(const struct diff_row *v, size_t k, const struct bt_diff_opts *opt,
			  const char *pct)
{
	struct bt_junit j = { 0 };

	for (size_t i = 0; i < k; i++) {
		struct bt_gate_key keys[BT_STAT_KEYS];
		unsigned n = 0;

		for (size_t c = 0; c < sizeof(columns) / sizeof(columns[0]); c++)
			if (v[i].over & (1u << columns[c]))	/* ADDED (exact): calls from none */
				keys[n++] = (struct bt_gate_key){ bt_stat_key_names[columns[c]],
					v[i].old ? value(v[i].old, columns[c]) : 0,
					value(v[i].new, columns[c]),
					v[i].old ? v[i].chg[columns[c]] : INFINITY,
					columns[c] == BT_STAT_CALLS ? "calls" :
					unit.exact ? "instructions" : "ns" };
		bt_gate_junit_row(&j, (v[i].new ? v[i].new : v[i].old)->name, v[i].group == IN_BOTH
				  ? NULL : v[i].group == ADDED ? "added" : "removed", keys, n, pct);
	}
	return bt_gate_junit_write(&j, opt->junit, opt->old_trace, opt->new_trace);
}

/* Pairs the two name-sorted sets into rows. */
static size_t pair(struct diff_row *v, struct bt_stat_set *o, struct bt_stat_set *n,
		   const struct bt_diff_opts *opt, size_t *counts)
{
	size_t i = 0, j = 0, k = 0;

	while (i < o->n || j < n->n) {
		int c = i == o->n ? 1 : j == n->n ? -1 : strcmp(o->rows[i].name, n->rows[j].name);
		struct diff_row *r = &v[k++];

		r->old = c <= 0 ? &o->rows[i++] : NULL;
		r->new = c >= 0 ? &n->rows[j++] : NULL;
		r->group = c < 0 ? REMOVED : c > 0 ? ADDED : IN_BOTH;
		counts[r->group]++;
		if (r->group == IN_BOTH)
			compare(r, o, n, opt);
		else if (r->group == ADDED && unit.exact && opt->fail)
			r->over = 1u << BT_STAT_CALLS;	/* from none: +inf % */
	}
	return k;
}

int bt_stats_diff(const struct bt_diff_opts *opt)
{
	struct bt_stat_set o, n;
	struct diff_row *v;
	size_t k, counts[3] = { 0 }, over = 0;
	char pct[32];
	int rc = opt->junit ? bt_junit_check_path(opt->junit, "stats --diff") : 0;

	if (!rc)
		rc = bt_stats_read(opt->old_trace, opt->old_elf, &o);
	if (rc)
		return rc;
	rc = bt_stats_read(opt->new_trace, opt->new_elf, &n);
	if (rc) {
		bt_stat_set_free(&o);
		return rc;
	}
	qsort(o.rows, o.n, sizeof(*o.rows), by_name);
	qsort(n.rows, n.n, sizeof(*n.rows), by_name);
	merge_names(&o);
	merge_names(&n);
	bt_diff_unit(&unit, &o.clock, &n.clock, o.ncpus > n.ncpus ? o.ncpus : n.ncpus, opt);
	if (!unit.exact)
		to_ns(&o);	/* an exact trace beside another: compared in time */
	if (!unit.exact)
		to_ns(&n);
	v = bt_alloc(sizeof(*v) * (o.n + n.n + 1));
	k = pair(v, &o, &n, opt, counts);
	sort_key = opt->sort < 0 ? BT_STAT_TOTAL : opt->sort;
	qsort(v, k, sizeof(*v), by_order);

	/* Nothing in common: no change to measure, so no verdict to give. */
	if (!counts[IN_BOTH]) {
		fflush(stdout);
		fprintf(stderr, "baretrace: stats --diff: %s (%zu function%s) and %s (%zu function%s) "
			"share no function: nothing to compare (traces of different apps, or "
			"without function records?)\n", opt->old_trace, o.n, bt_plural(o.n),
			opt->new_trace, n.n, bt_plural(n.n));
		free(v);
		bt_stat_set_free(&o);
		bt_stat_set_free(&n);
		return BT_EXIT_INPUT;
	}
	printf("# stats --diff: OLD %s (%s), NEW %s (%s)\n", opt->old_trace, o.source,
	       opt->new_trace, n.source);
	bt_diff_unit_say(&unit, &o.clock, &n.clock);
	printf("# %zu function%s: %zu in both, %zu added, %zu removed; times in %s, "
	       "changes in %% of OLD\n", k, bt_plural(k), counts[IN_BOTH], counts[ADDED],
	       counts[REMOVED], unit.name);
	/* Each name over its group: old, new, change. */
	printf("#%-26s  %-32s  %-32s  %-32s  %s", "    calls", "      total", "      self",
	       "      avg", "      max");
	printf("\n#%8s %8s %8s", "old", "new", "change");
	for (int c = 0; c < 4; c++)
		printf("  %11s %11s %8s", "old", "new", "change");
	printf("  function\n");
	for (size_t i = 0; i < k; i++) {
		print_row(&v[i], &o, &n);
		over += v[i].over != 0;
	}
	if (opt->fail) {
		snprintf(pct, sizeof(pct), "%g", opt->fail_pct);
		printf("# --fail-above %s%%: %zu function%s over (%s)\n", pct, over,
		       over == 1 ? "" : "s", !unit.exact ? "calls, total or avg" :
		       o.self && n.self ? "calls or self; newly called" : "calls or total; newly called");
		bt_diff_floor_say(&unit);
		fflush(stdout);	/* the table first, where both go to one place */
		for (size_t i = 0; i < k; i++)
			if (v[i].over)
				say_over(&v[i], pct);
	}
	snprintf(pct, sizeof(pct), "%g", opt->fail_pct);
	rc = opt->junit ? junit_verdicts(v, k, opt, pct) : 0;
	free(v);
	bt_stat_set_free(&o);
	bt_stat_set_free(&n);
	return rc ? rc : over ? BT_EXIT_OVER : 0;
}
