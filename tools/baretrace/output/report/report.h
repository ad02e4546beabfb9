/*
 * tools/baretrace/output/report/report.h: the text of a trace: `baretrace
 * report`'s pieces: the per-CPU queues (report.c), the first pass's plan
 * (report_plan.c), the merge (report_merge.c) and the lines (report_line.c,
 * report_graph.c); graph's tree (graph_out.c) and args-spec (args_spec.c).
 */
#ifndef TOOLS_BARETRACE_REPORT_H
#define TOOLS_BARETRACE_REPORT_H
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

/* ---- report.c, report_line.c, report_graph.c: `baretrace report` ------ */

/* What report queues per CPU until the merge: a record (kinds 0-5, 7)
 * or one of these. */
enum { BT_RI_HOLE = 8, BT_RI_PROFILE = 9 };
enum { BT_RI_IRQ_ENTRY = 1, BT_RI_IRQ_EXIT = 2 };	/* sub of a kind-4 item */

struct bt_ritem {
	uint64_t ts;		/* counter value; holes: set for the merge */
	uint64_t seq;		/* arrival order: equal times keep it */
	uint64_t site;		/* kinds 0-3; extensions: their site; dumps: CPU */
	uint64_t a;		/* kinds 0/1 caller, 2 duration, 3 depth; holes
				 * events; dumps functions; extensions values
				 * (a string: its bytes) */
	int64_t retval;		/* kind 2 */
	size_t text;		/* arena offset: kinds 4/5 text, 7 values */
	const char *cause;	/* holes (a static string) */
	uint8_t kind, flags;	/* kind 2 exit flags; kind 0/1 has_caller;
				 * a string's WIRE_STR_* */
	uint8_t sub;		/* kind 7 subtype and action; kind 4 BT_RI_IRQ_* */
	uint8_t action;		/* a string's register */
};

/* One CPU's items in stream order, with the bytes they point to. */
struct bt_rqueue {
	struct bt_ritem *v;
	size_t n, cap, at;	/* at: the next to print */
	char *arena;
	size_t alen, acap;
	uint64_t queued;	/* items queued in this section */
	size_t unsettled;	/* the first trailing hole whose time is not
				 * known yet (no record after it), or SIZE_MAX */
};

/* report_plan.c: what the first pass tells the printing pass. */
struct bt_rsection {			/* one merge: a boot's part of the trace */
	uint64_t items[BT_MAX_CPUS + 1];	/* per queue */
	int graph, function;		/* it has graph records, function entries */
	int cpu_width;
};

/* Items an entry or arguments may fold in: arguments, their strings
 * (docs/wire.md 2.6 subtype 6, at most 8), the entry, the exit. */
#define BT_FOLD_ITEMS	12

/* An item's seq: its frame's place in the file, then its order there. */
#define BT_RSEQ_SHIFT	24

struct bt_rframe {			/* a data block of one CPU */
	long end;			/* where its frame ends in the file */
	uint32_t len;			/* its payload's length */
	int pullable;			/* may be decoded ahead of its place */
	uint64_t index;			/* its place among the file's frames */
	uint64_t first_ts;		/* its first record's time; UINT64_MAX: none */
};

struct bt_rplan {
	struct bt_rsection *sec;
	size_t nsec, sec_cap;
	struct bt_rframe *frames[BT_MAX_CPUS];	/* in the order decoded */
	size_t nframes[BT_MAX_CPUS], frames_cap[BT_MAX_CPUS];
	size_t at[BT_MAX_CPUS];		/* the next not decoded yet */
	uint64_t *barriers;		/* frame places, increasing */
	size_t nbarriers, barriers_cap, next_barrier;
	uint64_t frames_read;
};

/* Reads the trace for the plan and the depths; returns the decoder, its
 * names and clock as they are at the end of the trace. */
struct bt_decoder *bt_rplan_read(struct bt_rplan *pl, struct bt_depths *dp, const char *trace,
				 const char *elf);
/* The time of CPU cpu's next record in the blocks not decoded yet
 * (UINT64_MAX: none): a CPU queues nothing earlier. */
uint64_t bt_rplan_next_ts(const struct bt_rplan *pl, unsigned cpu);
/* The least seq its next item can have: its next block's place. */
uint64_t bt_rplan_next_seq(const struct bt_rplan *pl, unsigned cpu);
void bt_rplan_free(struct bt_rplan *pl);

