/*
 * tools/baretrace/help.c: what `baretrace --help`, `COMMAND --help` and
 * `--version` print, and the usage a bad command line gets (main.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "nearest.h"
#include "../../wire/wire.h"
#include "base/util.h"
#include "input/tracefile.h"

/*
 * The tool's version: this string is the one place it is written. The
 * Makefile adds `git describe` of the tree it was built from, as
 * BT_GIT_DESCRIBE, when it is built inside a git checkout.
 */
#define BT_VERSION	"0.1.0"

/*
 * Each command's usage, as `baretrace COMMAND --help` prints it (to stdout,
 * status 0) and a bad command line of that command (to stderr, status 2);
 * `baretrace --help` prints them all. Each text starts with its synopsis.
 */
static const char capture_usage[] =
	"  capture (--serial DEV [--baud N] | --file RAW | --qemu [--] QEMU ARGS...) -o TRACE.bt\n"
	"          [--exec 'CMD; CMD...']... [--exec-timeout S] [--timeout S] [--log FILE]\n"
	"        read a UART stream: console text to stdout, checked frames to TRACE.bt;\n"
	"        stops at end of stream, end of input or SIGTERM. --qemu takes the rest\n"
	"        of the line as the QEMU command (give -o before it); QEMU dies with\n"
	"        the capture; one that exits before the end of the stream is an error\n"
	"        (status 1), unless the target printed its final line \"baretrace: exit\n"
	"        status N\" first (a run that traced nothing sends no frame).\n"
	"        --log FILE: a copy of stdout. The capture's own lines go\n"
	"        to stderr, each at a line start: a console line left unfinished is\n"
	"        ended with a newline first.\n"
	"        With --serial or --qemu, Ctrl-C (SIGINT) and --timeout S when S seconds\n"
	"        have passed ask the target to end the run (interrupt 130, hang 124),\n"
	"        which reports, drains and ends the stream; without its end within\n"
	"        10 s, or at a second Ctrl-C, the capture ends the run itself (QEMU\n"
	"        stopped) and prints the final status line.\n"
	"        The line is two-way: stdin goes to the target,\n"
	"        a terminal raw (every key; Ctrl-C asks the end, Ctrl-] leaves), else as it is\n"
	"        (its end stops only the forwarding). --exec sends each command at the\n"
	"        target's shell prompt \"bt> \" and waits for the next prompt, at most S\n"
	"        seconds (default 30) each, the first included; a missing reply is an\n"
	"        error (status 1). The last command may end the run ('exit'). After\n"
	"        the commands, stdin has the line\n";

static const char report_usage[] =
	"  report TRACE.bt [--elf ELF] [--ns] [--abstime] [FILTERS]\n"
	"        ftrace-style text (function and function_graph layouts), all CPUs\n"
	"        merged in time order; a dash block marks where the graph lines turn\n"
	"        to another CPU. --abstime: each graph line starts with its time (as\n"
	"        funcgraph-abstime). In graph layout tracepoints and printf records\n"
	"        are /* comments */, irq:entry/irq:exit add ==========> and <==========\n"
	"        lines. Arguments\n"
	"        recorded right after (or right before) an entry go in its parentheses,\n"
	"        as 64-bit hex: \"leaf(0x1, 0x2);\"; others get a line of their own,\n"
	"        \"args of FUNC: 0x1 0x2\".\n"
	"        Stack traces print as \"<stack trace>\" and \" => caller\" lines, fired\n"
	"        triggers as \"trigger ACTION on FUNC\". Graph exits with no entry\n"
	"        (threshold mode) print as \"} /* FUNC */\", indented by the calls that\n"
	"        contain them. A profile dump is a note: \"# profile dump: N functions\"\n"
	"        Where events are missing: \"CPU:n [LOST N EVENTS] (cause)\"; the last\n"
	"        lines count the events and the losses, in events, by cause, and say\n"
	"        how the run ended. Where it ended: \"==== run ended: crash ====\" on\n"
	"        its CPU, the calls open there closed \"} /* FUNC: cut by the crash */\".\n"
	"        A trace with no end-of-stream frame is read and said to be cut short.\n"
	"        --ns: times to the nanosecond, graph durations in ns\n";

