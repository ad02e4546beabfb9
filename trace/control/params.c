/*
 * trace/control/params.c: the boot arguments of tracing. The setters only check
 * and keep the values (they run before the heap and the other CPUs
 * exist); trace_boot_start() applies them through the control layer
 * after smp_init, so a CI job traces from the first instruction of main.
 *
 * A trace setting that is not applied (refused, unknown, or cut off a
 * line too long) ends the run before main() with status 2 ("refused"):
 * a run that goes on without it would trace something else than asked
 * (every function, for a refused filter) and look like a good one.
 *
 *   trace=function|function_graph|profile|coverage|nop  what starts before main()
 *   trace_filter= trace_notrace=    its functions (globs)
 *   trace_graph_function=           graph only beneath these
 *   trace_max_depth= trace_threshold=US trace_retval=1
 *   trace_profile=GLOBS             start the profiler on these
 *   trace_coverage=GLOBS            function coverage on these, beside trace=
 *   trace_hist=FUNC[,GLOB...]       duration histograms of these, beside trace=
 *   trace_buf=64K (default: 1/16 of RAM over the CPUs) trace_mode=overwrite|stop
 *   trace_pace=BAUD
 *   trace_cpumask=0x3 trace_context=thread|irq|all
 *   trace_trigger=func:action[:count],...  trace_args=func:N,...
 */
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "events/tracepoint.h"
#include "output/export.h"
#include "base/glob.h"
#include "kprintf.h"
#include "power.h"
#include "ring/ring.h"
#include "tracers/coverage.h"
#include "events/hist_ev.h"
#include "tracers/hist.h"
#include "tracers/tracer.h"
#include "control.h"

static const char *p_tracer, *p_filter = "", *p_notrace = "", *p_graph = "";
static const char *p_profile, *p_coverage, *p_hist, *p_context, *p_trigger, *p_args;
static unsigned long p_depth, p_threshold, p_retval, p_pace, p_cpumask;
static unsigned long p_buf;	/* 0: trace_default_buffer() */
static int p_stop_mode;

/* Setters check the whole value before storing it: a refused value
 * leaves an earlier accepted one ("trace_buf=8K trace_buf=1K") in force. */
static int set_str(const char **slot, const char *v)
{
	*slot = v;
	return 0;
}

/* Pattern lists: well formed and short enough for the control layer.
 * The bad pattern is named here; bootargs.c then says "not applied". */
static int set_globs(const char **slot, const char *v)
{
	const char *bad;
	size_t n;

	if ((n = strlen(v)) >= TRACE_PATTERN_MAX) {
		kprintf("trace: a glob list of %lu characters is too long (at most %d)\n",
			(unsigned long)n, TRACE_PATTERN_MAX - 1);
		return -1;
	}
	if ((bad = glob_list_bad(v, &n))) {
		char shown[TRACE_PATTERN_MAX];

		memcpy(shown, bad, n);
		shown[n] = '\0';
		kprintf("trace: invalid glob '%s' (an unclosed '[', a bare '!' or '@', or a trailing '\\')\n",
			shown);
		return -1;
	}
	return set_str(slot, v);
}

static int set_num(unsigned long *slot, const char *v, unsigned long min, unsigned long max)
{
	unsigned long n;

	if (bootargs_parse_ulong(v, &n) || n < min || n > max)
		return -1;
	*slot = n;
	return 0;
}

/* A mistyped name is named with the nearest tracer (tracer_names.c);
 * bootargs.c then says "not applied". */
static int param_trace(const char *v)
{
	if (!trace_tracer_known(v, false)) {
		const char *near = trace_tracer_nearest(v, false);
		char list[80];

		trace_tracer_list(list, sizeof(list), false);
		if (near)
			kprintf("trace: no such tracer '%s' (did you mean '%s'?)\n", v, near);
		else
			kprintf("trace: no such tracer '%s' (tracers: %s)\n", v, list);
		return -1;
	}
	return set_str(&p_tracer, v);
}
KERNEL_PARAM("trace", param_trace,
	     "the tracer to start at boot; the line above names the tracers");

