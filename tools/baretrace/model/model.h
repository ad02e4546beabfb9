/*
 * tools/baretrace/model/model.h: what a trace means, built from the
 * decoder's records, below every output. callstack.c (open graph
 * entries, returned calls nested by containment), depths.c (a first
 * pass: depths of exits without entries), profile.c (profile dumps,
 * merged rows), filter*.c (the host-side filters), coverage.c and
 * hist.c (their frames), srcmap.c and functypes.c (DWARF: source lines,
 * types), elf_syms.c (names from an ELF). Call-path trees: flame.h.
 */
#ifndef TOOLS_BARETRACE_MODEL_MODEL_H
#define TOOLS_BARETRACE_MODEL_MODEL_H
#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/symtab.h"

/* ---- callstack.c ------------------------------------------------------- */

#define BT_STACK_MAX	256
#define BT_DONE_MAX	65536	/* returned calls awaiting their caller, per CPU */
#define BT_ARGS_MAX	8	/* arguments kept with an open frame */

struct bt_strs;		/* output/render/typed.c's: strings recorded with arguments */

struct bt_frame {
	uint64_t site, depth, ts;
	uint64_t child_ticks;	/* children handed on early (spilled) while open */
	uint64_t holes_at;	/* its stack's holes when it was entered */
	unsigned nargs;		/* from an arguments record right after the entry */
	int64_t args[BT_ARGS_MAX];
	struct bt_strs *strs;	/* their strings (malloc'd, the exporter's), or NULL */
};

/* A call that returned and that no exit since has claimed as a child. */
struct bt_done {
	uint64_t start, end;	/* its span, widened to hold its children */
	uint64_t ticks;		/* its duration as recorded */
	uint64_t tag;		/* the command's handle for it */
};

struct bt_stack {
	struct bt_frame f[BT_STACK_MAX];
	unsigned n;
	unsigned overflow;		/* open frames too deep to store */
	struct bt_done *done;		/* oldest first */
	size_t ndone, done_cap;
	struct bt_done *kids;		/* what the last exit claimed */
	size_t kids_cap;
	uint64_t spilled;		/* calls handed on early, past BT_DONE_MAX */
	uint64_t spill_start;		/* the last such with no open frame holding it */
	int spill_loose;
	uint64_t misnested;		/* exits that would have claimed one of those */
	uint64_t holes, hole_ts;	/* holes met (books.c), where the latest sits */
};

struct bt_stacks {
	struct bt_stack *cpu[BT_MAX_CPUS];	/* allocated on first use */
	/* Told of each call handed on early, with the number of open frames
	 * holding it (its callers, bottom up); NULL: nobody needs to know. */
	void (*spill)(void *ctx, unsigned cpu, const struct bt_done *d, unsigned open);
	void *ctx;
};

/* What one graph exit turned out to be. */
struct bt_exit {
	int matched;			/* its entry is known */
	unsigned level;			/* stack position it had, or would have */
	uint64_t depth;			/* the entry's depth, or open frames below */
	uint64_t start, end;		/* its span, widened to hold its children */
	uint64_t child_ticks;		/* time spent in its children */
	const struct bt_frame *frame;	/* its entry (args); until the next entry */
	const struct bt_done *kids;	/* the children it claimed, oldest first; */
	size_t nkids;			/* valid until the next exit on this CPU */
	struct bt_done *self;		/* itself, unclaimed, to set a tag: NULL if it
					 * is outermost (depth 0) and so final */
};

struct bt_stack *bt_stack_of(struct bt_stacks *s, unsigned cpu);
void bt_stack_enter(struct bt_stack *s, uint64_t site, uint64_t depth, uint64_t ts);
/* Events of this CPU are missing here ('ts': the time after them). */
void bt_stack_hole(struct bt_stack *s, uint64_t ts);
/* Whether a call that just returned (bt_stack_exit) was open across a
 * hole: calls of it or its callees may be missing. */
struct bt_exit;
int bt_stack_spans_hole(const struct bt_stack *s, const struct bt_exit *x);
/* An arguments record: kept with the top frame if it is the site's, 1. */
int bt_stack_args(struct bt_stack *s, const struct wire_ext *x);
/*
 * A graph exit: pops its frame if the entry is known (frames above it
 * lost their exits), claims the returned calls inside its span as its
 * children, and adds itself to the unclaimed ones.
 */