static const char stats_usage[] =
	"  stats TRACE.bt [--elf ELF] [--per-cpu] [--sort=calls|total|self|avg|max] [FILTERS]\n"
	"  stats --diff OLD.bt NEW.bt [--elf ELF | --old-elf ELF1 --new-elf ELF2]\n"
	"        [--sort=KEY] [--hist] [--fail-above PCT [--floor US]] [--junit FILE]\n"
	"        per-function calls, total, self, average and max time from graph\n"
	"        records, call counts from function entries, and the profiler's calls,\n"
	"        total, average, min and max from profile dumps (the latest dump of\n"
	"        each CPU; a profile has no self time). Merged over CPUs, or one\n"
	"        table per CPU with --per-cpu. On a trace with holes, '*' marks\n"
	"        functions with a call open across one: their self time is an upper bound.\n"
	"        --sort orders the tables by that column, largest first (default total;\n"
	"        equal values: more calls first, then by name; profile tables stay by\n"
	"        total).\n"
	"        --diff: per function, calls, total, self, avg and max of OLD and NEW\n"
	"        and the change in % of OLD; names matched, times in ns whatever the\n"
	"        clocks. Functions in both come first, by their largest change (or the\n"
	"        --sort column's), then [added] and [removed] ones. --fail-above: exit\n"
	"        status 3 if a function's calls, total or avg grew by more than PCT %;\n"
	"        a time must also grow by US microseconds or more (--floor, default 1).\n"
	"        Two traces that share no function are an error (status 1).\n"
	"        --junit FILE: the verdicts as JUnit XML, a testcase per function\n"
	"        (suite stats-diff), failed when over, its text each key's old, new,\n"
	"        delta and %; not with --hist. A FILE that cannot be written is an\n"
	"        error (status 1) before anything is read.\n"
	"        --diff --hist: from the duration histograms (see hist), per function\n"
	"        in both, calls and the p50, p90 and p99 bounds in ns (the top of the\n"
	"        log2 bucket each falls in, so they move a bucket at a time);\n"
	"        --fail-above: status 3 if one of them grew by more than PCT %; then\n"
	"        each tracepoint field histogram's keys (same event, field and key by\n"
	"        name), bounds in the field's values (--floor does not apply)\n";

static const char ktap_usage[] =
	"  ktap LOG [--junit FILE] [--suite NAME]\n"
	"        the KTAP results in a run's console log (make run's output, capture\n"
	"        --log FILE, QEMU's serial output; - for stdin; trace files hold no\n"
	"        console text): a summary, and with --junit FILE the results as JUnit\n"
	"        XML, a testcase per KTAP test (suite: the subtest's name, NAME for\n"
	"        top-level tests, default ktest), the test's \"#\" diagnostic lines\n"
	"        as the failure text, \"# SKIP\" as skipped. A run that did not\n"
	"        complete its plan (crash, hang, a cut log) or ended with a crash,\n"
	"        panic or hang adds a failed testcase \"run\" saying how it ended.\n"
	"        Exit status 3 if a test failed or the plan did not complete, 1 for\n"
	"        a log without KTAP or a FILE that cannot be written (nothing is\n"
	"        written), 0 otherwise\n";

static const char export_usage[] =
	"  export --format=chrome-json|folded|ctf|svg -o PATH TRACE.bt [--elf ELF] [--per-cpu]\n"
	"         [--counters] [FILTERS]\n"
	"        chrome-json (or chrome): Perfetto/Chrome JSON, a thread per CPU (tid =\n"
	"        CPU + 1), tracepoint fields as typed args, where the run ended a global\n"
	"        instant \"run ended: WORD\"; --counters adds a counter track per\n"
	"        integer field. folded: \"a;b;c VALUE\" lines, VALUE the self time in\n"
	"        ns (flamegraph.pl --countname=ns; calls if the trace has only function\n"
	"        entries), \"CPU_n\" first with --per-cpu.\n"
	"        ctf: a CTF 1.8 directory, times in ns, graph records as LTTng-UST's\n"
	"        lttng_ust_cyg_profile:func_entry/func_exit (addr, call_site).\n"
	"        svg: a flame graph that a browser opens as it is: click to zoom,\n"
	"        Search (or Ctrl-F, or ?s=REGEX in the URL) shows the matched share.\n"
	"        Its widths are inclusive time from graph records, else total\n"
	"        time per function from profile dumps (no stacks), else call counts\n"
	"        from function entries (caller below function); the title says which.\n"
	"        Stacks of all CPUs are merged; --per-cpu gives each CPU a panel of its\n"
	"        own width. Colour is by module, the name up to its first '_' or ':'\n"
	"        (leading '_' skipped). Hover a frame for its numbers; each <rect>\n"
	"        carries data-name, data-calls and data-ticks (counter ticks, or calls\n"
	"        for counts) and its width is exactly proportional to data-ticks\n"
	"  export --format=trace-cmd -o FILE.dat TRACE.bt [--elf ELF]\n"
	"        a trace-cmd.dat (v6) file for trace-cmd report and KernelShark, a CPU\n"
	"        per CPU of the trace; where the run ended a print event. With --elf,\n"
	"        recorded arguments and return values are events of system \"typed\":\n"
	"        FUNC, a field per parameter, and FUNC__return, its field ret\n";

