/*
 * tools/baretrace/cmd_capture.c: the capture command's line: the source
 * (--serial, --file or --qemu), its settings, the trace file; checked
 * before anything is opened, then capture/ runs it.
 */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "capture/capture.h"
#include "cmdline.h"

/* capture without -o: trace-cmd record writes trace.dat, perf record
 * perf.data; as perf does, an old one is kept (trace.bt.old). A file
 * named by -o is overwritten: the user named it. */
static const char capture_default[] = "trace.bt";

int bt_cmd_capture(int argc, char **argv)
{
	struct bt_capture_opts o = { .exec_timeout = 30 };
	const char *baud = NULL, *exec, *timeout = NULL, *limit = NULL, *why;
	int sources;

	for (int i = 1; i < argc; i++) {
		if (bt_opt_value(argc, argv, &i, "--exec", &exec)) {
			if (bt_exec_add(&o.exec, &o.n_exec, exec, &why))
				bt_usage(why, exec);
			continue;
		}
		if (bt_opt_value(argc, argv, &i, "--serial", &o.serial) ||
		    bt_opt_value(argc, argv, &i, "--exec-timeout", &timeout) ||
		    bt_opt_value(argc, argv, &i, "--timeout", &limit) ||
		    bt_opt_value(argc, argv, &i, "--baud", &baud) ||
		    bt_opt_value(argc, argv, &i, "--file", &o.file) ||
		    bt_opt_value(argc, argv, &i, "--log", &o.log) ||
		    bt_opt_value(argc, argv, &i, "-o", &o.out) ||
		    bt_opt_value(argc, argv, &i, "--output", &o.out))
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
				bt_usage("%s needs a QEMU command line after it", "--qemu");
			break;
		}
		bt_unknown_arg("capture", argv[i]);
	}
	sources = !!o.serial + !!o.file + !!o.qemu_argv;
	if (sources != 1)
		bt_usage("capture needs exactly one of --serial, --file, --qemu%s", "");
	if (!o.out)
		o.out = capture_default;
	if (baud && !o.serial)
		bt_usage("--baud %s goes with --serial", baud);
	if (baud) {
		char *end;
		unsigned long b = strtoul(baud, &end, 10);

		if (!*baud || *end || b == 0 || b > 4000000)
			bt_usage("bad baud rate '%s'", baud);
		o.baud = (unsigned)b;
	}
	if (timeout) {
		char *end;

		o.exec_timeout = strtod(timeout, &end);
		if (!*timeout || *end || !(o.exec_timeout > 0 && o.exec_timeout <= 86400))
			bt_usage("bad --exec-timeout '%s' (seconds, more than 0, e.g. 30)", timeout);
		if (!o.n_exec)
			bt_usage("--exec-timeout %s goes with --exec", timeout);
	}
	if (limit) {
		char *end;

		o.timeout = strtod(limit, &end);
		if (!*limit || *end || !(o.timeout > 0 && o.timeout <= 86400))
			bt_usage("bad --timeout '%s' (seconds, more than 0, e.g. 60)", limit);
		if (o.file)
			bt_usage("--timeout %s needs a target to ask (--serial or --qemu)", limit);
	}
	if (o.n_exec && o.file)
		bt_usage("--exec needs a target to talk to (--serial or --qemu), not --file%s", "");
	bt_refuse_same_file(o.file ? o.file : o.serial, o.out);
	bt_refuse_same_file(o.out, o.log);
	bt_refuse_same_file(o.file ? o.file : o.serial, o.log);
	if (o.out == capture_default)
		bt_keep_old(o.out);
	return bt_capture(&o);
}
