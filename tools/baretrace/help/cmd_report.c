/*
 * tools/baretrace/help/cmd_report.c: `baretrace report` and `baretrace
 * graph`, the two text views of a trace's calls (main.c's cmd_read and
 * cmd_graph parse their options; output/report*.c, graph_out.c print).
 */
#include "help.h"

static const struct bt_opt_help report_opts[] = {
	{ "--elf ELF", "names and argument types from the image's ELF" },
	{ "--ns", "times to the nanosecond, graph durations in ns" },
	{ "--abstime", "each graph line starts with its time\n"
		       "(as ftrace's funcgraph-abstime)" },
	{ "--numbers", "each function entry ends with \"  #N\", its number\n"
		       "for 'baretrace goto' (not with filters)" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_report = {
	.name = "report",
	.summary = "print a trace as ftrace-style text, CPUs merged in time order",
	.synopsis =
		"report TRACE.bt [--elf ELF] [--ns] [--abstime] [--numbers]\n"
		"    [FILTERS]",
	.about =
		"Print a trace as ftrace-style text (function and function_graph\n"
		"layouts), all CPUs merged in time order, with where events were lost,\n"
		"the counts of events and losses, and how the run ended.",
	.opts = report_opts,
	.filters = 1,
	.names = 1,
	.exit_status =
		"0  the report was printed (a trace cut short included)\n"
		"1  bad input: no trace, no whole frame, a wrong ELF, a filter that\n"
		"   keeps no event\n"
		"2  a bad command line",
	.examples =
		"baretrace report build/run/trace.bt --elf build/qemu-virt/baretrace.elf\n"
		"  the demo's trace (make run) with its names and argument types\n"
		"baretrace report trace.bt -F filter_apply --cpu 0 --abstime\n"
		"  only filter_apply's calls on CPU 0, each line with its time\n"
		"baretrace capture --file run.log -o - | baretrace report -\n"
		"  a trace read from a pipe",
	.manual =
		"Prints ftrace-style text (function and function_graph layouts), all "
		"CPUs merged in time order; a dash block marks where the graph lines turn "
		"to another CPU. --abstime: each graph line starts with its time (as "
		"funcgraph-abstime). In graph layout tracepoints and printf records "
		"are /* comments */, irq:entry/irq:exit add ==========> and <========== "
		"lines. Arguments recorded right after (or right before) an entry go "
		"in its parentheses, as 64-bit hex: \"leaf(0x1, 0x2);\"; others get a "
		"line of their own, \"args of FUNC: 0x1 0x2\".\n"
		"\n"
		"Stack traces print as \"<stack trace>\" and \" => caller\" lines, fired "
		"triggers as \"trigger ACTION on FUNC\". Graph exits with no entry "
		"(threshold mode) print as \"} /* FUNC */\", indented by the calls that "
		"contain them. A profile dump is a note: \"# profile dump: N functions\".\n"
		"\n"
		"Where events are missing: \"CPU:n [LOST N EVENTS] (cause)\"; the last "
		"lines count the events and the losses, in events, by cause, and say "
		"how the run ended. Where it ended: \"==== run ended: crash ====\" on its "
		"CPU, the calls open there closed \"} /* FUNC: cut by the crash */\". A "
		"trace with no end-of-stream frame is read and said to be cut short.\n"
		"\n"
		"--ns: times to the nanosecond, graph durations in ns.\n"
		"\n"
		"--numbers: each function entry line (a graph leaf, a graph entry, a "
		"function line) ends with \"  #N\", N counting this boot's entries from 1 "
		"in the order the report prints them; 'baretrace goto RUN N' stops a "
		"recorded run there (docs/replay.md). Not with host-side filters: "
		"the numbers count every entry.",
};

static const struct bt_opt_help graph_opts[] = {
	{ "--elf ELF", "names from the image's ELF" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_graph = {
	.name = "graph",
	.summary = "print the call graph of a trace: calls and time per call path",
	.synopsis = "graph [FUNC] TRACE.bt [--elf ELF] [FILTERS]",
	.about =
		"Print the call graph from a trace's graph records: the calls and total\n"
		"time of each call path, CPUs merged; with FUNC, beneath each call of FUNC.",
	.opts = graph_opts,
	.filters = 1,
	.names = 1,
	.exit_status =
		"0  the graph was printed\n"
		"1  bad input: no trace, a wrong ELF, a FUNC the trace does not have,\n"
		"   a filter that keeps no event\n"
		"2  a bad command line",
	.examples =
		"baretrace graph pipeline_step build/run/trace.bt --elf \\\n"
		"    build/qemu-virt/baretrace.elf\n"
		"  the calls beneath each call of pipeline_step, with their times\n"
		"baretrace graph trace.bt --depth 3\n"
		"  the whole graph, three levels deep",
	.manual =
		"Prints the call graph from graph records: calls and total time per call path, "
		"CPUs merged, children by total time, most first; with FUNC, beneath "
		"each call of FUNC (as -F FUNC: a glob, other filters may be added), "
		"wherever it was called from. A call that never returned is \"(open)\", "
		"or \"(open at the crash)\" (hang, ...).",
};
