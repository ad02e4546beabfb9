/*
 * tools/baretrace/output/bt_out.h: the output side of the host tool: flame-graph
 * trees, text rendering, Chrome JSON helpers and the commands. Included
 * by bt.h after the decoding side it builds on.
 */
#ifndef TOOLS_BARETRACE_BT_OUT_H
#define TOOLS_BARETRACE_BT_OUT_H

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

/* ---- render.c ---------------------------------------------------------- */

uint64_t bt_ticks_ns(uint64_t ticks, uint64_t freq);
/* "12.345678" seconds from a counter value. */
extern int bt_opt_ns;	/* report --ns */
void bt_fmt_seconds(char *buf, size_t n, uint64_t ticks, uint64_t freq);
/* "12.345" microseconds from ticks. */
void bt_fmt_usecs(char *buf, size_t n, uint64_t ticks, uint64_t freq);
/* A tracepoint record's fields as "a=1 b=str"; returns 0 or -1. */
int bt_fmt_event(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n,
		 const char **name);
/* A trace_printf record rendered through its format string. */
void bt_fmt_printf(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n);

/* ---- render_ext.c ------------------------------------------------------ */

#define BT_ARGS_SHOWN	255	/* an arguments record holds at most this many */

/* "traceoff", or "action#N" written into buf for one this tool does not know. */
const char *bt_trigger_action(uint8_t action, char *buf, size_t n);
/* Argument values as "0x1<sep>0x2", truncated to cap. */
void bt_fmt_arg_values(const int64_t *v, unsigned n, const char *sep, char *buf, size_t cap);
/* The first 'max' arguments of a parsed subtype-1 record; returns how many. */
unsigned bt_ext_args(const struct wire_ext *x, int64_t *v, unsigned max);
/* report's line(s) for an extension record on its own: "[000] ts: ..." */
void bt_print_ext(struct bt_decoder *d, unsigned cpu, const char *ts, struct wire_ext *x);

/* ---- chrome_calls.c ---------------------------------------------------- */

#define BT_CALLS_HOLD	65536	/* calls held per CPU before the earliest are written */

/* A returned call, as a complete event to write. */
struct bt_call {
	uint64_t cpu, start, end, site;
	uint64_t arrival;		/* set by bt_calls_add */
	int has_retval;
	int64_t retval;
	unsigned nargs;
	int64_t args[BT_ARGS_MAX];
};

struct bt_calls {
	struct bt_call *v;
	size_t n, cap;
	uint64_t arrivals;
};

typedef void (*bt_call_writer)(void *ctx, const struct bt_call *k);

/* Room for one more call (zeroed), writing the earliest half when full. */
struct bt_call *bt_calls_add(struct bt_calls *h, bt_call_writer write, void *ctx);
/* Writes all but 'keep' held calls, in the order viewers need. */
void bt_calls_write(struct bt_calls *h, size_t keep, bt_call_writer write, void *ctx);
void bt_calls_free(struct bt_calls *h);

/* ---- json.c ------------------------------------------------------------ */

/* A JSON string; bytes outside printable ASCII as \u00XX, so any input
 * stays valid JSON. */
void bt_json_str(FILE *f, const char *s);
/* Nanoseconds as microseconds with three decimals. */
void bt_json_ns(FILE *f, uint64_t ns);
/* "args":["0x1",...]: register values in hex */
void bt_json_args(FILE *f, const int64_t *v, unsigned n);

/* ---- the commands ------------------------------------------------------ */

struct bt_capture_opts {
	const char *serial, *file, *out;
	unsigned baud;
	char **qemu_argv;
	char **exec;		/* --exec: shell commands, in order */
	int n_exec;
	double exec_timeout;	/* seconds for each prompt */
};

int bt_capture(const struct bt_capture_opts *o);
int bt_report(const char *trace, const char *elf);
int bt_stats(const char *trace, const char *elf, int per_cpu);
int bt_export_chrome(const char *trace, const char *elf, const char *out);
int bt_export_folded(const char *trace, const char *elf, const char *out, int per_cpu);
int bt_export_ctf(const char *trace, const char *elf, const char *out);
int bt_export_svg(const char *trace, const char *elf, const char *out, int per_cpu);
/* graph_out.c: the call graph (beneath func, given as -F in the filter). */
int bt_graph(const char *trace, const char *elf, const char *func);
/* graph.c: the trace's graph calls merged by path, children by total time. */
int bt_graph_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace, const char *elf);

/* ctf_meta.c: the TSDL text for export_ctf.c's streams. Id 5 was
 * lost_frames: losses are lost_events, in events, since wire version 2. */
enum { BT_CTF_FUNC, BT_CTF_GRAPH_ENTRY, BT_CTF_GRAPH_EXIT, BT_CTF_LOST_EVENTS,
       BT_CTF_PRINTF, BT_CTF_RETIRED_5, BT_CTF_FUNC_ARGS, BT_CTF_STACK_TRACE,
       BT_CTF_TRIGGER, BT_CTF_FIRST_TRACEPOINT = 16 };
void bt_ctf_metadata(FILE *f, struct bt_decoder *d, const uint8_t uuid[16]);
/* The trace's UUID: the same trace file always gets the same one. */
void bt_ctf_uuid(const char *trace, uint8_t uuid[16]);

#endif /* TOOLS_BARETRACE_BT_OUT_H */
