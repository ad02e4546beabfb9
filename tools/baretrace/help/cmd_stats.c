/*
 * tools/baretrace/help/cmd_stats.c: `baretrace stats`, one trace's table
 * or two traces compared (main.c's cmd_read and cmd_stats_diff parse the
 * options; output/stats*.c, hist_diff*.c print).
 */
#include "help.h"

static const struct bt_opt_help opts[] = {
	{ "--elf ELF", "names from the image's ELF (with --diff: both's)" },
	{ "--per-cpu", "a table per CPU (not with --diff)" },
	{ "--sort=KEY", "order by calls, total, self, avg or max,\n"
			"largest first (default total)" },
	{ "--diff", "compare OLD.bt and NEW.bt, function by function" },
	{ "--old-elf ELF", "--diff: the ELF of OLD.bt" },
	{ "--new-elf ELF", "--diff: the ELF of NEW.bt" },
	{ "--hist", "--diff: compare the duration histograms" },
	{ "--fail-above PCT", "--diff: exit status 3 if a function grew by\n"
			      "more than PCT %" },
	{ "--floor US", "--fail-above: a time must also grow by US\n"
			"microseconds or more (default 1)" },
	{ "--junit FILE", "--diff: the verdicts as JUnit XML in FILE" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_stats = {
	.name = "stats",
	.summary = "per-function calls and times of a trace, or of two compared",
	.synopsis =
		"stats TRACE.bt [--elf ELF] [--per-cpu] [--sort=KEY] [FILTERS]\n"
		"stats --diff OLD.bt NEW.bt [--sort=KEY] [--hist] [--junit FILE]\n"
		"    [--elf ELF | --old-elf ELF --new-elf ELF]\n"
		"    [--fail-above PCT [--floor US]] [--no-demangle] [--no-types]",
	.about =
		"Per function: calls, total, self, average and max time from graph\n"
		"records, call counts from function entries, the profiler's numbers from\n"
		"profile dumps. With --diff: two traces side by side and the change in %,\n"
		"a gate for CI with --fail-above. Filters are not for --diff.",
	.opts = opts,
	.filters = 1,
	.names = 1,
	.exit_status =
		"0  the table was printed (--fail-above: no function over)\n"
		"1  bad input: no trace, a wrong ELF, two traces that share no function,\n"
		"   a --junit FILE that cannot be written\n"
		"2  a bad command line\n"
		"3  --fail-above: a function grew by more than PCT %",
	.examples =
		"baretrace stats trace.bt --elf build/qemu-virt/baretrace.elf --sort=self\n"
		"  the functions that spent the most time in their own code first\n"
		"baretrace stats --diff old.bt new.bt --fail-above 25 --junit stats.xml\n"
		"  fail (status 3) if a function got 25 % slower; verdicts for CI",
	.manual =
		"Prints per-function calls, total, self, average and max time from graph "
		"records, call counts from function entries, and the profiler's calls, "
		"total, average, min and max from profile dumps (the latest dump of each "
		"CPU; a profile has no self time). Merged over CPUs, or one table per "
		"CPU with --per-cpu. On a trace with holes, '*' marks functions with a "
		"call open across one: their self time is an upper bound. --sort orders "
		"the tables by that column, largest first (default total; equal values: "
		"more calls first, then by name; profile tables stay by total).\n"
		"\n"
		"--diff: per function, calls, total, self, avg and max of OLD and NEW and "
		"the change in % of OLD; names matched, times in ns whatever the clocks. "
		"Functions in both come first, by their largest change (or the --sort "
		"column's), then [added] and [removed] ones. --fail-above: exit status 3 "
		"if a function's calls, total or avg grew by more than PCT %; a time "
		"must also grow by US microseconds or more (--floor, default 1). Two "
		"traces that share no function are an error (status 1).\n"
		"\n"
		"--junit FILE: the verdicts as JUnit XML, a testcase per function (suite "
		"stats-diff), failed when over, its text each key's old, new, delta and "
		"%; not with --hist. A FILE that cannot be written is an error (status "
		"1) before anything is read.\n"
		"\n"
		"--diff --hist: from the duration histograms (see baretrace-hist(1)), "
		"per function in both, calls and the p50, p90 and p99 bounds in ns (the "
		"top of the log2 bucket each falls in, so they move a bucket at a "
		"time); --fail-above: status 3 if one of them grew by more than PCT %; "
		"then each tracepoint field histogram's keys (same event, field and key "
		"by name), bounds in the field's values (--floor does not apply).",
};
