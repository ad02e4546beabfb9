/*
 * trace/control/coverage_ctl.c: starting and stopping function coverage
 * (trace/tracers/coverage.c) and its console command. Coverage is an ops
 * of its own, like the profiler: it runs beside the recording tracer and
 * the profiler, with its own filters (trace=coverage gives it
 * trace_filter's and trace_notrace's).
 */
#include <string.h>

#include "base/glob.h"
#include "core/core.h"
#include "kprintf.h"
#include "shell.h"
#include "tracers/coverage.h"
#include "output/output.h"
#include "output/prev.h"
#include "control.h"

static bool covering;	/* registered; thread context only, like ctl_lock's state */

int trace_coverage(bool on, const char *globs)
{
	int err;

	if (!on) {
		if (covering && !(err = trace_ops_unregister(&tracer_coverage_ops))) {
			covering = false;
			coverage_set_running(false);
		}
		return covering ? TRACE_EBUSY : 0;
	}
	if (covering)
		return TRACE_EBUSY;
	if ((err = trace_ops_set_filter(&tracer_coverage_ops, globs ? globs : "")))
		return err;
	if ((err = trace_export_ready()))	/* the exporter carries the frames */
		return err;
	if (coverage_prepare(prev_coverage_area()))
		return TRACE_ENOMEM;
	coverage_set_running(true);	/* before the first hit can come */
	if ((err = trace_ops_register(&tracer_coverage_ops))) {
		coverage_set_running(false);
		return err;
	}
	covering = true;
	return 0;
}

int trace_coverage_notrace(const char *globs)
{
	return covering ? TRACE_EBUSY : trace_ops_set_notrace(&tracer_coverage_ops, globs);
}

int trace_coverage_forget(void)
{
	if (covering)
		return TRACE_EBUSY;
	coverage_forget();
	prev_coverage_forget();
	return 0;
}

bool trace_covering(void)
{
	return covering;
}

static int cmd_coverage(int argc, char **argv)
{
	if (argc == 1) {
		coverage_print();
		return 0;
	}
	if (!strcmp(argv[1], "on")) {
		char pat[SHELL_LINE_MAX] = "";
		size_t n = 0;
		int err;

		for (int i = 2; i < argc; i++) {	/* the globs, joined by spaces */
			size_t l = strlen(argv[i]);

			if (n + l + 2 > sizeof(pat) || n + l + 2 > TRACE_PATTERN_MAX)
				return shell_usage("coverage", "the glob list is too long");
			if (n)
				pat[n++] = ' ';
			memcpy(pat + n, argv[i], l + 1);
			n += l;
		}
		if (covering)
			return shell_usage("coverage", "already on ('coverage off' first)");
		if (trace_console_refuses())
			return 1;
		err = trace_coverage(true, pat);
		if (err)
			return shell_usage("coverage", err == TRACE_EINVAL ? "invalid glob" :
					   err == TRACE_ENOMEM ? "out of memory" : "the patcher refused");
		kprintf("coverage: on, %u functions\n", trace_wanted_sites(&tracer_coverage_ops));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "off"))
		return trace_coverage(false, NULL) ? shell_usage("coverage", "the patcher refused") : 0;
	if (argc == 2 && !strcmp(argv[1], "send")) {
		coverage_send();
		return 0;
	}
	return shell_usage("coverage", "on [GLOB...], off, send, or nothing for the summary");
}
SHELL_CMD(coverage, cmd_coverage, "[on [GLOB...]|off|send]", "function coverage: first hits only");
