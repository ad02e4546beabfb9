/*
 * trace/control/commands_tracer.c: console commands that choose and steer the
 * tracers. They call the control layer (control.c), as boot arguments
 * and C code do; each checks its whole line first and changes nothing
 * when it refuses.
 */
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "base/glob.h"
#include "kprintf.h"
#include "tracers/profile.h"
#include "shell.h"
#include "tracers/tracer.h"
#include "tracers/trigger.h"
#include "output/output.h"
#include "control.h"

/* The words after the command joined by spaces (pattern lists). */
static const char *rest(int argc, char **argv, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 1; i < argc; i++) {
		size_t l = strlen(argv[i]);

		if (n + l + 2 > cap)
			return NULL;
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, argv[i], l + 1);
		n += l;
	}
	return buf;
}

static int result(const char *cmd, int err, const char *what)
{
	if (!err)
		return 0;
	if (err == TRACE_ENOCAPTURE)
		return 1;	/* trace_console_refuses said why */
	return shell_usage(cmd, err == TRACE_EINVAL ? what :
			   err == TRACE_EBUSY ? "not while the graph tracer runs (stop first)" :
			   err == TRACE_ENOMEM ? "out of memory" : "the patcher refused");
}

static int cmd_tracer(int argc, char **argv)
{
	if (argc == 1) {
		kprintf("tracer: %s (%s)\n", trace_tracer_name(), trace_active() ? "on" : "off");
		return 0;
	}
	if (argc != 2)
		return shell_usage("tracer", "one tracer name");
	if (!trace_tracer_known(argv[1], true)) {
		const char *near = trace_tracer_nearest(argv[1], true);
		char why[160], list[64];

		trace_tracer_list(list, sizeof(list), true);
		if (near)
			ksnprintf(why, sizeof(why), "no such tracer '%s' (did you mean '%s'?)",
				  argv[1], near);
		else
			ksnprintf(why, sizeof(why), "no such tracer '%s' (tracers: %s)", argv[1], list);
		return shell_usage("tracer", why);
	}
	return result("tracer", trace_set_tracer(argv[1]), "no such tracer");
}
SHELL_CMD(tracer, cmd_tracer, "[function|function_graph|nop]", "show or choose the tracer");

/* A pattern list is checked here, whatever the tracer state (the
 * control layer compiles it only once a tracer is chosen). */
static int check_patterns(const char *name, const char *pat)
{
	char why[128];
	const char *bad;
	size_t n;

	if (!pat || strlen(pat) >= TRACE_PATTERN_MAX) {
		ksnprintf(why, sizeof(why), "too long, max %d characters", TRACE_PATTERN_MAX - 1);
		return shell_usage(name, why);
	}
	if ((bad = glob_list_bad(pat, &n))) {
		char shown[TRACE_PATTERN_MAX];

		memcpy(shown, bad, n);
		shown[n] = '\0';
		ksnprintf(why, sizeof(why), "invalid glob '%s' (an unclosed '[', a bare '!' "
			  "or '@', or a trailing '\\')", shown);
		return shell_usage(name, why);
	}
	return 0;
}

static int pattern_cmd(const char *name, int argc, char **argv,
		       int (*set)(const char *))
{
	char buf[SHELL_LINE_MAX], what[32];
	const char *pat = rest(argc, argv, buf, sizeof(buf));
	int err;

	if (check_patterns(name, pat))
		return 1;
	if ((err = result(name, set(pat), "invalid glob")))
		return err;
	ksnprintf(what, sizeof(what), "%s:", name);
	trace_warn_unmatched(what, pat);	/* accepted, but likely a typo */
	return 0;
}

static int cmd_filter(int argc, char **argv)
{
	if (argc == 1) {
		kprintf("filter: %s\n", *trace_get_filter() ? trace_get_filter() : "(every function)");
		return 0;
	}
	return pattern_cmd("filter", argc, argv, trace_set_filter);
}
SHELL_CMD(filter, cmd_filter, "[GLOB...]", "functions the tracer records ('' = all)");

static int cmd_notrace(int argc, char **argv)
{
	return pattern_cmd("notrace", argc, argv, trace_set_notrace);
}
SHELL_CMD(notrace, cmd_notrace, "[GLOB...]", "functions the tracer leaves alone");

static int cmd_graph_function(int argc, char **argv)
{
	return pattern_cmd("graph_function", argc, argv, trace_set_graph_function);
}
SHELL_CMD(graph_function, cmd_graph_function, "[GLOB...]", "function_graph only beneath these");

static int number_cmd(const char *name, int argc, char **argv, unsigned long max,
		      unsigned long *out)
{
	if (argc != 2 || bootargs_parse_ulong(argv[1], out) || *out > max) {
		char why[64];

		ksnprintf(why, sizeof(why), "one number from 0 to %lu", max);
		return shell_usage(name, why);
	}
	return 0;
}

static int cmd_max_depth(int argc, char **argv)
{
	unsigned long v;

	if (number_cmd("max_depth", argc, argv, 1000, &v))
		return 1;
	return result("max_depth", trace_set_max_depth((unsigned int)v), "");
}
SHELL_CMD(max_depth, cmd_max_depth, "N", "function_graph depth limit (0 = none)");

