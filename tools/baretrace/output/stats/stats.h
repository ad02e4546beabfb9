/*
 * tools/baretrace/output/stats/stats.h: numbers about a trace: stats'
 * table (stats.c, stats_table.c, stats_sort.c), one trace's rows for
 * --diff (stats_read.c), stats --diff (stats_diff.c, diff_clock.c), the
 * duration and field histograms (hist*.c) and their --diff --hist.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_STATS_H
#define TOOLS_BARETRACE_OUTPUT_STATS_H
#include "../../decode/decode.h"
#include "../../model/model.h"

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
	struct bt_clock clock;	/* the capture's note (decode/clock.c) */
	int exact;		/* times in instructions (bt_clock_exact), not ns */
	uint64_t ncpus;		/* from the metadata */
};

/* Reads a trace into set (names copied): from graph exits if it has any,
 * else from profile dumps, else function entries. Returns the exit status. */
int bt_stats_read(const char *trace, const char *elf, struct bt_stat_set *set);
void bt_stat_set_free(struct bt_stat_set *set);

/* ---- stats_diff.c ------------------------------------------------------- */

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

int bt_stats(const char *trace, const char *elf, int per_cpu, enum bt_stat_key sort);

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

#endif /* TOOLS_BARETRACE_OUTPUT_STATS_H */
