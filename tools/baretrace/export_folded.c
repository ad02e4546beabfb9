/*
 * tools/baretrace/export_folded.c: folded stacks, one "a;b;c value" line
 * per distinct stack, for flamegraph.pl and speedscope.
 *
 * With graph records the value is the self time in nanoseconds of the
 * innermost function on that stack (a flame graph's widths then add up
 * to wall time). With only function-entry records it is a call count on
 * the two-frame stack "caller;function". State is one total per distinct
 * stack, which the program's call structure bounds, not the trace length.
 */
#include <stdlib.h>
#include <string.h>

#include "bt.h"

struct stack_total {
	char *key;
	uint64_t value;
};

struct table {
	struct stack_total *v;
	size_t cap, n;
	uint64_t dropped;	/* additions past MAX_STACKS */
};

struct folded {
	struct table graph, edges;
	struct bt_stacks stacks;
};

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* Distinct stacks kept; the call structure of a real image stays far below. */
#define MAX_STACKS	(1u << 20)

static void add(struct table *t, const char *key, uint64_t value)
{
	if (t->n >= MAX_STACKS) {
		size_t i = (size_t)hash(key) & (t->cap - 1);

		while (t->v[i].key && strcmp(t->v[i].key, key))
			i = (i + 1) & (t->cap - 1);
		if (t->v[i].key)
			t->v[i].value += value;
		else
			t->dropped++;
		return;
	}
	if (2 * (t->n + 1) > t->cap) {
		struct table old = *t;

		t->cap = t->cap ? t->cap * 2 : 256;
		t->v = bt_alloc(t->cap * sizeof(*t->v));
		t->n = 0;
		for (size_t i = 0; i < old.cap; i++)
			if (old.v[i].key) {
				add(t, old.v[i].key, old.v[i].value);
				free(old.v[i].key);
			}
		free(old.v);
	}
	size_t i = (size_t)hash(key) & (t->cap - 1);

	while (t->v[i].key && strcmp(t->v[i].key, key))
		i = (i + 1) & (t->cap - 1);
	if (!t->v[i].key) {
		t->v[i].key = bt_strndup(key, strlen(key));
		t->n++;
	}
	t->v[i].value += value;
}

/* Appends a frame name, keeping the separators ';' and ' ' out of it. */
static void append(char *buf, size_t n, size_t *len, const char *name)
{
	if (*len && *len + 1 < n)
		buf[(*len)++] = ';';
	for (; *name && *len + 1 < n; name++)
		buf[(*len)++] = *name == ';' ? ':' : *name == ' ' || *name < 0x20 ? '_' : *name;
	buf[*len] = 0;
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct folded *fo = d->user;
	struct bt_stack *s = bt_stack_of(&fo->stacks, cpu);
	char key[BT_STACK_MAX * 24], nb[32];
	size_t len = 0;
	struct bt_frame f;
	unsigned level;

	key[0] = 0;
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		if (!r->has_caller)
			break;
		append(key, sizeof(key), &len, bt_caller_name(&d->syms, r->caller, nb, sizeof(nb)));
		append(key, sizeof(key), &len, bt_func_name(d, r->site, nb, sizeof(nb)));
		add(&fo->edges, key, 1);
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(s, r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT:
		bt_stack_exit(s, r->site, r->duration, &f, &level);
		/* After the exit, the frames below it are still on the stack. */
		for (unsigned i = 0; i < s->n && i < level; i++)
			append(key, sizeof(key), &len, bt_func_name(d, s->f[i].site, nb, sizeof(nb)));
		append(key, sizeof(key), &len, bt_func_name(d, r->site, nb, sizeof(nb)));
		add(&fo->graph, key, bt_ticks_ns(r->duration > f.child_ticks ?
						 r->duration - f.child_ticks : 0, bt_freq(d)));
		break;
	}
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct stack_total *)a)->key, ((const struct stack_total *)b)->key);
}

/* Writes the table sorted by stack (out may be NULL), then frees it. */
static void write_table(FILE *out, struct table *t)
{
	size_t k = 0;

	if (!t->v)
		return;
	for (size_t i = 0; i < t->cap; i++)
		if (t->v[i].key)
			t->v[k++] = t->v[i];
	qsort(t->v, k, sizeof(*t->v), by_key);
	for (size_t i = 0; i < k; i++) {
		if (out)
			fprintf(out, "%s %llu\n", t->v[i].key, (unsigned long long)t->v[i].value);
		free(t->v[i].key);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static const struct bt_visitor folded_visitor = { .record = on_record };

int bt_export_folded(const char *trace, const char *elf, const char *out)
{
	static struct bt_decoder d;
	struct folded fo = { 0 };
	FILE *f;
	int rc;

	bt_dec_init(&d, &folded_visitor, &fo);
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	if (!rc) {
		f = fopen(out, "w");
		if (!f)
			bt_die(BT_EXIT_INPUT, "cannot create %s", out);
		if (!fo.graph.n && !fo.edges.n)
			bt_warn("no function records: %s is empty", out);
		if (fo.graph.dropped + fo.edges.dropped)
			bt_warn("more than %u distinct stacks: the rest were left out", MAX_STACKS);
		write_table(f, fo.graph.n ? &fo.graph : &fo.edges);
		if (fclose(f))
			bt_die(BT_EXIT_INPUT, "error writing %s", out);
	}
	write_table(NULL, &fo.graph);	/* whichever was not written */
	write_table(NULL, &fo.edges);
	bt_stacks_free(&fo.stacks);
	bt_dec_free(&d);
	return rc;
}