static int cmd_threshold(int argc, char **argv)
{
	unsigned long v;

	if (number_cmd("threshold", argc, argv, 60000000, &v))
		return 1;
	return result("threshold", trace_set_threshold_us(v), "");
}
SHELL_CMD(threshold, cmd_threshold, "US", "function_graph: only calls of at least US microseconds");

static int cmd_cpumask(int argc, char **argv)
{
	unsigned long v;

	if (number_cmd("cpumask", argc, argv, ~0UL, &v))
		return 1;
	return result("cpumask", trace_set_cpumask(v), "the mask names no online CPU");
}
SHELL_CMD(cpumask, cmd_cpumask, "MASK", "trace only these CPUs (0x5 = CPUs 0 and 2)");

static int cmd_context(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage("context", "one of thread, irq, all");
	return result("context", trace_set_context(argv[1]), "one of thread, irq, all");
}
SHELL_CMD(context, cmd_context, "thread|irq|all", "trace only these contexts");

static int simple(const char *name, int argc, int (*fn)(void), const char *fail)
{
	if (argc != 1)
		return shell_usage(name, "takes no arguments");
	return result(name, fn(), fail);
}

static int cmd_start(int argc, char **argv)
{
	(void)argv;
	return simple("start", argc, trace_start, "no tracer chosen (see 'tracer')");
}
SHELL_CMD(start, cmd_start, "", "start the chosen tracer");

static int cmd_stop(int argc, char **argv)
{
	(void)argv;
	return simple("stop", argc, trace_stop, "");
}
SHELL_CMD(stop, cmd_stop, "", "stop it (the buffers keep what they have)");

static int cmd_clear(int argc, char **argv)
{
	(void)argv;
	return simple("clear", argc, trace_clear, "");
}
SHELL_CMD(clear, cmd_clear, "", "empty the ring buffers");

static int cmd_snapshot(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "show")) {
		snapshot_show();
		return 0;
	}
	if (argc != 1)
		return shell_usage("snapshot", "'snapshot' takes one now, 'snapshot show' prints it");
	return result("snapshot", trace_snapshot(), "nothing is being traced");
}
SHELL_CMD(snapshot, cmd_snapshot, "[show]", "copy the buffers aside, or print the copy");

static int cmd_trigger(int argc, char **argv)
{
	char buf[SHELL_LINE_MAX];

	if (argc == 1) {
		trigger_list();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "clear"))
		return result("trigger", trace_set_triggers(""), "");
	return result("trigger", trace_set_triggers(rest(argc, argv, buf, sizeof(buf)) ?: "?"),
		      "FUNC:traceon|traceoff|snapshot|stacktrace|dump[:COUNT], "
		      "FUNC must name a function");
}
SHELL_CMD(trigger, cmd_trigger, "[FUNC:ACTION[:COUNT]...|clear]", "actions on a function's hits");

static int cmd_args(int argc, char **argv)
{
	char buf[SHELL_LINE_MAX];

	if (argc == 1) {
		args_list();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "clear"))
		return result("args", trace_set_args(""), "");
	return result("args", trace_set_args(rest(argc, argv, buf, sizeof(buf)) ?: "?"),
		      "FUNC:N with N from 1 to 8, FUNC must name a function; "
		      "FUNC:N:sRR also records the strings registers RR (each below N) point to");
}
SHELL_CMD(args, cmd_args, "[FUNC:N[:sRR]...|clear]", "record N argument registers of FUNC");

static int cmd_profile(int argc, char **argv)
{
	char buf[SHELL_LINE_MAX];

	if (argc == 1) {
		profile_print(40);
		return 0;
	}
	if (!strcmp(argv[1], "on")) {
		const char *pat = rest(argc - 1, argv + 1, buf, sizeof(buf));
		int err;

		if (trace_profiling())
			return shell_usage("profile", "already on ('profile off' first)");
		if (check_patterns("profile", pat) || trace_console_refuses())
			return 1;
		if ((err = result("profile", trace_profile(true, pat), "invalid glob")))
			return err;
		trace_warn_unmatched("profile:", pat);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "off"))
		return result("profile", trace_profile(false, NULL), "");
	if (argc == 2 && !strcmp(argv[1], "send")) {
		profile_send();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "reset")) {
		profile_reset();
		return 0;
	}
	return shell_usage("profile", "on [GLOB...], off, send, reset, or nothing to show");
}
SHELL_CMD(profile, cmd_profile, "[on [GLOB...]|off|send|reset]", "the function profiler");

static int cmd_funcs(int argc, char **argv)
{
	unsigned int shown = 0;
	size_t bad_len;

	if (argc != 2 || *argv[1] == '!' || glob_list_bad(argv[1], &bad_len))
		return shell_usage("funcs", "one valid glob, or @FOLDER");
	for (unsigned int i = 0; i < trace_site_count(); i++)
		if (trace_site_selected(i, argv[1], strlen(argv[1]))) {
			kprintf("%s\n", trace_site_name(i));
			shown++;
		}
	kprintf("# %u of %u traceable functions\n", shown, trace_site_count());
	return 0;
}
SHELL_CMD(funcs, cmd_funcs, "GLOB|@FOLDER", "list traceable functions (@app: the application's)");