static int param_filter(const char *v) { return set_globs(&p_filter, v); }
KERNEL_PARAM("trace_filter", param_filter, "functions to trace (globs, at most 1023 characters)");
static int param_notrace(const char *v) { return set_globs(&p_notrace, v); }
KERNEL_PARAM("trace_notrace", param_notrace, "functions not to trace (globs, at most 1023 characters)");
static int param_graph(const char *v) { return set_globs(&p_graph, v); }
KERNEL_PARAM("trace_graph_function", param_graph, "graph only beneath these (globs, at most 1023 characters)");
static int param_profile(const char *v) { return set_globs(&p_profile, v); }
KERNEL_PARAM("trace_profile", param_profile, "start the profiler on these (globs, at most 1023 characters)");
static int param_coverage(const char *v) { return set_globs(&p_coverage, v); }
KERNEL_PARAM("trace_coverage", param_coverage,
	     "function coverage on these (globs, '*' for all) beside the tracer of trace=");
static int param_hist(const char *v) { return set_globs(&p_hist, v); }
KERNEL_PARAM("trace_hist", param_hist,
	     "log2 histograms of these functions' durations (1 to 32 functions), beside trace=;"
	     " or of tracepoint fields: SYSTEM:EVENT:FIELD[:keys=KEY],... (1 to 4)");
static int param_trigger(const char *v) { return set_str(&p_trigger, v); }
KERNEL_PARAM("trace_trigger", param_trigger, "func:action[:count],... (see 'trigger')");
static int param_args(const char *v) { return set_str(&p_args, v); }
KERNEL_PARAM("trace_args", param_args, "func:N[:sRR],... record N argument registers (and strings)");

static int param_context(const char *v)
{
	if (strcmp(v, "thread") && strcmp(v, "irq") && strcmp(v, "all"))
		return -1;
	return set_str(&p_context, v);
}
KERNEL_PARAM("trace_context", param_context, "trace thread, irq or all contexts");

static int param_depth(const char *v) { return set_num(&p_depth, v, 0, 1000); }
KERNEL_PARAM("trace_max_depth", param_depth, "function_graph depth limit (0 = none)");
static int param_threshold(const char *v) { return set_num(&p_threshold, v, 0, 60000000); }
KERNEL_PARAM("trace_threshold", param_threshold, "function_graph: only calls of at least N us");
static int param_retval(const char *v) { return set_num(&p_retval, v, 0, 1); }
KERNEL_PARAM("trace_retval", param_retval, "function_graph: record return values (0/1)");
static int param_pace(const char *v) { return set_num(&p_pace, v, 0, 100000000); }
KERNEL_PARAM("trace_pace", param_pace, "export at most this many baud (0 = as fast as possible)");
static int param_cpumask(const char *v) { return set_num(&p_cpumask, v, 1, ~0UL); }
KERNEL_PARAM("trace_cpumask", param_cpumask, "trace only these CPUs (bit mask, not 0)");

static int param_buf(const char *v)
{
	return set_num(&p_buf, v, RING_MIN_BLOCKS * RING_BLOCK_SIZE, RING_MAX_BYTES);
}
KERNEL_PARAM("trace_buf", param_buf, "ring buffer bytes per CPU (2K-64M; default 1/16 of RAM over the CPUs)");

static int param_mode(const char *v)
{
	if (!strcmp(v, "overwrite") || !strcmp(v, "stop")) {
		p_stop_mode = !strcmp(v, "stop");
		return 0;
	}
	return -1;
}
KERNEL_PARAM("trace_mode", param_mode, "when full: overwrite (newest) or stop (oldest)");

/* The names of the trace settings not applied, for the last line before
 * the run ends ("trace_filter, trace_buf"). */
static char refused[160];

static void refuse(const char *word)
{
	size_t have = strlen(refused), n = 0;

	while (*word == '"')
		word++;
	while (word[n] && word[n] != '=' && word[n] != ' ' && word[n] != '"')
		n++;
	if (have + n + 3 >= sizeof(refused))
		return;		/* the console lines above name them all */
	if (have) {
		strcpy(refused + have, ", ");
		have += 2;
	}
	memcpy(refused + have, word, n);
	refused[have + n] = '\0';
}

