/*
 * tools/baretrace/main.c: the `baretrace` command line. Parses the
 * arguments of each command and hands over; exit status 2 for a bad
 * command line, 1 for bad input, 0 otherwise.
 */
#include <stdlib.h>
#include <string.h>

#include "bt.h"

static const char usage_text[] =
	"usage: baretrace COMMAND ...\n"
	"\n"
	"  capture (--serial DEV [--baud N] | --file RAW | --qemu [--] QEMU ARGS...) -o TRACE.bt\n"
	"          [--exec 'CMD; CMD...']... [--exec-timeout S]\n"
	"        read a UART stream: console text to stdout, checked frames to TRACE.bt;\n"
	"        stops at end of stream, end of input or Ctrl-C. --qemu takes the rest\n"
	"        of the line as the QEMU command (give -o before it).\n"
	"        With --serial or --qemu the line is two-way: stdin goes to the target,\n"
	"        a terminal raw (every key, Ctrl-C too; Ctrl-] leaves), else as it is\n"
	"        (its end stops only the forwarding). --exec sends each command at the\n"
	"        target's shell prompt \"bt> \" and waits for the next prompt, at most S\n"
	"        seconds (default 30) each, the first included; a missing reply is an\n"
	"        error (status 1). The last command may end the run ('exit'). After\n"
	"        the commands, stdin has the line\n"
	"  report TRACE.bt [--elf ELF] [--ns]\n"
	"        ftrace-style text (function and function_graph layouts). Arguments\n"
	"        recorded right after (or right before) an entry go in its parentheses,\n"
	"        as 64-bit hex: \"leaf(0x1, 0x2);\"; others get a line of their own,\n"
	"        \"args of FUNC: 0x1 0x2\".\n"
	"        Stack traces print as \"<stack trace>\" and \" => caller\" lines, fired\n"
	"        triggers as \"trigger ACTION on FUNC\". Graph exits with no entry\n"
	"        (threshold mode) print as \"} /* FUNC */\", indented by the calls that\n"
	"        contain them. A profile dump is a note: \"# profile dump: N functions\"\n"
	"        Where events are missing: \"CPU:n [LOST N EVENTS] (cause)\"; the last\n"
	"        lines count the events and the losses, in events, by cause\n"
	"  stats TRACE.bt [--elf ELF] [--per-cpu]\n"
	"        per-function calls, total, self, average and max time from graph\n"
	"        records, call counts from function entries, and the profiler's calls,\n"
	"        total, average, min and max from profile dumps (the latest dump of\n"
	"        each CPU; a profile has no self time). Merged over CPUs, or one\n"
	"        table per CPU with --per-cpu. On a trace with holes, '*' marks\n"
	"        functions with a call open across one: their self time is an upper bound\n"
	"  export --format=chrome-json|folded|ctf|svg -o PATH TRACE.bt [--elf ELF] [--per-cpu]\n"
	"        Perfetto/Chrome JSON, folded stacks (\"CPU n\" first with --per-cpu),\n"
	"        a CTF 1.8 directory, or an SVG flame graph that a browser opens as it\n"
	"        is. Its widths are inclusive time from graph records, else total\n"
	"        time per function from profile dumps (no stacks), else call counts\n"
	"        from function entries (caller below function); the title says which.\n"
	"        Stacks of all CPUs are merged; --per-cpu puts each CPU's on a\n"
	"        \"CPU n\" frame. Colour is by module, the name up to its first '_'\n"
	"        (leading '_' skipped). Hover a frame for its numbers; each <rect>\n"
	"        carries data-name, data-calls and data-ticks (counter ticks, or calls\n"
	"        for counts) and its width is exactly proportional to data-ticks\n"
	"  graph [FUNC] TRACE.bt [--elf ELF] [FILTERS]\n"
	"        the call graph from graph records: calls and total time per call path,\n"
	"        CPUs merged; with FUNC, beneath each call of FUNC (as -F FUNC)\n"
	"\n"
	"FILTERS (report, stats, export, graph; applied once, to the decoded stream):\n"
	"  --cpu LIST            only these CPUs: 0,2-3\n"
	"  -F, --function GLOB   only GLOB's calls and what they call (depths from it)\n"
	"  -N, --notrace GLOB    leave out GLOB's calls and what they call\n"
	"  --depth N             leave out calls nested more than N levels deep\n"
	"  --time-range A-B      events timed A to B as report prints them (seconds,\n"
	"                        or with s, ms, us, ns); either end may be open\n"
	"  --min-duration D      leave out graph calls shorter than D (10us, 1.5ms)\n"
	"  The summary counts the events left out (they are not lost).\n"
	"\n"
	"Names come from ELF (the image's baretrace.elf, checked against the trace's\n"
	"image hash) or else from symbol-dump frames in the trace.\n";

