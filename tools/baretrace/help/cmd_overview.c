/*
 * tools/baretrace/help/cmd_overview.c: the overview, `baretrace --help`
 * and baretrace(1): what the tool is for and where each command's help
 * is (help.c adds the list of commands, from their own summaries).
 */
#include "help.h"

static const struct bt_opt_help opts[] = {
	{ "--version", "the tool's version and the formats it reads" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_overview = {
	.name = NULL,
	.summary = "record and read function traces of a bare-metal arm64 target",
	.synopsis =
		"COMMAND [ARGS...]\n"
		"help [COMMAND]\n"
		"--version",
	.about =
		"Record a bare-metal arm64 target's function traces from its serial line\n"
		"(capture), and read them: as text, tables, call graphs, histograms,\n"
		"coverage, and in the formats of trace viewers.",
	.opts = opts,
	.exit_status =
		"0  done\n"
		"1  bad input: a file, an ELF or a trace that cannot be used\n"
		"2  a bad command line\n"
		"3  a verdict: stats --diff --fail-above found a function over its\n"
		"   threshold, or ktap a failed test",
	.examples =
		"baretrace capture --serial /dev/ttyUSB0\n"
		"  record a board's run into trace.bt\n"
		"baretrace report trace.bt --elf build/rpi4/baretrace.elf\n"
		"  read it as ftrace-style text\n"
		"baretrace help report\n"
		"  report's options",
	.manual =
		"Record a bare-metal arm64 target's function traces from its serial "
		"line (capture), and read them: as text, tables, call graphs, "
		"histograms, coverage, and in the formats of trace viewers.\n"
		"\n"
		"Each command has a page of its own, baretrace-COMMAND(1), with its "
		"options, exit status and examples; 'baretrace COMMAND --help' (or -h, "
		"or 'baretrace help COMMAND') prints the same synopsis and options "
		"table, shorter. 'baretrace help --man [COMMAND]' prints a whole page as "
		"plain text (tools/mkman makes the man pages from it).\n"
		"\n"
		"A bad command line prints one line saying what is wrong and a pointer "
		"to the command's help, on stderr, with exit status 2; a mistyped "
		"command, option or export format names the nearest one.\n"
		"\n"
		"A trace is a .bt file that capture writes: the frames that passed their "
		"CRC, as the target sent them. The commands that read one (report, "
		"stats, export, graph, hist, coverage) take - for standard input; "
		"capture -o - and export -o - (but ctf, a directory) write to standard "
		"output.",
};
