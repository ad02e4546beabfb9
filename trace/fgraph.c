/* trace/fgraph.c: the shadow stacks (see fgraph.h). */
#include <stdint.h>

#include "barrier.h"
#include "exception.h"
#include "config.h"
#include "fgraph.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"

struct fgraph_stack fgraph_stacks[NR_CPUS];
volatile bool fgraph_stopped;

static void __attribute__((noinline, cold)) stop(const char *why, unsigned int site)
{
	if (!fgraph_stopped) {
		fgraph_stopped = true;
		kprintf("trace: return hooks stopped on CPU %u: %s (%s); "
			"restart the tracer to resume\n", cpu_id(), why,
			trace_site_name(site) ? trace_site_name(site) : "?");
	}
}

void fgraph_init(void)
{
	for (unsigned int c = 0; c < NR_CPUS; c++)
		cpu_data(c)->fgraph = &fgraph_stacks[c];
}

struct fgraph_frame *fgraph_push(struct fgraph_stack *st, struct trace_regs *regs,
				 unsigned int site, enum fgraph_owner owner, uint64_t now)
{
	if (fgraph_stopped)
		return NULL;
	if (st->top == FGRAPH_DEPTH) {
		stop("shadow stack full", site);
		return NULL;
	}
	struct fgraph_frame *f = &st->frames[st->top++];

	f->ret = regs->lr;
	f->fp = regs->fp;
	f->ts = now;
	f->site = site;
	f->owner = (uint8_t)owner;
	f->flags = 0;
	regs->lr = (uintptr_t)fgraph_return;
	return f;
}

static void __attribute__((noinline, cold, noreturn)) empty_stack(void)
{
	panic("trace: return hook with an empty shadow stack");
}

uint64_t fgraph_exit(uint64_t fp, uint64_t retval)
{
	unsigned long flags = irq_save();
	struct fgraph_stack *st = this_cpu()->fgraph;
	uint64_t now = counter_read();

	if (__builtin_expect(!st->top, 0))	/* only a corrupted stack */
		empty_stack();
	struct fgraph_frame *f = &st->frames[--st->top];
	uint64_t ret = f->ret;

	/* The owner's bookkeeping runs either way, so its depth counters
	 * stay right while the frames still pushed unwind. */
	if (__builtin_expect(f->fp != fp, 0))
		stop("frame pointer mismatch at return", f->site);
	if (f->owner == FGRAPH_GRAPH)
		graph_exit(st, f, now, retval);
	else
		profile_exit(st, f, now);
	irq_restore(flags);
	return ret;
}

uint64_t fgraph_real_return(unsigned int cpu, unsigned int n)
{
	const struct fgraph_stack *st = &fgraph_stacks[cpu];

	return n < st->top ? st->frames[st->top - 1 - n].ret : 0;
}

void fgraph_reset(void)
{
	fgraph_stopped = false;
}

uint64_t fgraph_translate(uint64_t ret, unsigned int *hooked)
{
	/* A frame hooked by two tracers (graph and profiler) has two shadow
	 * frames: the inner one's return is fgraph_return itself. */
	while (ret == (uintptr_t)fgraph_return) {
		uint64_t real = fgraph_real_return(cpu_id(), (*hooked)++);

		if (!real)
			break;
		ret = real;
	}
	return ret;
}
