/*
 * tools/baretrace/main.c: the `baretrace` command line. Parses the
 * arguments of each command and hands over; exit status 2 for a bad
 * command line, 1 for bad input, 3 when stats --diff --fail-above finds
 * a function over its threshold or ktap a test failed, 0 otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "cmdline.h"
#include "base/util.h"
#include "decode/symtab.h"
#include "decode/units.h"
#include "model/model.h"
#include "output/ci/ktap.h"
#include "output/export/export.h"
#include "output/report/report.h"
#include "output/stats/stats.h"

static const char *const formats[] = {
	"chrome-json", "chrome", "folded", "ctf", "svg", "trace-cmd",
};


/* --sort KEY's key; an unknown one names the nearest, or them all. */
static int sort_key(const char *sort)
{
	int key = bt_stat_key_of(sort);
	const char *near = bt_nearest(sort, bt_stat_key_names, BT_STAT_KEYS);

	if (key < 0 && near) {
		fprintf(stderr, "baretrace: unknown sort key '%s'; did you mean '%s'?\n", sort, near);
		bt_try_help(bt_cmd_now);
	}
	if (key < 0)
		bt_usage("unknown sort key '%s' (" BT_STAT_KEY_LIST ")", sort);
	return key;
}

/* --no-demangle: C++ names as the symbol table has them (model/symtab.h);
 * --no-types: arguments and return values as raw registers (functypes.c). */
static int names_opt(const char *arg)
{
	if (!strcmp(arg, "--no-types")) {
		bt_opt_types = 0;
		return 1;
	}
	if (strcmp(arg, "--no-demangle"))
		return 0;
	bt_sym_demangler = NULL;
	return 1;
}

/* stats --diff OLD NEW: two traces, each with its own ELF or one for both. */
static int cmd_stats_diff(int argc, char **argv)
{
	struct bt_diff_opts o = { .sort = -1, .floor = -1 };
	const char *elf = NULL, *sort = NULL, *fail = NULL, *floor_us = NULL, *files[2];
	int nfiles = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--diff") || names_opt(argv[i]))
			continue;
		if (!strcmp(argv[i], "--hist")) {
			o.hist = 1;	/* output/hist_diff.c */
			continue;
		}
		if (bt_opt_value(argc, argv, &i, "--elf", &elf) ||
		    bt_opt_value(argc, argv, &i, "--old-elf", &o.old_elf) ||
		    bt_opt_value(argc, argv, &i, "--new-elf", &o.new_elf) ||
		    bt_opt_value(argc, argv, &i, "--sort", &sort) ||
		    bt_opt_value(argc, argv, &i, "--fail-above", &fail) ||
		    bt_opt_value(argc, argv, &i, "--junit", &o.junit) ||
		    bt_opt_value(argc, argv, &i, "--floor", &floor_us))
			continue;
		if (bt_is_option(argv[i]) || nfiles == 2)
			bt_unknown_arg("stats --diff", argv[i]);
		files[nfiles++] = argv[i];
	}
	if (nfiles != 2)
		bt_usage("stats --diff needs two trace files, OLD.bt and NEW.bt%s", "");
	o.old_trace = files[0];
	o.new_trace = files[1];
	if (elf && (o.old_elf || o.new_elf))
		bt_usage("--elf %s is for both traces: not with --old-elf or --new-elf", elf);
	if (elf)
		o.old_elf = o.new_elf = elf;
	if (sort)
		o.sort = sort_key(sort);
	if (fail) {
		char *end;

		o.fail = 1;
		o.fail_pct = strtod(fail, &end);
		if (!*fail || *end || !(o.fail_pct >= 0 && o.fail_pct < 1e9))
			bt_usage("bad --fail-above '%s' (a percentage, e.g. 25)", fail);
	}
	if (floor_us) {
		char *end;
		double us = strtod(floor_us, &end);

		if (!*floor_us || *end || !(us >= 0 && us < 1e12))
			bt_usage("bad --floor '%s' (instructions on exact traces, else microseconds)", floor_us);
		if (!fail)
			bt_usage("--floor %s goes with --fail-above", floor_us);
		o.floor = us;	/* its unit follows the traces' clock (output/diff_clock.c) */
	}
	if (o.hist && o.junit)
		bt_usage("--junit %s is for stats --diff without --hist", o.junit);
	if (o.hist && sort)
		bt_usage("--sort %s is not for --hist (rows in the order of the sites)", sort);
	return o.hist ? bt_hist_diff(&o) : bt_stats_diff(&o);
}