static const char graph_usage[] =
	"  graph [FUNC] TRACE.bt [--elf ELF] [FILTERS]\n"
	"        the call graph from graph records: calls and total time per call path,\n"
	"        CPUs merged; with FUNC, beneath each call of FUNC (as -F FUNC). A call\n"
	"        that never returned is \"(open)\", or \"(open at the crash)\" (hang, ...)\n";

static const char coverage_usage[] =
	"  coverage TRACE.bt... --elf ELF [--elf ELF]... -o FILE.info [--no-demangle]\n"
	"        function coverage as lcov tracefile data (genhtml, lcov --summary read\n"
	"        it) from the coverage frames of runs traced with trace=coverage: per\n"
	"        source file, each patchable function at the line of its name (the\n"
	"        ELF's DWARF) with FN, FNDA (1 if reached), FNF, FNH and a DA line.\n"
	"        The traces merge: a function is reached if any run, boot (the previous\n"
	"        boot's frames too) or board reached it. Each trace goes to the --elf\n"
	"        whose image hash its metadata names; a trace no ELF matches is refused\n"
	"        and nothing is written, so give an --elf per board or build. Prints\n"
	"        functions reached of functions patchable per top folder (boot, kernel,\n"
	"        drivers, board, the application's folder). In names every ',' is ';'\n"
	"        (lcov 1.16 ends a name at a comma): \"f(int; char)\"\n";

static const char hist_usage[] =
	"  hist TRACE.bt [--elf ELF] [--per-cpu] [--json] [--no-demangle]\n"
	"        the duration histograms the target kept (trace_hist=, console 'hist'):\n"
	"        per function, its calls per power-of-two range of counter ticks (and\n"
	"        ns) as bars, all CPUs summed, with the average and the p50 and p99\n"
	"        bucket bounds; --per-cpu adds each CPU's; --json: the same numbers,\n"
	"        each CPU's included, as one JSON object. Tracepoint field histograms\n"
	"        (trace_hist=SYSTEM:EVENT:FIELD[:keys=KEY]) follow: per key, its hits\n"
	"        per power-of-two range of the field's values, and the hits of keys\n"
	"        the target had no room for (\"events\" in the JSON)\n";
static const char args_spec_usage[] =
	"  args-spec --elf ELF FUNC... [--no-demangle]\n"
	"        prints the trace_args= boot argument that records FUNC's parameters:\n"
	"        the argument registers they take and, for each char * among them,\n"
	"        the string it points to (:sRR), from the ELF's DWARF (at most 8):\n"
	"        trace_args=fmt_fixed:3:s0,fsm_step:2\n";

/* The filters of the commands that read a trace (filter_opt below). */
static const char filters_text[] =
	"FILTERS (report, stats, export, graph; applied once, to the decoded stream):\n"
	"  --cpu LIST            only these CPUs: 0,2-3\n"
	"  -F, --function GLOB   only GLOB's calls and what they call (depths from it)\n"
	"  -N, --notrace GLOB    leave out GLOB's calls and what they call\n"
	"  --depth N             leave out calls nested more than N levels deep\n"
	"  --time-range A-B      events timed A to B as report prints them (seconds,\n"
	"                        or with s, ms, us, ns); either end may be open\n"
	"  --min-duration D      leave out graph calls shorter than D (10us, 1.5ms)\n"
	"  The summary counts the events left out (they are not lost).\n";