void bt_stack_exit(struct bt_stacks *ss, unsigned cpu, const struct wire_record *r,
		   struct bt_exit *x);
/* How many open frames (bottom up) hold a returned call: its callers. */
unsigned bt_stack_holding(const struct bt_stack *s, const struct bt_done *d);
/* Warns if calls were handed on early and some wrongly (huge traces). */
void bt_stacks_warn(struct bt_stacks *s);
void bt_stacks_free(struct bt_stacks *s);

/* ---- depths.c ---------------------------------------------------------- */

struct bt_depth;

struct bt_depths {
	struct bt_depth *v[BT_MAX_CPUS];	/* exits without entries, by ordinal */
	size_t n[BT_MAX_CPUS], cap[BT_MAX_CPUS];
	size_t at[BT_MAX_CPUS];			/* bt_depth_of's cursor */
	uint64_t exits[BT_MAX_CPUS];		/* exits seen, per CPU */
	uint8_t keep_all[BT_MAX_CPUS];		/* an outcome record came */
	int graph, function;	/* graph records, function entries seen */
};

/* Reads the trace quietly for the depth of every graph exit. */
void bt_depths_read(struct bt_depths *dp, const char *trace, const char *elf);
/* The same, one record at a time (this boot's, in stream order, through
 * the stacks st); then bt_depths_settle once at the end. */
void bt_depths_record(struct bt_depths *dp, struct bt_stacks *st, unsigned cpu,
		      const struct wire_record *r);
void bt_depths_settle(struct bt_depths *dp);
/* The depth of CPU cpu's k-th exit, or 'guess' if it is not known (an
 * exit with an entry). Asked with k increasing, per CPU. */
uint64_t bt_depth_of(struct bt_depths *dp, unsigned cpu, uint64_t k, uint64_t guess);
void bt_depths_free(struct bt_depths *dp);

/* ---- profile.c --------------------------------------------------------- */

struct bt_prof_cpu;

struct bt_profile {
	struct bt_prof_cpu *cpu[BT_MAX_CPUS];	/* the latest dump of each CPU */
	uint64_t frames, dumps;
};

/* A checked profile-dump frame: starts or continues its CPU's dump. */
void bt_profile_add(struct bt_profile *p, const struct wire_frame *f);
int bt_profile_any(const struct bt_profile *p);
/*
 * One row per function called, for one CPU or merged over all (cpu ==
 * BT_MAX_CPUS): calls and totals added, min and max of the CPUs'. Sorted
 * by site; *rows is the caller's to free.
 */
size_t bt_profile_rows(struct bt_profile *p, unsigned cpu, struct wire_profile_entry **rows);
/* stats' table of the dumps, merged or one per CPU. */
void bt_profile_print(struct bt_decoder *d, struct bt_profile *p, int per_cpu);
void bt_profile_free(struct bt_profile *p);

/* ---- filter_opts.c, filter.c --------------------------------------------- */

#define BT_FILTER_GLOBS	16	/* patterns per -F or -N */

/* The host-side filters of the command line, one set per process. */
struct bt_filter_conf {
	int active;			/* any filter set */
	uint8_t cpu[BT_MAX_CPUS];	/* --cpu: CPUs kept, with have_cpu */
	int have_cpu;
	const char *func[BT_FILTER_GLOBS];	/* -F: globs */
	unsigned nfunc;
	const char *notrace[BT_FILTER_GLOBS];	/* -N: globs */
	unsigned nnotrace;
	uint64_t depth;			/* --depth: levels kept, with have_depth */
	int have_depth;
	uint64_t from_ns, to_ns;	/* --time-range, either end open */
	int have_from, have_to;
	uint64_t min_ns;		/* --min-duration, with have_min */
	int have_min;
	char desc[512];			/* the flags as given, for the summary */
};

extern struct bt_filter_conf bt_filter_conf;

/*
 * One filter flag ("--cpu", "-F", "--function", "-N", "--notrace",
 * "--depth", "--time-range", "--min-duration") and its value: 1 if it is
 * one, 0 if not; a bad value dies with BT_EXIT_USAGE and a message.
 */
