/*
 * tools/baretrace/model/profile.c: profile dumps (docs/wire.md 2.5), the
 * target profiler's per-function numbers: calls, total, min and max.
 *
 * Numbers in a dump are totals since the profiler started (or was reset),
 * not increments, so a CPU's later dump replaces its earlier one rather
 * than adding to it. A dump too big for one frame continues in the next
 * frames of that CPU with higher sites; a frame whose first site is not
 * above the previous frame's last begins a new dump. Memory is one entry
 * per function per CPU.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/units.h"

#include "model.h"

struct bt_prof_cpu {
	struct wire_profile_entry *e;	/* the CPU's current dump */
	size_t n, cap;
	uint64_t last_site;		/* of its previous non-empty frame */
	int have_last;
};

void bt_profile_add(struct bt_profile *p, const struct wire_frame *f)
{
	struct bt_prof_cpu *c = p->cpu[f->cpu];
	struct wire_profile_iter it;
	struct wire_profile_entry e;
	int first = 1;

	if (!c)
		c = p->cpu[f->cpu] = bt_alloc(sizeof(*c));
	p->frames++;
	wire_profile_begin(&it, f->body, f->body_len);
	while (wire_profile_next(&it, &e) == WIRE_REC_OK) {
		if (first && (!c->have_last || e.site <= c->last_site)) {
			c->n = 0;	/* a new dump */
			p->dumps++;
		}
		first = 0;
		c->e = bt_grow(c->e, &c->cap, c->n + 1, sizeof(*c->e));
		c->e[c->n++] = e;
		c->last_site = e.site;
		c->have_last = 1;
	}
}

int bt_profile_any(const struct bt_profile *p)
{
	return p->frames != 0;
}

static int by_site(const void *a, const void *b)
{
	const struct wire_profile_entry *x = a, *y = b;

	return x->site < y->site ? -1 : x->site > y->site;
}

size_t bt_profile_rows(struct bt_profile *p, unsigned cpu, struct wire_profile_entry **rows)
{
	struct wire_profile_entry *v = NULL;
	size_t n = 0, cap = 0, k = 0;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		if (!p->cpu[c] || (cpu < BT_MAX_CPUS && c != cpu))
			continue;
		for (size_t i = 0; i < p->cpu[c]->n; i++) {
			if (!p->cpu[c]->e[i].calls)
				continue;
			v = bt_grow(v, &cap, n + 1, sizeof(*v));
			v[n++] = p->cpu[c]->e[i];
		}
	}
	if (n)
		qsort(v, n, sizeof(*v), by_site);
	for (size_t i = 0; i < n; i++) {	/* one row per function */
		if (k && v[k - 1].site == v[i].site) {
			struct wire_profile_entry *m = &v[k - 1];

			m->calls += v[i].calls;
			m->total += v[i].total;
			if (v[i].min < m->min)
				m->min = v[i].min;
			if (v[i].max > m->max)
				m->max = v[i].max;
		} else {
			v[k++] = v[i];
		}
	}
	*rows = v;
	return k;
}

struct named_row {
	struct wire_profile_entry e;
	char name[32];
	const char *n;
};

static int by_total(const void *a, const void *b)
{
	const struct named_row *x = a, *y = b;

	if (x->e.total != y->e.total)
		return x->e.total > y->e.total ? -1 : 1;
	if (x->e.calls != y->e.calls)
		return x->e.calls > y->e.calls ? -1 : 1;
	return strcmp(x->n, y->n);
}

static void print_rows(struct bt_decoder *d, struct bt_profile *p, unsigned cpu,
		       const char *title)
{
	struct wire_profile_entry *rows;
	size_t n = bt_profile_rows(p, cpu, &rows);
	struct named_row *v = bt_alloc(sizeof(*v) * (n + 1));
	uint64_t freq = bt_freq(d);

	for (size_t i = 0; i < n; i++) {
		v[i].e = rows[i];
		v[i].n = bt_func_name(d, rows[i].site, v[i].name, sizeof(v[i].name));
	}
	qsort(v, n, sizeof(*v), by_total);
	printf("# %zu function%s, from %s; times in microseconds (no self time in a profile)\n"
	       "#%11s %14s %14s %14s %14s %14s  %s\n", n, bt_plural(n), title, "calls", "total", "self",
	       "avg", "min", "max", "function");
	for (size_t i = 0; i < n; i++) {
		char t[32], av[32], mn[32], mx[32];

		bt_fmt_usecs(t, sizeof(t), v[i].e.total, freq);
		bt_fmt_usecs(av, sizeof(av), v[i].e.total / v[i].e.calls, freq);
		bt_fmt_usecs(mn, sizeof(mn), v[i].e.min, freq);
		bt_fmt_usecs(mx, sizeof(mx), v[i].e.max, freq);
		printf("%12llu %14s %14s %14s %14s %14s  %s\n", (unsigned long long)v[i].e.calls,
		       t, "-", av, mn, mx, v[i].n);
	}
	free(v);
	free(rows);
}

void bt_profile_print(struct bt_decoder *d, struct bt_profile *p, int per_cpu)
{
	char title[80];
	unsigned ncpus = 0;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		ncpus += p->cpu[c] != NULL;
	if (!per_cpu) {
		snprintf(title, sizeof(title), "profile dumps merged over %u CPU%s", ncpus,
			 ncpus == 1 ? "" : "s");
		print_rows(d, p, BT_MAX_CPUS, title);
		return;
	}
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		if (!p->cpu[c])
			continue;
		snprintf(title, sizeof(title), "the profile dump of CPU %u", c);
		print_rows(d, p, c, title);
	}
}

void bt_profile_free(struct bt_profile *p)
{
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		if (p->cpu[c])
			free(p->cpu[c]->e);
		free(p->cpu[c]);
		p->cpu[c] = NULL;
	}
}
