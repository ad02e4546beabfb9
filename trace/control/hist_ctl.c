/*
 * trace/control/hist_ctl.c: starting and stopping the duration
 * histograms (trace/tracers/hist.c) and their console command. Like the
 * profiler and coverage, an ops of its own with its own globs, beside
 * any other tracer; at most HIST_FUNCS_MAX functions.
 *
 * State: 'histing' (registered) is changed in thread context only, by
 * the console, the boot arguments, the end of the run and C code, one at
 * a time, as coverage_ctl.c's 'covering'.
 */
#include <string.h>

#include "base/glob.h"
#include "core/core.h"
#include "kprintf.h"
#include "shell.h"
#include "events/hist_ev.h"
#include "tracers/hist.h"
#include "control.h"

static bool histing;

int trace_hist(bool on, const char *globs, unsigned int *chosen)
{
	unsigned int n = 0;
	int err;

	if (chosen)
		*chosen = 0;
	if (!on) {
		if (histing && !trace_ops_unregister(&tracer_hist_ops))
			histing = false;
		return histing ? TRACE_EBUSY : 0;
	}
	if (histing)
		return TRACE_EBUSY;
	if (!globs || !*globs)	/* never every function: HIST_FUNCS_MAX */
		return TRACE_EINVAL;
	if ((err = trace_ops_set_filter(&tracer_hist_ops, globs)))
		return err;
	if ((err = trace_export_ready()))	/* the exporter carries the frames */
		return err;
	err = hist_prepare(&n);
	if (chosen)
		*chosen = n;
	if (err < 0)
		return err;
	if ((err = trace_ops_register(&tracer_hist_ops)))
		return err;
	histing = true;
	return 0;
}

int trace_hist_forget(void)
{
	if (histing)
		return TRACE_EBUSY;
	hist_forget();
	return 0;
}

bool trace_histing(void)
{
	return histing;
}

/* trace_hist=SYSTEM:EVENT:FIELD[:keys=KEY],...: the field histograms
 * (trace/events/hist_ev.c); what is wrong with a spec is said there. */
int trace_hist_events(bool on, const char *specs)
{
	int err;

	if (!on)
		return hist_ev_stop();
	if ((err = hist_ev_start(specs)))	/* a bad spec changes nothing */
		return err;
	if ((err = trace_export_ready())) {	/* the exporter carries the frames */
		hist_ev_stop();
		kprintf("hist: the exporter did not start (%d)\n", err);
	}
	return err;
}

static int hist_on(int argc, char **argv)
{
	char pat[SHELL_LINE_MAX] = "";
	size_t n = 0;
	unsigned int chosen;
	int err;

	for (int i = 2; i < argc; i++) {	/* the globs, joined by spaces */
		size_t l = strlen(argv[i]);

		if (n + l + 2 > sizeof(pat))
			return shell_usage("hist", "the glob list is too long");
		if (n)
			pat[n++] = ' ';
		memcpy(pat + n, argv[i], l + 1);
		n += l;
	}
	if (!n)
		return shell_usage("hist", "name the functions: hist on FUNC [GLOB...]");
	if (pat[strcspn(pat, ":")]) {	/* SYSTEM:EVENT:FIELD: no function has a ":"; no strchr (SIMD) */
		if (hist_ev_on())
			return shell_usage("hist", "events already on ('hist off' first)");
		if (trace_console_refuses())
			return 1;
		if (trace_hist_events(true, pat))
			return 1;	/* hist_ev_start said why */
		kprintf("hist: on, %s\n", pat);
		return 0;
	}
	if (histing)
		return shell_usage("hist", "already on ('hist off' first)");
	if (glob_list_bad(pat, &n))
		return shell_usage("hist", "invalid glob");
	if (trace_console_refuses())
		return 1;
	err = trace_hist(true, pat, &chosen);
	if (err == TRACE_EINVAL) {
		kprintf("hist: the globs choose %u functions; a histogram needs 1 to %u\n",
			chosen, HIST_FUNCS_MAX);
		return 1;
	}
	if (err)
		return shell_usage("hist", err == TRACE_ENOMEM ? "out of memory" :
				   "the patcher refused");
	kprintf("hist: on, %u function%s\n", chosen, chosen == 1 ? "" : "s");
	return 0;
}

static int cmd_hist(int argc, char **argv)
{
	if (argc == 1) {
		const struct hist_ev_spec *sp;

		if (hist_started() || !hist_ev_specs(&sp))	/* or "not started" */
			hist_print();
		hist_ev_print();
		return 0;
	}
	if (!strcmp(argv[1], "on"))
		return hist_on(argc, argv);
	if (argc == 2 && !strcmp(argv[1], "off"))
		return trace_hist(false, NULL, NULL) || trace_hist_events(false, NULL) ?
		       shell_usage("hist", "the patcher refused") : 0;
	if (argc == 2 && !strcmp(argv[1], "send")) {
		hist_send();
		hist_ev_send();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "clear")) {
		hist_clear();
		hist_ev_clear();
		return 0;
	}
	return shell_usage("hist", "on FUNC [GLOB...], on SYSTEM:EVENT:FIELD[:keys=KEY], off, send, "
			   "clear, or nothing to show");
}
SHELL_CMD(hist, cmd_hist, "[on FUNC [GLOB...]|on SYS:EVENT:FIELD[:keys=KEY]|off|send|clear]",
	  "log2 histograms of function durations or of a tracepoint field, per CPU");
