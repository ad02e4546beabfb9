/*
 * tools/baretrace/model/flame.h: calls merged by call path (flame.c), a
 * trace read into them (flame_source.c), the call graph beneath a
 * function (graph.c): what folded stacks, SVG and graph print.
 */
#ifndef TOOLS_BARETRACE_MODEL_FLAME_H
#define TOOLS_BARETRACE_MODEL_FLAME_H
#include "../../../wire/wire.h"
#include "../decode/decode.h"

#include "model.h"

/* ---- flame.c ----------------------------------------------------------- */

/* The roots: calls from graph exits, caller/function pairs from entries,
 * and whatever a command adds by path (profile dumps). */
enum { BT_FLAME_GRAPH, BT_FLAME_EDGES, BT_FLAME_OTHER, BT_FLAME_ROOTS };

struct bt_fnode {
	const char *name;		/* interned: one pointer per name */
	uint64_t calls, ticks, self;	/* ticks: inclusive (edges: call counts) */
	uint64_t value;			/* width, after finish: max(ticks, children's) */
	uint32_t child, next;		/* first child, next sibling; 0: none */
};

struct bt_flame {
	struct bt_decoder *d;
	int per_cpu;			/* paths start with "CPU n" */
	struct bt_fnode *n;		/* [0, BT_FLAME_ROOTS) are the roots */
	size_t len, cap;
	uint32_t free_list;
	char **names;			/* the interned names, a hash set */
	size_t nnames, names_cap;
	struct bt_stacks stacks;
	uint64_t exits, entries;
	uint32_t root;			/* what to draw, chosen by bt_flame_read */
};

void bt_flame_init(struct bt_flame *fl, struct bt_decoder *d, int per_cpu);
/* Function entries, graph entries and exits; other records are ignored. */
void bt_flame_record(struct bt_flame *fl, unsigned cpu, const struct wire_record *r);
/* Adds calls and ticks at a path under BT_FLAME_OTHER. */
void bt_flame_add(struct bt_flame *fl, const char *const *path, unsigned n, uint64_t calls,
		  uint64_t ticks);
/* End of input: calls still waiting for a caller go in; widths settle. */
void bt_flame_finish(struct bt_flame *fl);
const char *bt_flame_name(struct bt_flame *fl, const char *name);
void bt_flame_free(struct bt_flame *fl);
/*
 * flame_source.c: reads a trace into fl (d holds the names) and sets
 * fl->root: graph calls if there are exits, else profile dumps, else
 * function entries. Returns the exit status of the decoding.
 */
int bt_flame_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace,
		  const char *elf, int per_cpu);

/* graph.c: the trace's graph calls merged by path, children by total time. */
int bt_graph_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace, const char *elf);

#endif /* TOOLS_BARETRACE_MODEL_FLAME_H */