static void __attribute__((noreturn)) usage(const char *fmt, const char *arg)
{
	fputs("baretrace: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n\n", stderr);
	fputs(usage_text, stderr);
	exit(BT_EXIT_USAGE);
}

/*
 * If argv[*i] is option 'name' ("--name VALUE" or "--name=VALUE"),
 * stores the value, advances *i past it and returns 1.
 */
static int opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc)
		usage("option %s needs a value", name);
	*val = argv[++*i];
	return 1;
}

static void __attribute__((noreturn)) unknown(const char *cmd, const char *arg)
{
	fprintf(stderr, "baretrace %s: %s '%s'\n\n%s", cmd,
		arg[0] == '-' ? "unknown option" : "unexpected argument", arg, usage_text);
	exit(BT_EXIT_USAGE);
}

/* Splits one --exec value at ';' into o->exec; an empty command is refused. */
static void add_exec(struct bt_capture_opts *o, const char *arg)
{
	char *copy = bt_strndup(arg, strlen(arg)), *p = copy;

	for (;;) {
		char *end = strchr(p, ';'), *e;

		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*p)
			usage("--exec '%s' holds an empty command (commands are separated by ';')",
			      arg);
		for (char *q = p; *q; q++)
			if ((unsigned char)*q < ' ' || *q == 0x7f)
				usage("--exec '%s': a command is one line of printable characters",
				      arg);
		o->exec = realloc(o->exec, (size_t)(o->n_exec + 1) * sizeof(*o->exec));
		if (!o->exec)
			bt_die(BT_EXIT_INPUT, "out of memory");
		o->exec[o->n_exec++] = p;
		if (!end)
			return;
		p = end + 1;
	}
}

static int cmd_capture(int argc, char **argv)
{
	struct bt_capture_opts o = { .exec_timeout = 30 };
	const char *baud = NULL, *exec, *timeout = NULL;
	int sources;

	for (int i = 1; i < argc; i++) {
		if (opt_value(argc, argv, &i, "--exec", &exec)) {
			add_exec(&o, exec);
			continue;
		}
		if (opt_value(argc, argv, &i, "--serial", &o.serial) ||
		    opt_value(argc, argv, &i, "--exec-timeout", &timeout) ||
		    opt_value(argc, argv, &i, "--baud", &baud) ||
		    opt_value(argc, argv, &i, "--file", &o.file) ||
		    opt_value(argc, argv, &i, "-o", &o.out) ||
		    opt_value(argc, argv, &i, "--output", &o.out))
			continue;
		if (!strcmp(argv[i], "--qemu")) {
			i += i + 1 < argc && !strcmp(argv[i + 1], "--");
			o.qemu_argv = argv + i + 1;
			/* QEMU has no -o option: a trailing "-o PATH" is ours. */
			if (!o.out && argc - i - 1 >= 3 && !strcmp(argv[argc - 2], "-o")) {
				o.out = argv[argc - 1];
				argv[argc - 2] = NULL;
			}
			if (!o.qemu_argv[0])
				usage("%s needs a QEMU command line after it", "--qemu");
			break;
		}
		unknown("capture", argv[i]);
	}
	sources = !!o.serial + !!o.file + !!o.qemu_argv;
	if (sources != 1)
		usage("capture needs exactly one of --serial, --file, --qemu%s", "");
	if (!o.out)
		usage("capture needs -o TRACE.bt%s", "");
	if (baud && !o.serial)
		usage("--baud %s goes with --serial", baud);
	if (baud) {
		char *end;
		unsigned long b = strtoul(baud, &end, 10);

		if (!*baud || *end || b == 0 || b > 4000000)
			usage("bad baud rate '%s'", baud);
		o.baud = (unsigned)b;
	}
	if (timeout) {
		char *end;

		o.exec_timeout = strtod(timeout, &end);
		if (!*timeout || *end || !(o.exec_timeout > 0 && o.exec_timeout <= 86400))
			usage("bad --exec-timeout '%s' (seconds, more than 0, e.g. 30)", timeout);
		if (!o.n_exec)
			usage("--exec-timeout %s goes with --exec", timeout);
	}
	if (o.n_exec && o.file)
		usage("--exec needs a target to talk to (--serial or --qemu), not --file%s", "");
	if (o.file)
		bt_refuse_same_file(o.file, o.out);
	if (o.serial)
		bt_refuse_same_file(o.serial, o.out);
	return bt_capture(&o);
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

	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (opt_value(argc, argv, i, flags[k], &val))
			return bt_filter_parse(flags[k], val);
	return 0;
}

