/*
 * trace/control/options.c: the tracers' options: which CPUs and contexts
 * they record, and the function_graph tracer's entry functions, depth,
 * duration threshold and return values. Thread context; the graph
 * options change only while that tracer is stopped, so tracers read
 * them without locks (control.c).
 */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "core/core.h"
#include "base/glob.h"
#include "ktime.h"
#include "smp.h"
#include "tracers/tracer.h"
#include "control.h"

static char graph_pat[TRACE_PATTERN_MAX];

static int copy_pattern(char *dst, const char *src)
{
	if (strlen(src) >= TRACE_PATTERN_MAX)
		return TRACE_EINVAL;
	strcpy(dst, src);
	return 0;
}

/* The function tracer pays for CPU and context filters only when set. */
/* Sets or clears ops' TRACE_OPS_ENTRY, re-patching its sites if it runs. */
static int set_entry(struct trace_ops *ops, bool on)
{
	uint32_t flags = ops->flags;
	uint32_t want = on ? flags | TRACE_OPS_ENTRY : flags & ~TRACE_OPS_ENTRY;

	if (want == flags)
		return 0;
	WRITE_ONCE(ops->flags, want);
	return ops->registered ? trace_sites_update() : 0;
}

int trace_pick_function_callback(void)
{
	trace_filtered = trace_cpumask != ~0ULL || trace_context != TRACE_CTX_ALL;
	tracer_function_ops.func = trace_filtered ? tracer_function_filtered :
						    tracer_function_fast;
	/* The recorders in assembly know no filter and no graph option:
	 * with one set, sites call the C callbacks through the trampoline. */
	bool graph_plain = !trace_filtered && !graph_opts.graph_funcs && !graph_opts.max_depth &&
			   !graph_opts.threshold && !graph_opts.retval;
	int err = set_entry(&tracer_function_ops, !trace_filtered);

	if (!err)
		err = set_entry(&tracer_graph_ops, graph_plain);
	if (!err)
		err = set_entry(&tracer_profile_ops, !trace_filtered);
	return err;
}

int trace_set_graph_function(const char *globs)
{
	struct trace_ops probe = { .func = trace_nop_ops.func };
	int err;

	if (trace_graph_running())
		return TRACE_EBUSY;
	if (!*globs) {
		free(graph_opts.graph_funcs);
		graph_opts.graph_funcs = NULL;
		graph_pat[0] = '\0';
		return 0;
	}
	if ((err = copy_pattern(graph_pat, globs)) ||
	    (err = trace_ops_set_filter(&probe, globs)))
		return err;
	free(graph_opts.graph_funcs);
	graph_opts.graph_funcs = probe.filter_bits;	/* the compiled bitmap */
	return 0;
}

int trace_set_max_depth(unsigned int depth)
{
	if (trace_graph_running())
		return TRACE_EBUSY;
	graph_opts.max_depth = depth;
	return 0;
}

int trace_set_threshold_us(uint64_t us)
{
	if (trace_graph_running())
		return TRACE_EBUSY;
	if (us > 60ULL * 1000000)
		return TRACE_EINVAL;
	graph_opts.threshold = us * time_counter_hz() / 1000000;
	return 0;
}

int trace_set_retval(bool on)
{
	graph_opts.retval = on;
	return trace_pick_function_callback();	/* the recorder has no return value */
}

int trace_set_cpumask(uint64_t mask)
{
	uint64_t online = smp_num_cpus() >= 64 ? ~0ULL : (1ULL << smp_num_cpus()) - 1;

	if (!(mask & online))
		return TRACE_EINVAL;
	trace_cpumask = mask == online ? ~0ULL : mask;
	return trace_pick_function_callback();
}

int trace_set_context(const char *ctx)
{
	unsigned int c = !strcmp(ctx, "thread") ? TRACE_CTX_THREAD :
			 !strcmp(ctx, "irq") ? TRACE_CTX_IRQ :
			 !strcmp(ctx, "all") ? TRACE_CTX_ALL : 0;

	if (!c)
		return TRACE_EINVAL;
	trace_context = c;
	return trace_pick_function_callback();
}
