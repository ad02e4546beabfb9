/* trace/tracers/fgraph.c: the shadow stacks (see fgraph.h). */
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
volatile uint64_t fgraph_unwound;	/* atomic adds; read by tests */

static void __attribute__((noinline, cold)) stop(const char *why, unsigned int site)
{
	if (!fgraph_stopped) {
		fgraph_stopped = true;
		for (unsigned int c = 0; c < NR_CPUS; c++)
			fgraph_stacks[c].stopped = 1;
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

/* The owner's bookkeeping for a frame just popped. */
static void frame_done(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now,
		       uint64_t retval, bool returned)
{
	if (f->owner == FGRAPH_GRAPH)
		graph_exit(st, f, now, retval, returned);
	else if (f->owner == FGRAPH_HIST)
		hist_exit(st, f, now, returned);
	else if (f->owner == FGRAPH_RETPROBE)
		retprobe_exit(f, retval, f->sp, returned);
	else
		profile_exit(st, f, now);
}

void fgraph_unwind(struct fgraph_stack *st, uint64_t sp, bool at_entry, uint64_t now)
{
	/* Live frames all belong to calls above 'sp' (the stack grows down,
	 * interrupt handlers run below what they interrupted): one below
	 * it, or at it when a new call is entered there, was left without
	 * returning. */
	while (st->top && (st->frames[st->top - 1].sp < sp ||
			   (at_entry && st->frames[st->top - 1].sp == sp))) {
		struct fgraph_frame *f = &st->frames[--st->top];
		struct fgraph_dropped *d = &st->dropped[st->ndropped++ % FGRAPH_DROPPED];

		d->ret = f->ret;
		d->fp = f->fp;
		d->sp = f->sp;
		d->site = f->site;
		frame_done(st, f, now, 0, false);
		__atomic_fetch_add(&fgraph_unwound, 1, __ATOMIC_RELAXED);
	}
}

static inline struct fgraph_frame *push_frame(struct fgraph_stack *st, struct trace_regs *regs,
					      unsigned int site, enum fgraph_owner owner,
					      uint64_t now)
{
	if (fgraph_stopped)
		return NULL;
	if (st->top == FGRAPH_DEPTH) {
		stop("shadow stack full", site);
		return NULL;
	}
	struct fgraph_frame *f = &st->frames[st->top++];

	f->ret = regs->lr;	/* key: only graph_entry reads or sets it */
	f->fp = regs->fp;
	f->sp = regs->sp;
	f->ts = now;
	f->site = site;
	f->owner = (uint8_t)owner;
	f->flags = 0;
	regs->lr = (uintptr_t)fgraph_return;
	return f;
}

/* Out of line, so the common path keeps no frame of its own. */
static struct fgraph_frame *__attribute__((noinline, cold))
push_after_unwind(struct fgraph_stack *st, struct trace_regs *regs, unsigned int site,
		  enum fgraph_owner owner, uint64_t now)
{
	fgraph_unwind(st, regs->sp, !fgraph_is_hook(regs->lr), now);
	return push_frame(st, regs, site, owner, now);
}

struct fgraph_frame *fgraph_push(struct fgraph_stack *st, struct trace_regs *regs,
				 unsigned int site, enum fgraph_owner owner, uint64_t now)
{
	if (__builtin_expect(fgraph_abandoned(st, regs), 0))
		return push_after_unwind(st, regs, site, owner, now);
	return push_frame(st, regs, site, owner, now);
}

/*
 * The return at 'sp' has no frame on the stack: the code switched
 * stacks and its frame was unwound as abandoned (fgraph.h). Its address
 * is the one kept in dropped[] with this SP and frame pointer, newest
 * first; hooking stops. With none, no address is known to be right:
 * stop the run rather than return to a wrong one.
 */
static uint64_t __attribute__((noinline, cold)) lost_return(struct fgraph_stack *st,
							   uint64_t fp, uint64_t sp)
{
	for (unsigned int i = 1; i <= FGRAPH_DROPPED; i++) {
		struct fgraph_dropped *d = &st->dropped[(st->ndropped - i) % FGRAPH_DROPPED];

		if (d->sp == sp && d->fp == fp) {
			d->sp = 0;
			stop("a return on a switched stack (coroutines, task switch) "
			     "found its frame unwound", d->site);
			return d->ret;
		}
	}
	panic("trace: a hooked return (sp %lx, fp %lx) matches no shadow frame: the "
	      "code switched stacks under function_graph or the profiler, and its "
	      "return address is lost", (unsigned long)sp, (unsigned long)fp);
}

uint64_t fgraph_exit(uint64_t fp, uint64_t retval, uint64_t sp)
{
	unsigned long flags = irq_save();
	struct fgraph_stack *st = this_cpu()->fgraph;
	uint64_t now = counter_read();

	if (__builtin_expect(!st->top || st->frames[st->top - 1].sp != sp, 0)) {
		/* Frames above this return's own were abandoned by a
		 * longjmp: unwind to it, never return to theirs. Frames
		 * are in SP order (each entry unwinds those below its SP),
		 * so no frame further down can have this SP. */
		unsigned int k = st->top;

		while (k && st->frames[k - 1].sp < sp)
			k--;
		if (k && st->frames[k - 1].sp == sp) {
			fgraph_unwind(st, sp, false, now);
		} else {
			uint64_t ret = lost_return(st, fp, sp);

			irq_restore(flags);
			return ret;
		}
	}
	struct fgraph_frame *f = &st->frames[--st->top];
	uint64_t ret = f->ret;

	/* The owner's bookkeeping runs either way, so its depth counters
	 * stay right while the frames still pushed unwind. */
	if (__builtin_expect(f->fp != fp, 0))
		stop("frame pointer mismatch at return", f->site);
	frame_done(st, f, now, retval, true);
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
	for (unsigned int c = 0; c < NR_CPUS; c++)
		fgraph_stacks[c].stopped = 0;
}

uint64_t fgraph_translate(uint64_t ret, unsigned int *hooked)
{
	/* A frame hooked by two tracers (graph and profiler) has two shadow
	 * frames: the inner one's return is a return hook itself. */
	while (fgraph_is_hook(ret)) {
		uint64_t real = fgraph_real_return(cpu_id(), (*hooked)++);

		if (!real)
			break;
		ret = real;
	}
	return ret;
}
