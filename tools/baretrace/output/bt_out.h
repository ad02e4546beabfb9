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
/* A probe record (subtype 5) as "probe NAME: f1=v1 f2=v2", by the schema
 * the metadata holds now (read it when the record is read: a probe
 * number is reused); "probe #N: arg1=0x.." without one. */
void bt_fmt_probe(const struct bt_decoder *d, const struct wire_ext *x, char *buf, size_t cap);
/* One fetched value as its type says: decimal, 0x hex; an unreadable
 * one (its bit in the record's mask) by its reason, the value: 0
 * "(fault)", else "(unreadable)" (not RAM, never read). */
void bt_fmt_probe_value(uint8_t type, int64_t v, int unreadable, char *buf, size_t n);
#define BT_PROBE_FIELD_MAX	72
/* The names of p's fetches in the report and every export: words, each
 * distinct and none an export's own field. */
void bt_probe_field_names(const struct bt_probe *p, char (*names)[BT_PROBE_FIELD_MAX]);
/* report's line(s) for an extension record on its own: "[000] ts: ..." */
void bt_print_ext(struct bt_decoder *d, unsigned cpu, const char *ts, struct wire_ext *x);

/* ---- typed.c: arguments and return values by name and type ------------- */

/* One register's value as type t prints it: "-22", "true", "MODE_FAST", "{...}". */
void bt_typed_value(const struct bt_ctype *t, uint64_t raw, char *buf, size_t n);
/* A string an argument register points to (docs/wire.md 2.6 subtype 6). */
struct bt_argstr {
	int have;
	const uint8_t *bytes;
	unsigned len;
	uint8_t flags;		/* WIRE_STR_* */
};
/* The strings recorded with one call's arguments, kept by an exporter
 * until it writes the call (export_chrome.c). */
struct bt_strs {
	uint8_t have;			/* bit r: register r's string came */
	uint8_t flags[8], len[8];
	uint8_t bytes[8][32];		/* the wire's at most 32 */
};
/* Adds a parsed subtype-6 record to *s (allocated on first use). */
void bt_strs_add(struct bt_strs **s, const struct wire_ext *x);
/* *s as the argstr array bt_typed_* take (all absent if s is NULL). */
void bt_strs_view(const struct bt_strs *s, struct bt_argstr out[8]);
/* As a C string literal: "sensor", "0123..."... (cut), 0x10 <unreadable>. */
void bt_argstr_text(const struct bt_argstr *str, uint64_t raw, char *buf, size_t n);
/* "id=3, buf=0x40081230, ..." from n recorded registers of site's
 * function, pointers with a string recorded (strs[reg], or strs NULL)
 * as the string; 0, or -1: no signature (print them raw). */
int bt_typed_args(struct bt_decoder *d, uint64_t site, const int64_t *v, unsigned n,
		  const struct bt_argstr *strs, char *buf, size_t cap);
/* The return value's text: 1, 0 for a void function (nothing to show),
 * -1 no signature (raw). */
int bt_typed_retval(struct bt_decoder *d, uint64_t site, int64_t v, char *buf, size_t n);
/* The same as JSON object members ("id":3,"ok":true), preceded by a comma
 * if lead: how many were written, or -1 (no signature: nothing written). */
int bt_typed_json_args(FILE *f, struct bt_decoder *d, uint64_t site, const int64_t *v,
		       unsigned n, const struct bt_argstr *strs, int lead);
int bt_typed_json_retval(FILE *f, struct bt_decoder *d, uint64_t site, int64_t v, int lead);

/* args_spec.c: `baretrace args-spec --elf ELF FUNC...` (argv[0] "args-spec"). */
int bt_args_spec_main(int argc, char **argv);

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
	struct bt_strs *strs;		/* their strings, or NULL (malloc'd) */
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
/* The same for n bytes that may hold NULs (written as '?'). */
void bt_json_strn(FILE *f, const char *s, size_t n);
/* Nanoseconds as microseconds with three decimals. */
void bt_json_ns(FILE *f, uint64_t ns);
/* "args":["0x1",...]: register values in hex */
void bt_json_args(FILE *f, const int64_t *v, unsigned n);

#include "report/report.h"	/* `baretrace report`: its queues, plan and layouts */

/* ---- stats_sort.c ------------------------------------------------------ */

/* What stats sorts by (--sort KEY), descending; the default is total. */
enum bt_stat_key { BT_STAT_TOTAL, BT_STAT_CALLS, BT_STAT_SELF, BT_STAT_AVG, BT_STAT_MAX,
		   BT_STAT_KEYS };
extern const char *const bt_stat_key_names[BT_STAT_KEYS];
#define BT_STAT_KEY_LIST	"calls, total, self, avg or max"

/* The key called 'name', or -1. */
int bt_stat_key_of(const char *name);

/* One function's figures in one table: ticks (ns in a --diff). */
struct bt_stat_row {
	const char *name;
	uint64_t calls, total, self, max;	/* from graph exits or a profile */
	uint64_t entries;			/* function-entry records */
	int spans_hole;				/* a call was open across a hole */
};