int bt_filter_parse(const char *flag, const char *val);
int bt_filter_match(const char *const *globs, unsigned n, const char *name);

/* filter.c: the stage between decoder and visitor (decode.h's
 * bt_dec_stage, set by bt_filter_parse). Its summary line says "N events
 * left out by the filter (FLAGS)". */
extern const struct bt_dec_stage bt_filter_stage;
/* filter_check.c: the trace's function name nearest 'word', or NULL. */
const char *bt_filter_near_name(const struct bt_symtab *t, const char *word);

/* ---- coverage.c --------------------------------------------------------- */

/* Sites reached, one bit each (docs/wire.md 2.11). */
struct bt_cov {
	uint8_t *reached;		/* bit s of byte s / 8: site s reached */
	uint64_t nsites;		/* the image's site count */
	uint64_t frames;		/* coverage frames merged in */
	uint64_t beyond;		/* set bits of sites >= nsites (ignored) */
	/* The latest set (a frame with first 0 starts one): the sites its
	 * frames covered so far, in order, and whether one was missing. */
	uint64_t set_end;
	int set_hole;
};

void bt_cov_init(struct bt_cov *c, uint64_t nsites);
void bt_cov_free(struct bt_cov *c);
/* Merges one type 8 or 9 body in: 0, or -1 (c unchanged) if malformed. */
int bt_cov_add_frame(struct bt_cov *c, const uint8_t *body, size_t len);
int bt_cov_is_reached(const struct bt_cov *c, uint64_t site);
uint64_t bt_cov_count(const struct bt_cov *c);
/* A new trace: no set seen yet. */
void bt_cov_set_begin(struct bt_cov *c);
/* Whether the latest set covers every site (0 when none came). */
int bt_cov_set_whole(const struct bt_cov *c);
/* ORs from's bits into into (same image). */
void bt_cov_merge(struct bt_cov *into, const struct bt_cov *from);

/* ---- hist.c ------------------------------------------------------------- */

/* One function's duration histogram (docs/wire.md 2.12): calls per log2
 * bucket of counter ticks (bt_hist_range gives a bucket's ticks). */
struct bt_hist_fn {
	uint64_t site, sum;		/* sum: ticks over all its calls */
	uint64_t calls;			/* the buckets' total */
	uint64_t bucket[WIRE_HIST_BUCKETS];
	unsigned cpus;			/* bt_hist_sum: CPUs with a call */
};

struct bt_hist_cpu {
	struct bt_hist_fn *fn;		/* the CPU's latest dump */
	size_t n, cap;
	uint64_t dumps, next_part;
};

/* A tracepoint field's histogram (kind 1, docs/wire.md 2.12), one per
 * 'spec' number of the run: its keys are kept as the functions of a
 * struct bt_hist, the key value in place of the site. */
#define BT_HIST_EV_MAX	16
struct bt_hist_ev {
	int used;
	uint64_t event, field, keyf;	/* keyf: the key field + 1, 0 = no key */
	uint64_t other[BT_MAX_CPUS];	/* per CPU: hits of keys past its table */
	struct bt_hist *keys;
};

struct bt_hist {
	struct bt_hist_cpu cpu[BT_MAX_CPUS];
	uint64_t frames;		/* type-10 frames taken */
	uint64_t orphans;		/* parts whose dump's start was missing */
	struct bt_hist_ev ev[BT_HIST_EV_MAX];
};

void bt_hist_init(struct bt_hist *h);
void bt_hist_free(struct bt_hist *h);
/* One type-10 body of this CPU: 0, or -1 (h unchanged) if malformed or
 * of a kind this reader does not know. */
int bt_hist_add_frame(struct bt_hist *h, unsigned cpu, const uint8_t *body, size_t len);
const struct bt_hist_fn *bt_hist_of(const struct bt_hist *h, unsigned cpu, uint64_t site);
/* A function's histogram summed over every CPU (out->cpus: how many). */
void bt_hist_sum(const struct bt_hist *h, uint64_t site, struct bt_hist_fn *out);
/* The sites with a histogram, ascending (*sites malloc'd); how many. */
size_t bt_hist_sites(const struct bt_hist *h, uint64_t **sites);
/* Bucket b's ticks: lo .. hi, both included. */
void bt_hist_range(unsigned b, uint64_t *lo, uint64_t *hi);
/* The upper bound (ticks) of the bucket where pct % of the calls are
 * reached; 0 without calls. */
