/*
 * tools/baretrace/help/cmd_hist.c: `baretrace hist` and `baretrace
 * args-spec`, which read what the target kept and what the ELF says
 * (output/hist.c and output/args_spec.c parse their options).
 */
#include "help.h"

static const struct bt_opt_help hist_opts[] = {
	{ "--elf ELF", "names from the image's ELF" },
	{ "--per-cpu", "each CPU's histograms too" },
	{ "--json", "the same numbers, each CPU's included, as JSON" },
	{ "--no-demangle", "C++ names as the symbol table has them" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_hist = {
	.name = "hist",
	.summary = "the duration and field histograms a target kept, as bars or JSON",
	.synopsis = "hist TRACE.bt [--elf ELF] [--per-cpu] [--json] [--no-demangle]",
	.about =
		"Print the duration histograms the target kept (trace_hist=, console\n"
		"'hist'): per function, its calls per power-of-two range as bars, with\n"
		"the average and the p50 and p99 bounds; then tracepoint field histograms.",
	.opts = hist_opts,
	.exit_status =
		"0  the histograms were printed\n"
		"1  bad input: no trace, a trace without histogram frames\n"
		"2  a bad command line",
	.examples =
		"baretrace hist trace.bt --elf build/qemu-virt/baretrace.elf\n"
		"  each function's durations as bars\n"
		"baretrace hist trace.bt --json > hist.json\n"
		"  the same numbers for a script",
	.manual =
		"Prints the duration histograms the target kept (trace_hist=, console 'hist'): "
		"per function, its calls per power-of-two range of counter ticks (and "
		"ns) as bars, all CPUs summed, with the average and the p50 and p99 "
		"bucket bounds; --per-cpu adds each CPU's; --json: the same numbers, "
		"each CPU's included, as one JSON object (not with --per-cpu).\n"
		"\n"
		"Tracepoint field histograms (trace_hist=SYSTEM:EVENT:FIELD[:keys=KEY]) "
		"follow: per key, its hits per power-of-two range of the field's "
		"values, and the hits of keys the target had no room for (\"events\" in "
		"the JSON).",
};

static const struct bt_opt_help args_spec_opts[] = {
	{ "--elf ELF", "the image's ELF, for its DWARF (required)" },
	{ "--no-demangle", "C++ names as the symbol table has them" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_args_spec = {
	.name = "args-spec",
	.summary = "the trace_args= boot argument for functions, from their DWARF",
	.synopsis = "args-spec --elf ELF FUNC... [--no-demangle]",
	.about =
		"Print the trace_args= boot argument that records each FUNC's\n"
		"parameters, chosen from the ELF's DWARF types.",
	.opts = args_spec_opts,
	.exit_status =
		"0  the argument was printed\n"
		"1  bad input: no such ELF or function, no DWARF\n"
		"2  a bad command line",
	.examples =
		"baretrace args-spec --elf build/qemu-virt/baretrace.elf fmt_fixed \\\n"
		"    fsm_step\n"
		"  prints trace_args=fmt_fixed:3:s0,fsm_step:2",
	.manual =
		"Prints the trace_args= boot argument that records FUNC's parameters: "
		"the argument registers they take and, for each char * among them, the "
		"string it points to (:sRR), from the ELF's DWARF (at most 8 functions): "
		"trace_args=fmt_fixed:3:s0,fsm_step:2.",
};