/*
 * The host-side filters every reading command takes (model/filter_opts.c
 * checks the values): 1 if argv[*i] was one, with *i past its value.
 */
static int filter_opt(int argc, char **argv, int *i)
{
	static const char *const flags[] = { "--cpu", "-F", "--function", "-N", "--notrace",
					     "--depth", "--time-range", "--min-duration" };
	const char *val;

	if (names_opt(argv[*i]))
		return 1;
	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (bt_opt_value(argc, argv, i, flags[k], &val))
			return bt_filter_parse(flags[k], val);
	return 0;
}

/* graph [FUNC] TRACE.bt [--elf ELF] [filters]: FUNC is the filter's -F. */
static int cmd_graph(int argc, char **argv)
{
	const char *pos[2] = { NULL, NULL }, *elf = NULL;
	int npos = 0;

	for (int i = 1; i < argc; i++) {
		if (filter_opt(argc, argv, &i) || bt_opt_value(argc, argv, &i, "--elf", &elf))
			continue;
		if (bt_is_option(argv[i]) || npos == 2)
			bt_unknown_arg("graph", argv[i]);
		pos[npos++] = argv[i];
	}
	if (!npos)
		bt_usage("%s needs a trace file (made by 'baretrace capture')", "graph");
	if (npos == 2) {
		if (bt_filter_conf.nfunc)
			bt_usage("graph %s: give the function once, not with -F too", pos[0]);
		bt_filter_parse("-F", pos[0]);
	}
	return bt_graph(pos[npos - 1], elf, npos == 2 ? pos[0] : NULL);
}

/* report, stats and export share: one trace, --elf, and for export
 * --format and -o. */
