/*
 * tools/baretrace/model/flame_source.c: a trace read into flame.c's tree, for
 * the commands that draw stacks (folded, svg), and the choice of what
 * the widths mean. Graph records give time and call paths; failing
 * those, profile dumps give each function's total time with no paths;
 * failing those, function entries give call counts of caller/function.
 */
#include <stdlib.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"

#include "flame.h"
#include "model.h"

struct source {
	struct bt_flame *fl;
	struct bt_profile prof;
};

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	bt_flame_record(((struct source *)d->user)->fl, cpu, r);
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	bt_profile_add(&((struct source *)d->user)->prof, f);
}

static const struct bt_visitor source_visitor = { .record = on_record, .profile = on_profile };

/* Profile rows as one-level paths under BT_FLAME_OTHER ("CPU n" first). */
static void add_profile(struct bt_flame *fl, struct bt_profile *p)
{
	for (unsigned c = 0; c <= BT_MAX_CPUS; c++) {
		struct wire_profile_entry *rows;
		size_t n;
		char cpu[32], nb[32];
		const char *path[2] = { cpu, NULL };

		if (fl->per_cpu ? c == BT_MAX_CPUS || !p->cpu[c] : c != BT_MAX_CPUS)
			continue;
		snprintf(cpu, sizeof(cpu), "CPU %u", c);
		n = bt_profile_rows(p, c, &rows);
		for (size_t i = 0; i < n; i++) {
			path[1] = bt_func_name(fl->d, rows[i].site, nb, sizeof(nb));
			bt_flame_add(fl, path + !fl->per_cpu, 1 + !!fl->per_cpu, rows[i].calls,
				     rows[i].total);
		}
		free(rows);
	}
}

int bt_flame_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace,
		  const char *elf, int per_cpu)
{
	struct source src = { .fl = fl };
	int rc;

	bt_dec_init(d, &source_visitor, &src);
	bt_flame_init(fl, d, per_cpu);
	if (elf)
		bt_dec_use_elf(d, elf);
	rc = bt_decode_file(d, trace);
	if (!rc)
		add_profile(fl, &src.prof);
	bt_flame_finish(fl);
	bt_profile_free(&src.prof);
	if (fl->exits)
		fl->root = BT_FLAME_GRAPH;
	else if (src.prof.frames)
		fl->root = BT_FLAME_OTHER;
	else
		fl->root = BT_FLAME_EDGES;
	return rc;
}