/* "trace", "trace=..." and "trace_*" (quoted or not) are trace settings. */
static bool is_trace_word(const char *w)
{
	while (*w == '"')
		w++;
	return !strncmp(w, "trace", 5) &&
	       (!w[5] || w[5] == '=' || w[5] == '_' || w[5] == ' ' || w[5] == '"');
}

/* The kernel named each word it did not apply and why (bootargs.c). */
static void refuse_not_applied(void)
{
	const char *w = bootargs_not_applied(0), *p = bootargs_left_out();

	for (int i = 1; w; w = bootargs_not_applied(i++))
		if (is_trace_word(w))
			refuse(w);
	while (p && *p) {		/* whole words, as bootargs_split took them */
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (p[0] == '-' && p[1] == '-' && (!p[2] || p[2] == ' ' || p[2] == '\t'))
			break;		/* the application's words from here on */
		if (*p && is_trace_word(p))
			refuse(p);
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			p++;
	}
}

static const char *why(int err)
{
	return err == TRACE_EINVAL ? "invalid" : err == TRACE_EBUSY ? "busy" :
	       err == TRACE_ENOMEM ? "out of memory" : "the patcher refused";
}

static void check(int err, const char *what, const char *value)
{
	if (!err)
		return;
	kprintf("trace: %s '%s' refused (%s); not applied\n", what, value, why(err));
	refuse(what);
}

static void check_num(int err, const char *what, unsigned long value)
{
	char v[24];

	ksnprintf(v, sizeof(v), "%lu", value);
	check(err, what, v);
}

/* Every setting but the start of the tracer, checked and applied in the
 * order each depends on (the buffer before anything records). */
static void apply_options(void)
{
	export_set_pace((uint32_t)p_pace);
	if (!p_buf)
		p_buf = trace_default_buffer();
	check_num(trace_set_buffer(p_buf, p_stop_mode), "trace_buf", p_buf);
	if (p_cpumask) {
		char v[24];

		ksnprintf(v, sizeof(v), "0x%lx", p_cpumask);
		check(trace_set_cpumask(p_cpumask), "trace_cpumask", v);
	}
	if (p_context)
		check(trace_set_context(p_context), "trace_context", p_context);
	check_num(trace_set_max_depth((unsigned int)p_depth), "trace_max_depth", p_depth);
	check_num(trace_set_threshold_us(p_threshold), "trace_threshold", p_threshold);
	trace_set_retval(p_retval);
	check(trace_set_graph_function(p_graph), "trace_graph_function", p_graph);
	if (*p_graph)
		trace_warn_unmatched("trace: trace_graph_function", p_graph);
	if (p_trigger)
		check(trace_set_triggers(p_trigger), "trace_trigger", p_trigger);
	if (p_args)
		check(trace_set_args(p_args), "trace_args", p_args);
	if (p_tracer && !strcmp(p_tracer, "profile")) {
		/* Its functions are trace_filter's, as for the other tracers. */
		if (p_profile) {
			kprintf("trace: trace=profile profiles trace_filter's functions; "
				"trace_profile= is the profiler beside another tracer\n");
			refuse("trace_profile");
		}
		p_profile = p_filter;
		check(trace_profile_notrace(p_notrace), "trace_notrace", p_notrace);
	} else if (p_tracer && !strcmp(p_tracer, "coverage")) {
		if (p_coverage) {
			kprintf("trace: trace=coverage covers trace_filter's functions; "
				"trace_coverage= is coverage beside another tracer\n");
			refuse("trace_coverage");
		}
		check(trace_coverage_notrace(p_notrace), "trace_notrace", p_notrace);
	} else if (p_tracer) {
		check(trace_set_tracer(p_tracer), "trace", p_tracer);
		check(trace_set_filter(p_filter), "trace_filter", p_filter);
		check(trace_set_notrace(p_notrace), "trace_notrace", p_notrace);
	}
}