struct bt_report {
	struct bt_decoder *d;
	struct bt_decoder *names;	/* the first pass's: names and clock as at
					 * the end, when the whole trace was merged */
	struct bt_rplan plan;
	size_t section;			/* the plan's section being merged */
	unsigned active[BT_MAX_CPUS + 1], nactive;	/* its queues with items */
	uint64_t index;			/* place of the frame read last, in order */
	long pulled_end[BT_MAX_CPUS];	/* blocks decoded ahead end up to here */
	FILE *pull_f;			/* the trace, for those */
	const char *trace;
	int pulling;
	struct bt_rqueue q[BT_MAX_CPUS + 1];	/* the last: profile dumps */
	uint64_t seq;
	uint64_t now;			/* the latest record time queued */
	int seg_graph, seg_function;	/* the queued part has graph records,
					 * function entries */
	int seg_prev;			/* ... and is the previous boot's */
	struct bt_stacks stacks;
	struct bt_stacks prev_stacks;	/* the previous boot's, apart */
	struct bt_depths depths;
	uint64_t exits[BT_MAX_CPUS];	/* ordinal of the next exit, per CPU */
	uint64_t indent[BT_MAX_CPUS];	/* depth a comment on that CPU sits at */
	int last_graph_cpu;		/* of the last graph line; -1: none yet */
	int cpu_width;			/* digits of the highest CPU number */
	int said_function, said_graph;
	uint64_t entries;		/* function entries numbered (--numbers, goto) */
	uint64_t last_entry[BT_MAX_CPUS];	/* each CPU's latest number */
	int64_t entry_args[8];		/* the raw arguments of the entry being printed */
	unsigned entry_nargs;
	char entry_tag[32];		/* "  #N" with --numbers, else "" */
};

/*
 * report --numbers: each function entry of this boot (a function or
 * graph entry line) ends with " #N", N counting them from 1 in the
 * order report prints them; 'baretrace goto' names an event by it.
 * bt_report_entry_hook, when set, is told of each (goto.c reads the
 * trace through report so that its numbers are report's).
 */
struct bt_entry_seen {
	uint64_t no, site, ts;
	unsigned cpu, nargs;
	const int64_t *args;
};
extern int bt_opt_numbers;
extern void (*bt_report_entry_hook)(const struct bt_entry_seen *e);

extern int bt_opt_abstime;	/* report --abstime */
/* report_merge.c: a section's queues and layout from the plan; after a
 * block, the items nothing to come can precede; at a section's end, all. */
void bt_report_section_start(struct bt_report *rp);
void bt_report_merge_ready(struct bt_report *rp);
void bt_report_merge_all(struct bt_report *rp);
/* report_line.c: prints the item at q[cpu].at and any of that CPU's
 * later items it folds in (an entry's arguments and exit); advances 'at'
 * past them. */
void bt_report_item(struct bt_report *rp, unsigned cpu);
/* report_graph.c: the header of a layout, once per section. */
void bt_report_header(struct bt_report *rp, int graph);
/* ftrace's duration cell for ns: "+ 12.016 us   |  " (fixed width). */
void bt_graph_duration(char *buf, size_t n, uint64_t ns);
/* A CPU switch block if the CPU changed, the time (--abstime), " 0) ". */
void bt_graph_line_start(struct bt_report *rp, unsigned cpu, uint64_t ts);
/* bt_graph_line_start, the duration cell (blank unless 'timed'), the
 * indent of 'depth'; the header first if it is not out yet. */
void bt_graph_start(struct bt_report *rp, unsigned cpu, uint64_t ts, int timed,
		    uint64_t ticks, uint64_t depth);
/* A tracepoint or printf record: a comment in graph layout, else a line. */
void bt_report_event(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it);

/* ---- the report, graph and args-spec commands -------------------------- */

/* args_spec.c: `baretrace args-spec --elf ELF FUNC...` (argv[0] "args-spec"). */
int bt_args_spec_main(int argc, char **argv);

int bt_report(const char *trace, const char *elf);

/* graph_out.c: the call graph (beneath func, given as -F in the filter). */
int bt_graph(const char *trace, const char *elf, const char *func);

#endif /* TOOLS_BARETRACE_REPORT_H */