/* A row's value of 'key' (avg: total / calls, 0 without calls). */
uint64_t bt_stat_value(const struct bt_stat_row *r, enum bt_stat_key key);
/* Descending by key; equal keys: more calls (or entries) first, then by name. */
void bt_stat_sort(struct bt_stat_row *v, size_t n, enum bt_stat_key key);

/* ---- stats.c: one trace's rows, for --diff ------------------------------ */

struct bt_stat_set {
	struct bt_stat_row *rows;	/* merged over CPUs, one per site; ns */
	size_t n;
	int times, self;	/* the rows have times (graph or profile); self times (graph) */
	const char *source;	/* "graph records", "profile dumps", ... */
	struct bt_clock clock;	/* the capture's note (input/clock.c) */
	int exact;		/* times in instructions (bt_clock_exact), not ns */
	uint64_t ncpus;		/* from the metadata */
};

/* Reads a trace into set (names copied): from graph exits if it has any,
 * else from profile dumps, else function entries. Returns the exit status. */
int bt_stats_read(const char *trace, const char *elf, struct bt_stat_set *set);
void bt_stat_set_free(struct bt_stat_set *set);

/* ---- stats_diff.c ------------------------------------------------------- */

/* stats --diff --fail-above: a function grew past the threshold. */
#define BT_EXIT_OVER	3

struct bt_diff_opts {
	const char *old_trace, *new_trace, *old_elf, *new_elf;
	int sort;		/* a bt_stat_key, or -1: by the largest change */
	int fail;		/* --fail-above given */
	double fail_pct;	/* its PCT */
	double floor;		/* --floor: instructions (exact traces) or us; < 0: default */
	int hist;		/* --hist: the duration histograms' percentiles */
	const char *junit;	/* --junit FILE: the verdicts as JUnit XML, or NULL */
};

/* ---- diff_clock.c: what the two traces' times are ------------------------ */

struct bt_diff_unit {
	int exact;		/* both exact: times in instructions, no noise */
	int host;		/* either is host time (QEMU without -icount) */
	uint64_t floor;		/* a time must grow by this much too (instructions or ns) */
	const char *name;	/* "instructions" or "microseconds" */
};

/* Decides the unit and floor of a diff of traces with clocks a and b (of
 * ncpus CPUs at most); bt_diff_unit_say prints the '#' lines that say so. */
void bt_diff_unit(struct bt_diff_unit *u, const struct bt_clock *a, const struct bt_clock *b,
		  uint64_t ncpus, const struct bt_diff_opts *opt);
void bt_diff_unit_say(const struct bt_diff_unit *u, const struct bt_clock *a,
		      const struct bt_clock *b);
/* The floor line after --fail-above's verdict. */
void bt_diff_floor_say(const struct bt_diff_unit *u);
/* Ticks of a counter of freq Hz as instructions under -icount shift. */
uint64_t bt_ticks_insns(uint64_t ticks, uint64_t freq, unsigned shift);

int bt_stats_diff(const struct bt_diff_opts *o);
/* ktap.c: `baretrace ktap LOG [--junit FILE]`; the exit status. */
int bt_ktap_main(int argc, char **argv);
/* ---- chrome_fields.c --------------------------------------------------- */

/* "tracepoint,SYSTEM" for "SYSTEM:event", else "tracepoint". */
void bt_chrome_category(const char *event, char *buf, size_t n);
/* ,"args":{...}: a tracepoint's fields, typed; 0, or -1 (no schema). */
int bt_chrome_fields(FILE *f, struct bt_decoder *d, const struct wire_record *r);
/* One counter ("C") event per integer field of a tracepoint record. */
void bt_chrome_counters(FILE *f, struct bt_decoder *d, const struct wire_record *r,
			unsigned tid);

/* ---- the commands ------------------------------------------------------ */

struct bt_capture_opts {
	const char *serial, *file, *out;
	const char *log;	/* --log: a copy of what goes to stdout, or NULL */
	unsigned baud;
	char **qemu_argv;
	char **exec;		/* --exec: shell commands, in order */
	int n_exec;
	double exec_timeout;	/* seconds for each prompt */
	double timeout;		/* --timeout: seconds, then the end request (hang); 0 none */
};

/* capture_exec.c: splits one --exec value at ';' onto cmds[0..*n): 0, or -1 with *why a
 * usage message (one %s: the value) for an empty or multi-line command. */
int bt_exec_add(char ***cmds, int *n, const char *arg, const char **why);
int bt_capture(const struct bt_capture_opts *o);
int bt_report(const char *trace, const char *elf);
int bt_stats(const char *trace, const char *elf, int per_cpu, enum bt_stat_key sort);
int bt_export_chrome(const char *trace, const char *elf, const char *out, int counters);
int bt_export_folded(const char *trace, const char *elf, const char *out, int per_cpu);
int bt_export_ctf(const char *trace, const char *elf, const char *out);
int bt_export_svg(const char *trace, const char *elf, const char *out, int per_cpu);
/* graph_out.c: the call graph (beneath func, given as -F in the filter). */
int bt_graph(const char *trace, const char *elf, const char *func);
/* graph.c: the trace's graph calls merged by path, children by total time. */
int bt_graph_read(struct bt_flame *fl, struct bt_decoder *d, const char *trace, const char *elf);

