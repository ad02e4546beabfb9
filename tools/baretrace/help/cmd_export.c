/*
 * tools/baretrace/help/cmd_export.c: `baretrace export`, a trace in the
 * formats of viewers (main.c's cmd_read parses the options;
 * output/export_*.c write).
 */
#include "help.h"

static const struct bt_opt_help opts[] = {
	{ "--format=FMT", "chrome-json (or chrome), folded, ctf, svg or\n"
			  "trace-cmd" },
	{ "-o, --output PATH", "the file to write (ctf: a directory; - for stdout)" },
	{ "--elf ELF", "names and argument types from the image's ELF" },
	{ "--per-cpu", "svg: a panel per CPU; folded: \"CPU_n\" first" },
	{ "--counters", "chrome-json: a counter track per integer field" },
	{ "--numbers", "chrome-json: each entry's \"event\", its number in\n"
		       "report --numbers, for 'baretrace goto'" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_export = {
	.name = "export",
	.summary = "write a trace for viewers: Perfetto, folded, CTF, SVG, trace-cmd",
	.synopsis =
		"export --format=FMT -o PATH TRACE.bt [--elf ELF] [--per-cpu]\n"
		"    [--counters] [--numbers] [FILTERS]",
	.about =
		"Write a trace in a viewer's format: Perfetto/Chrome JSON, folded stacks\n"
		"(flamegraph.pl, speedscope), a CTF 1.8 directory (babeltrace2, Trace\n"
		"Compass), a self-contained SVG flame graph, or a trace-cmd .dat file\n"
		"(trace-cmd report, KernelShark).",
	.opts = opts,
	.filters = 1,
	.names = 1,
	.exit_status =
		"0  the file was written\n"
		"1  bad input, or PATH could not be written\n"
		"2  a bad command line",
	.examples =
		"baretrace export --format=chrome-json -o trace.json trace.bt\n"
		"  for ui.perfetto.dev or chrome://tracing\n"
		"baretrace export --format=svg --per-cpu -o flame.svg trace.bt\n"
		"  a flame graph a browser opens, a panel per CPU\n"
		"baretrace export --format=trace-cmd -o trace.dat trace.bt --elf IMAGE.elf\n"
		"  for trace-cmd report and KernelShark",
	.manual =
		"Writes the trace to PATH in the format FMT (--format=FMT), one of:\n"
		"\n"
		"chrome-json (or chrome): Perfetto/Chrome JSON, a thread per CPU (tid = "
		"CPU + 1), tracepoint fields as typed args, where the run ended a global "
		"instant \"run ended: WORD\"; --counters adds a counter track per integer "
		"field; --numbers gives each function entry's slice or instant an "
		"\"event\" argument, its number in 'report --numbers', which 'baretrace "
		"goto' takes (not with filters).\n"
		"\n"
		"folded: \"a;b;c VALUE\" lines, VALUE the self time in ns (flamegraph.pl "
		"--countname=ns; calls if the trace has only function entries), "
		"\"CPU_n\" first with --per-cpu.\n"
		"\n"
		"ctf: a CTF 1.8 directory, times in ns, graph records as LTTng-UST's "
		"lttng_ust_cyg_profile:func_entry/func_exit (addr, call_site).\n"
		"\n"
		"svg: a flame graph that a browser opens as it is: click to zoom, Search "
		"(or Ctrl-F, or ?s=REGEX in the URL) shows the matched share. Its widths "
		"are inclusive time from graph records, else total time per function "
		"from profile dumps (no stacks), else call counts from function entries "
		"(caller below function); the title says which. Stacks of all CPUs are "
		"merged; --per-cpu gives each CPU a panel of its own width. Colour is by "
		"module, the name up to its first '_' or ':' (leading '_' skipped). "
		"Hover a frame for its numbers; each <rect> carries data-name, "
		"data-calls and data-ticks (counter ticks, or calls for counts) and its "
		"width is exactly proportional to data-ticks.\n"
		"\n"
		"trace-cmd: a trace-cmd.dat (v6) file for trace-cmd report and "
		"KernelShark, a CPU per CPU of the trace; where the run ended a print "
		"event. With --elf, recorded arguments and return values are events of "
		"system \"typed\": FUNC, a field per parameter, and FUNC__return, its "
		"field ret.",
};