/* After the help of the commands that read a trace. */
static const char names_text[] =
	"Names come from ELF (the image's baretrace.elf, checked against the trace's\n"
	"image hash) or else from symbol-dump frames in the trace.\n"
	"C++ names (Itanium ABI, \"_Z...\") are shown demangled in every output:\n"
	"\"_ZNK6Sensor4readEv\" as \"Sensor::read() const\". -F, -N and graph's FUNC\n"
	"match a function by either name: -F 'Sensor::read*' or -F '_ZNK6Sensor*'.\n"
	"  --no-demangle         names as the symbol table has them, in every output\n"
	"Recorded arguments (trace_args=) and return values (trace_retval=1) are shown\n"
	"by name and type from the ELF's DWARF when --elf is given: f(id=3, ok=true).\n"
	"  --no-types            raw registers in hex, as recorded\n";

/* One row per command; a new command adds its text and a row. */
static const struct bt_cmd_help cmd_helps[] = {
	{ "capture", capture_usage, 0 },
	{ "report", report_usage, 1 },
	{ "stats", stats_usage, 1 },
	{ "export", export_usage, 1 },
	{ "graph", graph_usage, 1 },
	{ "coverage", coverage_usage, 0 },
	{ "ktap", ktap_usage, 0 },
	{ "hist", hist_usage, 0 },
	{ "args-spec", args_spec_usage, 0 },
};

#define N_CMDS	(sizeof(cmd_helps) / sizeof(cmd_helps[0]))

const struct bt_cmd_help *bt_cmd_find(const char *name)
{
	for (size_t i = 0; i < N_CMDS; i++)
		if (!strcmp(cmd_helps[i].name, name))
			return &cmd_helps[i];
	return NULL;
}

/* Every option of every command above, for "did you mean". */
static const char *const all_options[] = {
	"--elf", "--ns", "--abstime", "--per-cpu", "--counters", "--sort", "--format",
	"--output", "--cpu", "--function", "--notrace", "--depth", "--time-range",
	"--min-duration", "--no-demangle", "--no-types", "--diff", "--hist", "--fail-above", "--floor", "--old-elf", "--new-elf",
	"--serial", "--baud", "--file", "--qemu", "--exec", "--exec-timeout", "--help",
	"--json", "--junit", "--suite",
};

const char *bt_option_nearest(const char *name)
{
	return bt_nearest(name, all_options, sizeof(all_options) / sizeof(all_options[0]));
}

void bt_unknown_command(const char *cmd)
{
	static const char *const names[] = { "help", "version" };
	struct nearest near_cmd;
	const char *near;

	nearest_start(&near_cmd, cmd, strlen(cmd));
	for (size_t i = 0; i < N_CMDS; i++)
		nearest_try(&near_cmd, cmd_helps[i].name);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		nearest_try(&near_cmd, names[i]);
	near = near_cmd.best;
	if (near)
		fprintf(stderr, "baretrace: unknown command '%s'; did you mean '%s'?\n", cmd, near);
	else
		fprintf(stderr, "baretrace: unknown command '%s' (capture, report, stats, export, "
			"graph, coverage, ktap or hist; 'baretrace --help' shows their usage)\n", cmd);
	exit(BT_EXIT_USAGE);
}

/*
 * "--help" or "-h" among a command's arguments asks for its usage; not
 * past "--" or "--qemu", where the arguments belong to another program.
 */
int bt_wants_help(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--") || !strcmp(argv[i], "--qemu"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

/* One command's usage, or with c NULL the overview: every command's. */
void bt_help(FILE *f, const struct bt_cmd_help *c)
{
	if (c) {
		fprintf(f, "usage: baretrace %s", c->text + strspn(c->text, " "));
		if (c->reads_trace)
			fprintf(f, "\n%s\n%s", filters_text, names_text);
		return;
	}
	fputs("usage: baretrace COMMAND ...\n"
	      "       baretrace COMMAND --help    that command's usage\n"
	      "       baretrace --version     the tool's and the formats' versions\n\n", f);
	for (size_t i = 0; i < N_CMDS; i++)
		fputs(cmd_helps[i].text, f);
	fprintf(f, "\n%s\n%s", filters_text, names_text);
}

/* The build, and the formats it reads: a trace written by a newer tool
 * or target says its version, so a user can match the two. */
void bt_print_version(void)
{
#ifdef BT_GIT_DESCRIBE
	printf("baretrace %s (git %s)\n", BT_VERSION, BT_GIT_DESCRIBE);
#else
	printf("baretrace %s\n", BT_VERSION);
#endif
	printf("reads trace files version %u, wire format version %u\n",
	       (unsigned)bt_file_magic[7], (unsigned)WIRE_VERSION);
}
