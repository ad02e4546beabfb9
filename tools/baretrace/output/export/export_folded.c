/*
 * tools/baretrace/output/export/export_folded.c: folded stacks, one "a;b;c
 * value" line per distinct stack, sorted, for flamegraph.pl, speedscope and
 * inferno.
 *
 * The stacks are flame.c's tree (flame_source.c picks the records). With
 * graph records the value is the self time in nanoseconds of the
 * innermost function on that stack, so a flame graph's widths add up to
 * the time under the traced calls; exits without entries (threshold
 * mode) sit under the calls that contain them. Frames still running at
 * the end of the trace appear only in their callees' stacks. With only
 * profile dumps it is each function's total time, one frame deep, as a
 * profile has no stacks. With only function-entry records it is a call
 * count on the two-frame stack "caller;function".
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/flame.h"
#include "../../model/model.h"

#include "export.h"

struct line {
	char *key;
	uint64_t value;
};

struct lines {
	struct line *v;
	size_t n, cap;
};

/* Appends a frame name, keeping the separators ';' and ' ' out of it. */
static void append(char *buf, size_t n, size_t *len, const char *name)
{
	if (*len && *len + 1 < n)
		buf[(*len)++] = ';';
	for (; *name && *len + 1 < n; name++)
		buf[(*len)++] = *name == ';' ? ':' : *name == ' ' || *name < 0x20 ? '_' : *name;
	buf[*len] = 0;
}

/* One line per node that was called, for the stack down to it. */
static void walk(struct bt_flame *fl, uint32_t i, char *key, size_t cap, size_t len,
		 struct lines *out)
{
	const struct bt_fnode *f = &fl->n[i];
	uint64_t freq = bt_freq(fl->d);

	append(key, cap, &len, f->name);
	if (f->calls) {
		out->v = bt_grow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n].key = bt_strndup(key, len);
		out->v[out->n++].value = fl->root == BT_FLAME_GRAPH ? bt_ticks_ns(f->self, freq) :
					 fl->root == BT_FLAME_OTHER ? bt_ticks_ns(f->ticks, freq) :
					 f->ticks;
	}
	for (uint32_t c = f->child; c; c = fl->n[c].next)
		walk(fl, c, key, cap, len, out);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->key, ((const struct line *)b)->key);
}

int bt_export_folded(const char *trace, const char *elf, const char *out, int per_cpu)
{
	static struct bt_decoder d;
	static struct bt_flame fl;
	static char key[BT_STACK_MAX * 64];
	struct lines ls = { 0 };
	FILE *f;
	int rc = bt_flame_read(&fl, &d, trace, elf, per_cpu);

	if (!rc) {
		f = bt_out_open(out, "w");
		if (!f)
			bt_die(BT_EXIT_INPUT, "cannot create %s", out);
		for (uint32_t c = fl.n[fl.root].child; c; c = fl.n[c].next)
			walk(&fl, c, key, sizeof(key), 0, &ls);
		if (!ls.n)
			bt_warn("no function records: %s is empty", out);
		if (ls.n)
			qsort(ls.v, ls.n, sizeof(*ls.v), by_key);
		for (size_t i = 0; i < ls.n; i++) {
			/* Names that differ only in ';' or ' ' fold into one line. */
			uint64_t v = ls.v[i].value;

			while (i + 1 < ls.n && !strcmp(ls.v[i].key, ls.v[i + 1].key))
				v += ls.v[++i].value;
			fprintf(f, "%s %llu\n", ls.v[i].key, (unsigned long long)v);
		}
		if (bt_out_close(f))
			bt_die(BT_EXIT_INPUT, "error writing %s", out);
	}
	for (size_t i = 0; i < ls.n; i++)
		free(ls.v[i].key);
	free(ls.v);
	bt_flame_free(&fl);
	bt_dec_free(&d);
	return rc;
}