static int cmd_read(const char *cmd, int argc, char **argv)
{
	const char *trace = NULL, *elf = NULL, *format = NULL, *out = NULL, *sort = NULL;
	int export = !strcmp(cmd, "export"), per_cpu = 0, counters = 0, key = BT_STAT_TOTAL;
	int numbers = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(cmd, "report") && !strcmp(argv[i], "--per-cpu")) {
			per_cpu = 1;
			continue;
		}
		if (export && !strcmp(argv[i], "--counters")) {
			counters = 1;	/* chrome-json: counter tracks */
			continue;
		}
		if (!strcmp(cmd, "report") && !strcmp(argv[i], "--ns")) {
			bt_opt_ns = 1;	/* timestamps to the nanosecond */
			continue;
		}
		if (!strcmp(cmd, "report") && !strcmp(argv[i], "--abstime")) {
			bt_opt_abstime = 1;
			continue;
		}
		if (strcmp(cmd, "stats") && !strcmp(argv[i], "--numbers")) {
			numbers = 1;	/* each entry's number, goto's (docs/replay.md) */
			continue;
		}
		if (!strcmp(cmd, "stats") && bt_opt_value(argc, argv, &i, "--sort", &sort))
			continue;
		if (filter_opt(argc, argv, &i) || bt_opt_value(argc, argv, &i, "--elf", &elf) ||
		    (export && (bt_opt_value(argc, argv, &i, "--format", &format) ||
				bt_opt_value(argc, argv, &i, "-o", &out) ||
				bt_opt_value(argc, argv, &i, "--output", &out))))
			continue;
		if (bt_is_option(argv[i]) || trace)
			bt_unknown_arg(cmd, argv[i]);
		trace = argv[i];
	}
	if (!trace)
		bt_usage("%s needs a trace file (made by 'baretrace capture')", cmd);
	if (sort)
		key = sort_key(sort);
	if (numbers && bt_dec_stage)
		bt_usage("--numbers counts every entry of the trace (goto's numbers): not with "
			 "host-side filters%s", "");
	bt_opt_numbers = numbers && !export;	/* report: "  #N" */
	bt_chrome_numbers = numbers && export;	/* chrome-json: "event": N */
	if (!export)
		return !strcmp(cmd, "report") ? bt_report(trace, elf)
					      : bt_stats(trace, elf, per_cpu, (enum bt_stat_key)key);
	if (!format)
		bt_usage("export needs --format=chrome-json|folded|ctf|svg|trace-cmd%s", "");
	if (!strcmp(format, "chrome"))	/* what make run calls the file */
		format = "chrome-json";
	if (!out)
		bt_usage("export needs -o PATH%s", "");
	bt_refuse_same_file(trace, out);
	if (elf)
		bt_refuse_same_file(elf, out);
	if (per_cpu && strcmp(format, "svg") && strcmp(format, "folded"))
		bt_usage("--per-cpu goes with stats, svg or folded, not %s (it has a track per CPU)",
		      format);
	if (counters && strcmp(format, "chrome-json"))
		bt_usage("--counters goes with chrome-json, not %s", format);
	if (numbers && strcmp(format, "chrome-json"))
		bt_usage("--numbers goes with chrome-json (and report), not %s", format);
	if (!strcmp(format, "chrome-json"))
		return bt_export_chrome(trace, elf, out, counters);
	if (!strcmp(format, "folded"))
		return bt_export_folded(trace, elf, out, per_cpu);
	if (!strcmp(format, "ctf"))
		return bt_export_ctf(trace, elf, out);
	if (!strcmp(format, "svg"))
		return bt_export_svg(trace, elf, out, per_cpu);
	if (!strcmp(format, "trace-cmd"))
		return bt_export_tracecmd(trace, elf, out);
	const char *near = bt_nearest(format, formats, sizeof(formats) / sizeof(formats[0]));

	if (near)
		fprintf(stderr, "baretrace: unknown export format '%s'; did you mean '%s'?\n",
			format, near);
	else
		bt_usage("unknown export format '%s' (chrome-json or chrome, folded, ctf, svg or "
		      "trace-cmd)", format);
	bt_try_help(bt_cmd_now);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {	/* the overview, as a usage error: no command to run */
		bt_help(stderr, NULL);
		return BT_EXIT_USAGE;
	}
	bt_sym_demangler = bt_demangle;	/* C++ names shown demangled */
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		return bt_help_main(argc, argv);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		bt_print_version();
		return 0;
	}
	if (bt_cmd_find(cmd) && bt_wants_help(argc, argv)) {
		bt_help(stdout, bt_cmd_find(cmd));
		return 0;
	}
	bt_cmd_now = cmd;
	bt_after_usage_error = bt_try_help_now;
	if (!strcmp(cmd, "capture"))
		return bt_cmd_capture(argc - 1, argv + 1);
	if (!strcmp(cmd, "goto"))
		return bt_cmd_goto(argc - 1, argv + 1);
	for (int i = 2; !strcmp(cmd, "stats") && i < argc; i++)
		if (!strcmp(argv[i], "--diff"))
			return cmd_stats_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "report") || !strcmp(cmd, "stats") || !strcmp(cmd, "export"))
		return cmd_read(cmd, argc - 1, argv + 1);
	if (!strcmp(cmd, "graph"))
		return cmd_graph(argc - 1, argv + 1);
	if (!strcmp(cmd, "hist"))
		return bt_hist_main(argc - 1, argv + 1);	/* output/hist.c */
	if (!strcmp(cmd, "coverage"))
		return bt_coverage_main(argc - 1, argv + 1);	/* output/coverage.c */
	if (!strcmp(cmd, "ktap"))
		return bt_ktap_main(argc - 1, argv + 1);	/* output/ktap.c */
	if (!strcmp(cmd, "args-spec"))
		return bt_args_spec_main(argc - 1, argv + 1);	/* output/args_spec.c */
	bt_unknown_command(cmd);
}