uint64_t bt_hist_percentile(const struct bt_hist_fn *f, unsigned pct);

/* elf_syms.c: calls fn for each named symbol of an ELF's symbol tables
 * (elf: libelf's Elf *) until it returns nonzero; returns that, or 0. */
int bt_elf_symbols(void *elf, int (*fn)(const char *name, uint64_t value, void *arg), void *arg);

/* ---- srcmap.c ------------------------------------------------------------ */

/* Where functions are in the source, from an ELF's DWARF line table. */
struct bt_srcmap {
	void *dwarf;			/* Dwarf *, libdw's */
	int fd;
	uint64_t text;			/* link address of _text */
	char *comp_dir;			/* the first unit's build directory */
	void *ranges;			/* units' address ranges, sorted */
	size_t nranges;
};

/* Opens path's DWARF; dies with a message if it has none or no _text. */
void bt_srcmap_open(struct bt_srcmap *m, const char *path);
/* The same, quietly: 0, -1 cannot open, -2 no DWARF, -3 no _text. */
int bt_srcmap_try_open(struct bt_srcmap *m, const char *path);
/* The subprogram DIE (libdw's Dwarf_Die, copied to die) of the function
 * whose symbol is at _text + off: 0, or -1 if DWARF has none. */
int bt_srcmap_subprogram(struct bt_srcmap *m, uint64_t off, void *die);
/*
 * The source file (absolute where DWARF says so; pointing into libdw's
 * data, valid until close) and line of the code at _text + off: 0, or
 * -1 if the line table does not cover it.
 */
int bt_srcmap_find(struct bt_srcmap *m, uint64_t off, const char **file, int *line);
void bt_srcmap_close(struct bt_srcmap *m);

/* ---- functypes.c --------------------------------------------------------- */

/* What decides how a value prints. */
enum bt_tkind {
	BT_TY_VOID, BT_TY_INT, BT_TY_BOOL, BT_TY_CHAR, BT_TY_ENUM, BT_TY_PTR,
	BT_TY_AGGR,		/* a struct, union or class not in v registers */
	BT_TY_FLOAT,		/* floating point, or an HFA: in v0-v7, not recorded */
	BT_TY_OTHER,		/* anything else: shown raw */
};

struct bt_enumval {
	int64_t value;		/* as a register holds it (bt_ctype_value) */
	char *name;
};

struct bt_ctype {
	uint8_t kind;		/* enum bt_tkind */
	uint8_t is_signed;	/* INT, CHAR, ENUM */
	uint8_t char_ptr;	/* PTR to a char type: a string fetch could show it */
	uint32_t size;		/* bytes */
	struct bt_enumval *vals;	/* ENUM */
	size_t nvals;
};

struct bt_param {
	char *name;		/* NULL: unnamed */
	struct bt_ctype type;
	int reg;		/* its first x register, or -1: in v registers or on the stack */
	uint8_t nregs;		/* x registers it takes (1 or 2) */
};

/* A function's parameters in declaration order and its return type. */
struct bt_sig {
	struct bt_param *p;
	size_t np;
	int variadic;		/* "..." after the parameters */
	struct bt_ctype ret;	/* VOID: returns nothing */
};

extern int bt_opt_types;	/* --no-types clears it: raw registers */
/*
 * The signature of site's function from elf's DWARF, read on first use
 * and kept (valid until bt_sig_cache_free or a call for another ELF); NULL when values show raw: --no-types, no ELF, no DWARF, a
 * function DWARF does not describe, or a GCC clone (".constprop.0").
 */
const struct bt_sig *bt_sig_find(const char *elf, struct bt_symtab *syms, uint64_t site);
/* Forgets every signature read (they are kept until then, or until
 * bt_sig_find is asked about another ELF) and closes the DWARF. */
void bt_sig_cache_free(void);
/* A register's value as type t holds it: truncated to its size and
 * sign-extended if it is signed. */
int64_t bt_ctype_value(const struct bt_ctype *t, uint64_t raw);

#endif /* TOOLS_BARETRACE_MODEL_MODEL_H */