static void start_profiler(bool alone)
{
	check(trace_profile(true, p_profile), alone ? "trace" : "trace_profile",
	      alone ? "profile" : p_profile);
	trace_warn_unmatched(alone ? "trace: filter" : "trace: trace_profile", p_profile);
	if (trace_profiling())
		kprintf("trace: profiler on %u functions\n", trace_profile_functions());
}

static void start_tracer(void)
{
	if (!strcmp(p_tracer, "nop")) {
		/* Chosen, not started: nop records nothing (and says so). */
		if (!p_profile)
			kprintf("trace: nop tracer: no function is traced\n");
		return;
	}
	trace_warn_unmatched("trace: filter", p_filter);
	trace_warn_unmatched("trace: notrace", p_notrace);
	int err = trace_start();

	check(err, "trace", p_tracer);
	if (!err) {
		char cpus[32] = "";

		if (p_cpumask)
			ksnprintf(cpus, sizeof(cpus), ", CPUs 0x%lx", p_cpumask);
		kprintf("trace: %s tracer on, %lu KiB per CPU, %s mode%s\n", p_tracer,
			(unsigned long)ring_bytes() / 1024, p_stop_mode ? "stop" : "overwrite", cpus);
	}
}

/* trace=coverage: trace_filter's functions, beside nothing else;
 * trace_coverage=: its own globs, beside the tracer and the profiler
 * (each ops keeps its own want on a site they share). */
static void start_coverage(bool alone)
{
	const char *globs = alone ? p_filter : p_coverage;

	trace_warn_unmatched(alone ? "trace: filter" : "trace: trace_coverage", globs);
	check(trace_coverage(true, globs), alone ? "trace" : "trace_coverage",
	      alone ? "coverage" : globs);
	if (trace_covering())
		kprintf("trace: coverage on %u functions\n",
			trace_wanted_sites(&tracer_coverage_ops));
}

/* trace_hist=: its own globs, beside every other tracer. */
static void start_hist(void)
{
	unsigned int n;

	if (p_hist[strcspn(p_hist, ":")]) {	/* SYSTEM:EVENT:FIELD[:keys=KEY],...; no strchr (SIMD) */
		check(trace_hist_events(true, p_hist), "trace_hist", p_hist);
		if (hist_ev_on())
			kprintf("trace: hist on %s\n", p_hist);
		return;
	}
	int err = trace_hist(true, p_hist, &n);

	trace_warn_unmatched("trace: trace_hist", p_hist);
	if (err == TRACE_EINVAL)
		kprintf("trace: trace_hist chooses %u functions; a histogram needs 1 to %u\n",
			n, HIST_FUNCS_MAX);
	check(err, "trace_hist", p_hist);
	if (!err)
		kprintf("trace: hist on %u function%s\n", n, n == 1 ? "" : "s");
}

void trace_boot_start(void)
{
	bool profile_alone = p_tracer && !strcmp(p_tracer, "profile");
	bool coverage = p_tracer && !strcmp(p_tracer, "coverage");

	refuse_not_applied();
	if (!*refused)
		apply_options();
	if (!*refused && p_profile)
		start_profiler(profile_alone);
	if (!*refused && tp_boot_start())	/* trace_event= (trace/events/tp_record.c) */
		refuse("trace_event");
	if (!*refused && trace_probe_boot_start())	/* trace_probe= (probe_ctl.c) */
		refuse("trace_probe");
	if (!*refused && (coverage || p_coverage))
		start_coverage(coverage);
	if (!*refused && p_hist)
		start_hist();
	if (!*refused && p_tracer && !profile_alone && !coverage)
		start_tracer();
	if (!*refused)
		return;
	/* The capture gets the metadata first, so the run reads as one that
	 * ended (with its status), not as a broken stream. */
	kprintf("trace: not applied: %s (see above); the run ends before main()\n", refused);
	trace_export_ready();
	power_end(RUN_REFUSED, 2);
}