/* graph [FUNC] TRACE.bt [--elf ELF] [filters]: FUNC is the filter's -F. */
static int cmd_graph(int argc, char **argv)
{
	const char *pos[2] = { NULL, NULL }, *elf = NULL;
	int npos = 0;

	for (int i = 1; i < argc; i++) {
		if (filter_opt(argc, argv, &i) || opt_value(argc, argv, &i, "--elf", &elf))
			continue;
		if (argv[i][0] == '-' || npos == 2)
			unknown("graph", argv[i]);
		pos[npos++] = argv[i];
	}
	if (!npos)
		usage("%s needs a trace file (made by 'baretrace capture')", "graph");
	if (npos == 2) {
		if (bt_filter_conf.nfunc)
			usage("graph %s: give the function once, not with -F too", pos[0]);
		bt_filter_parse("-F", pos[0]);
	}
	return bt_graph(pos[npos - 1], elf, npos == 2 ? pos[0] : NULL);
}

/* report, stats and export share: one trace, --elf, and for export
 * --format and -o. */
static int cmd_read(const char *cmd, int argc, char **argv)
{
	const char *trace = NULL, *elf = NULL, *format = NULL, *out = NULL;
	int export = !strcmp(cmd, "export"), per_cpu = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(cmd, "report") && !strcmp(argv[i], "--per-cpu")) {
			per_cpu = 1;
			continue;
		}
		if (!strcmp(cmd, "report") && !strcmp(argv[i], "--ns")) {
			bt_opt_ns = 1;	/* timestamps to the nanosecond */
			continue;
		}
		if (filter_opt(argc, argv, &i) || opt_value(argc, argv, &i, "--elf", &elf) ||
		    (export && (opt_value(argc, argv, &i, "--format", &format) ||
				opt_value(argc, argv, &i, "-o", &out) ||
				opt_value(argc, argv, &i, "--output", &out))))
			continue;
		if (argv[i][0] == '-' || trace)
			unknown(cmd, argv[i]);
		trace = argv[i];
	}
	if (!trace)
		usage("%s needs a trace file (made by 'baretrace capture')", cmd);
	if (!export)
		return !strcmp(cmd, "report") ? bt_report(trace, elf) : bt_stats(trace, elf, per_cpu);
	if (!format)
		usage("export needs --format=chrome-json|folded|ctf|svg%s", "");
	if (!out)
		usage("export needs -o PATH%s", "");
	bt_refuse_same_file(trace, out);
	if (elf)
		bt_refuse_same_file(elf, out);
	if (per_cpu && strcmp(format, "svg") && strcmp(format, "folded"))
		usage("--per-cpu goes with stats, svg or folded, not %s (it has a track per CPU)",
		      format);
	if (!strcmp(format, "chrome-json"))
		return bt_export_chrome(trace, elf, out);
	if (!strcmp(format, "folded"))
		return bt_export_folded(trace, elf, out, per_cpu);
	if (!strcmp(format, "ctf"))
		return bt_export_ctf(trace, elf, out);
	if (!strcmp(format, "svg"))
		return bt_export_svg(trace, elf, out, per_cpu);
	usage("unknown export format '%s' (chrome-json, folded, ctf or svg)", format);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd)
		usage("%s", "no command given");
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(cmd, "capture"))
		return cmd_capture(argc - 1, argv + 1);
	if (!strcmp(cmd, "report") || !strcmp(cmd, "stats") || !strcmp(cmd, "export"))
		return cmd_read(cmd, argc - 1, argv + 1);
	if (!strcmp(cmd, "graph"))
		return cmd_graph(argc - 1, argv + 1);
	usage("unknown command '%s'", cmd);
}
