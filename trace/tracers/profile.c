/*
 * trace/tracers/profile.c: the function profiler: per function and per CPU, hit
 * count and total, minimum and maximum time, kept in place (no ring
 * buffer), through the return hooks of fgraph.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "fgraph.h"
#include "ktime.h"
#include "percpu.h"
#include "profile.h"
#include "tracer.h"

/* stats[cpu][site]: written only by that CPU, with interrupts masked;
 * read by the console and the dump while the profiler may still run
 * (a row can be a hit behind). */
static struct profile_stat *stats[NR_CPUS];

static void profile_entry(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			  struct trace_regs *regs)
{
	struct percpu *pc = this_cpu();

	(void)parent;
	(void)ops;
	if (trace_filtered && !((trace_cpumask >> pc->cpu) & 1))
		return;
	fgraph_push(pc->fgraph, regs, trace_site_fast(ip), FGRAPH_PROFILE, counter_read());
}

void profile_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now)
{
	struct profile_stat *s = this_cpu()->profile;
	uint64_t d = now - f->ts;

	(void)st;
	if (!s)
		return;
	s += f->site;
	s->calls++;
	s->total += d;
	if (d < s->min)		/* min starts at the largest value */
		s->min = d;
	if (d > s->max)
		s->max = d;
}

extern char trace_rec_profile[];

/* Alone on a site, without a CPU filter, the site calls trace_rec_profile
 * (the same frame, in assembly; fgraph_return's fast path updates the
 * row as profile_exit does). */
struct trace_ops tracer_profile_ops = {
	.func = profile_entry, .direct_call = (uintptr_t)trace_rec_profile,
	.flags = TRACE_OPS_NO_FPSIMD | TRACE_OPS_ENTRY
};

int profile_alloc(void)
{
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		if (!stats[c])
			stats[c] = calloc(trace_site_count() + 1, sizeof(struct profile_stat));
		if (!stats[c])
			return -1;
		cpu_data(c)->profile = stats[c];
	}
	profile_reset();
	return 0;
}

void profile_reset(void)
{
	for (unsigned int c = 0; c < NR_CPUS; c++)
		for (unsigned int i = 0; stats[c] && i <= trace_site_count(); i++)
			stats[c][i] = (struct profile_stat){ .min = UINT64_MAX };
}

const struct profile_stat *profile_of(unsigned int cpu)
{
	return cpu < NR_CPUS ? stats[cpu] : NULL;
}
