/*
 * tools/baretrace/help/cmd_shared.c: the options, and their prose, that
 * the commands reading a trace share: the host-side filters (report,
 * stats, export, graph; model/filter_opts.c parses them) and how names
 * are shown (main.c's names_opt).
 */
#include "help.h"

const struct bt_opt_help bt_help_filter_opts[] = {
	{ "--cpu LIST", "only these CPUs: 0,2-3" },
	{ "-F, --function GLOB", "only GLOB's calls and what they call (depths\n"
				 "from it; up to 16 times)" },
	{ "-N, --notrace GLOB", "leave out GLOB's calls and what they call" },
	{ "--depth N", "leave out calls nested more than N levels deep" },
	{ "--time-range A-B", "events timed A to B as report prints them\n"
			      "(seconds, or s, ms, us, ns); an end may be open" },
	{ "--min-duration D", "leave out graph calls shorter than D (10us, 1.5ms)" },
	{ NULL, NULL },
};

const struct bt_opt_help bt_help_name_opts[] = {
	{ "--no-demangle", "C++ names as the symbol table has them" },
	{ "--no-types", "arguments and return values as raw registers" },
	{ NULL, NULL },
};

const char bt_help_filters_text[] =
	"Filters (--cpu, -F, -N, --depth, --time-range, --min-duration) are applied "
	"once, to the decoded stream, between the decoder and the command, so every "
	"view of one command line shows the same events. The summary counts the "
	"events left out (they are not lost). A bad value is refused with exit status "
	"2 before anything is written; a part that matches nothing in the trace is "
	"named on stderr, and a filter that keeps no event at all is an error "
	"(status 1).";

const char bt_help_names_text[] =
	"Names come from ELF (the image's baretrace.elf, checked against the trace's "
	"image hash; a different build or another board's image is refused) or else "
	"from symbol-dump frames in the trace.\n"
	"\n"
	"C++ names (Itanium ABI, \"_Z...\") are shown demangled in every output: "
	"\"_ZNK6Sensor4readEv\" as \"Sensor::read() const\". -F, -N and graph's FUNC "
	"match a function by either name: -F 'Sensor::read*' or -F '_ZNK6Sensor*'. "
	"--no-demangle shows names as the symbol table has them, in every output.\n"
	"\n"
	"Recorded arguments (trace_args=) and return values (trace_retval=1) are shown "
	"by name and type from the ELF's DWARF when --elf is given: f(id=3, ok=true); "
	"--no-types shows the raw registers in hex, as recorded.";