/* svg_style.c: XML text and attributes, bytes outside printable ASCII
 * as '?', at most max characters; a frame's fill colour, by module. */
void bt_svg_text(FILE *f, const char *s, size_t max);
void bt_svg_colour(const struct bt_flame *fl, uint32_t i, char *buf, size_t n);
/* svg_script.c: the <script> element at the end of each flame graph. */
extern const char bt_svg_script[];

/* ctf_meta.c: the TSDL text for export_ctf.c's streams. Id 5 was
 * lost_frames: losses are lost_events, in events, since wire version 2. */
enum { BT_CTF_FUNC, BT_CTF_GRAPH_ENTRY, BT_CTF_GRAPH_EXIT, BT_CTF_LOST_EVENTS,
       BT_CTF_PRINTF, BT_CTF_RETIRED_5, BT_CTF_FUNC_ARGS, BT_CTF_STACK_TRACE,
       BT_CTF_TRIGGER, BT_CTF_OUTCOME, BT_CTF_FIRST_TRACEPOINT = 16,
       /* one class per probe schema (meta.probes' index), above every
        * tracepoint slot meta.c can hold */
       BT_CTF_FIRST_PROBE = 65536 };
void bt_ctf_metadata(FILE *f, struct bt_decoder *d, const uint8_t uuid[16]);
/* The trace's UUID: the same trace file always gets the same one. */
void bt_ctf_uuid(const char *trace, uint8_t uuid[16]);

#include "export/bt_tracecmd.h"

/* ---- coverage.c, coverage_lcov.c ------------------------------------------ */

/* One image given with --elf and what its traces reached. */
struct bt_cov_image {
	const char *elf;
	struct bt_symtab syms;
	uint32_t hash;			/* of its .bt_tables */
	struct bt_cov cov;		/* its sites, OR of its traces' frames */
	uint64_t traces;		/* traces with coverage frames read into it */
	uint64_t last_trace;		/* the number of the last of those */
	uint64_t prev_frames;		/* of those frames: previous boots' (type 9) */
};

/* `baretrace coverage ARGS`, parsed (argv[0] is "coverage"). */
int bt_coverage_main(int argc, char **argv);
/* hist.c: the hist command (docs/wire.md 2.12's frames as bars or JSON). */
int bt_hist_cmd(const char *trace, const char *elf, int per_cpu, int json);
int bt_hist_main(int argc, char **argv);	/* its command line */
/* Reads a trace's histograms into h (names in d->syms); dies, status 1,
 * when it cannot be read or has none. */
struct bt_hist;
void bt_hist_load(const char *trace, const char *elf, struct bt_decoder *d, struct bt_hist *h);
/* hist_ev.c: the tracepoint field histograms (kind 1): bars (a blank
 * line first if any_before; returns how many specs) and "events":[...]. */
size_t bt_hist_ev_print(const struct bt_decoder *d, const struct bt_hist *h, int per_cpu,
			int any_before);
void bt_hist_ev_json(const struct bt_decoder *d, const struct bt_hist *h);
void bt_hist_json_buckets(const struct bt_hist_fn *f, const char *unit);
/* A spec's event name and field i's name, from the schemas (or "event N",
 * "field N" in buf). */
const char *bt_hist_ev_event(const struct bt_decoder *d, const struct bt_hist_ev *e,
			     char *buf, size_t n);
const char *bt_hist_ev_field(const struct bt_decoder *d, const struct bt_hist_ev *e,
			     uint64_t i, char *buf, size_t n);
/* hist_diff_ev.c: stats --diff --hist's rows for the field histograms
 * in both traces (same event, field and key by name); how many rows,
 * *over += those that grew past --fail-above. */
size_t bt_hist_diff_ev(const struct bt_decoder *od, const struct bt_hist *oh,
		       const struct bt_decoder *nd, const struct bt_hist *nh,
		       const struct bt_diff_opts *opt, size_t *over);
/* hist_diff.c: stats --diff --hist; the exit status. */
struct bt_diff_opts;
int bt_hist_diff(const struct bt_diff_opts *o);
/* The coverage command: traces merged per image, written to out as lcov
 * tracefile data, the per-folder summary on stdout; an exit status. */
int bt_coverage(const char *const *traces, size_t ntraces, const char *const *elfs,
		size_t nelfs, const char *out);
/* Functions of every image with their source lines (each ELF's DWARF),
 * merged by file and name, to out (replaced whole, or left as it was);
 * then the summary. */
int bt_cov_write(struct bt_cov_image *img, size_t nimg, size_t ntraces, const char *out);

#endif /* TOOLS_BARETRACE_BT_OUT_H */
